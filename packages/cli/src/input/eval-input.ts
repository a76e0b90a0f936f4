import { isAscii, isUtf8 } from 'node:buffer';
import { fstatSync, read, ReadStream } from 'node:fs';

/** Bytes read at a time when stdin is a regular file (a `ReadStream` reads 64 KiB). */
export const FILE_READ_BYTES = 1 << 20;

/**
 * The chunks of `stdin`. When it is a `ReadStream` over a regular file that nobody has read from yet
 * (`verdict eval < calls.jsonl`: Node's `process.stdin` is then `new ReadStream(null, {fd: 0})`), the
 * file is read directly from its descriptor, 1 MiB at a time, from the same position the stream
 * would start at: the stream's machinery (a fresh 64 KiB buffer and a thread-pool round trip and
 * promise per chunk) cost more CPU than deciding the requests in them. Pipes, terminals and every
 * other stream are iterated as they are (a pipe delivers what the writer has written, so an agent
 * that waits for each answer gets it).
 *
 * The file path hands out one buffer, refilled for the next chunk: the caller must be done with a
 * chunk (decode it) before it asks for the next one, as a `for await` body that decodes it is.
 */
export function inputChunks(stdin: NodeJS.ReadableStream): AsyncIterable<unknown> {
  const fd = untouchedFileDescriptor(stdin);
  return fd === undefined ? stdin : readFile(fd);
}

function untouchedFileDescriptor(stdin: NodeJS.ReadableStream): number | undefined {
  if (!(stdin instanceof ReadStream)) return undefined;
  const s = stdin as ReadStream & { fd: unknown; start?: unknown; pos?: unknown };
  if (typeof s.fd !== 'number' || s.start !== undefined || s.pos !== undefined) return undefined;
  if (s.bytesRead !== 0 || s.readableLength !== 0 || s.readableFlowing !== null || s.destroyed || s.readableEnded) return undefined;
  try {
    return fstatSync(s.fd).isFile() ? s.fd : undefined;
  } catch {
    return undefined;
  }
}

async function* readFile(fd: number): AsyncGenerator<Uint8Array> {
  const buffer = Buffer.allocUnsafe(FILE_READ_BYTES);
  for (;;) {
    const n = await new Promise<number>((resolve, reject) => {
      // position null: from the descriptor's current offset, which it advances (as the stream reads).
      read(fd, buffer, 0, buffer.length, null, (err, bytes) => (err ? reject(err) : resolve(bytes)));
    });
    if (n === 0) return;
    yield buffer.subarray(0, n);
  }
}

/**
 * The length of the UTF-8 sequence that starts at `bytes[i]` and is whole and valid within `end`, or
 * 0: Go's `utf8.DecodeRune` rules (no overlong forms, no surrogates, nothing above U+10FFFF). With
 * `prefix`, a sequence cut short by `end` whose bytes so far are valid counts as its full length.
 */
function sequenceLength(bytes: Uint8Array, i: number, end: number, prefix = false): number {
  const b = bytes[i]!;
  let n: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (b < 0x80) return 1;
  if (b < 0xc2) return 0;
  if (b < 0xe0) n = 2;
  else if (b < 0xf0) {
    n = 3;
    if (b === 0xe0) lo = 0xa0;
    else if (b === 0xed) hi = 0x9f;
  } else if (b < 0xf5) {
    n = 4;
    if (b === 0xf0) lo = 0x90;
    else if (b === 0xf4) hi = 0x8f;
  } else return 0;
  for (let k = 1; k < n; k++) {
    if (i + k >= end) return prefix ? n : 0;
    const c = bytes[i + k]!;
    if (c < lo || c > hi) return 0;
    lo = 0x80;
    hi = 0xbf;
  }
  return n;
}

/**
 * Decodes whole, valid UTF-8 (where every decoder agrees), keeping a byte order mark. In streaming
 * mode, which on Node 20 is faster than its one-shot mode; given only whole characters it never
 * holds a byte between calls, so one decoder serves every caller.
 */
const validDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
const STREAM = { stream: true };

function utf8Slice(bytes: Uint8Array, start: number, end: number): string {
  return validDecoder.decode(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end), STREAM);
}

/**
 * UTF-8 bytes to text as Go's `encoding/json` reads them: each byte where no whole, valid sequence
 * starts (`utf8.DecodeRune`'s `RuneError` of width 1) is one U+FFFD, so `E2 82 78` is two U+FFFD and
 * `x` (the WHATWG decoder, `TextDecoder` and `Buffer#toString`, give one U+FFFD for the bytes of a
 * cut-short sequence) and an encoded surrogate `ED A0 80` is three. A byte order mark is kept. Valid
 * input (checked natively) is decoded natively; only invalid input takes the loop.
 */
export function decodeUtf8AsGo(bytes: Uint8Array): string {
  if (isUtf8(bytes)) return utf8Slice(bytes, 0, bytes.length);
  let out = '';
  let run = 0;
  for (let i = 0; i < bytes.length; ) {
    if (bytes[i]! < 0x80) {
      i++;
      continue;
    }
    const n = sequenceLength(bytes, i, bytes.length);
    if (n > 0) i += n;
    else {
      out += utf8Slice(bytes, run, i) + '\ufffd';
      run = ++i;
    }
  }
  return out + utf8Slice(bytes, run, bytes.length);
}

/** Where the bytes of a valid but cut-short sequence at the end of `bytes` start (`bytes.length` if none). */
function cutSequenceStart(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let j = n - 1; j >= 0 && j >= n - 3; j--) {
    const b = bytes[j]!;
    if (b >= 0x80 && b < 0xc0) continue; // a continuation byte: look for its lead
    return b >= 0xc2 && sequenceLength(bytes, j, n, true) > n - j ? j : n;
  }
  return n;
}

const BOM = 0xfeff;

/**
 * UTF-8 bytes to text, chunk by chunk, exactly as {@link decodeUtf8AsGo} decodes all of them at
 * once, except that a byte order mark at the very start of the stream is dropped. The bytes of a
 * character split across chunks (a valid start, cut short by the chunk's end) are held until the
 * next chunk completes it or shows it never will (then each is one U+FFFD, as Go reads them). A
 * chunk of ASCII bytes met while nothing is held decodes to the same text as a Latin-1 copy, which
 * costs a fraction of the decoder's time.
 */
export function createChunkDecoder(): { decode(bytes: Uint8Array): string; end(): string } {
  let held: Uint8Array | undefined; // 1-3 bytes of a character the last chunk cut short
  let atStart = true; // no text yet: a BOM here is dropped
  const decode = (bytes: Uint8Array): string => {
    if (bytes.length === 0) return '';
    if (held === undefined && !atStart && isAscii(bytes)) {
      const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      return buf.toString('latin1');
    }
    let text = '';
    let from = 0;
    if (held !== undefined) {
      // The held character, completed by the first bytes of this chunk (it needs at most 3 more).
      const joined = new Uint8Array(held.length + Math.min(3, bytes.length));
      joined.set(held);
      joined.set(bytes.subarray(0, joined.length - held.length), held.length);
      const n = sequenceLength(joined, 0, joined.length, true);
      if (n > joined.length) {
        held = joined; // still cut short: this chunk was 1-2 bytes
        return '';
      }
      if (n > 0) {
        text = utf8Slice(joined, 0, n);
        from = n - held.length;
      } else text = '\ufffd'.repeat(held.length); // its lead and continuation bytes, one U+FFFD each
      held = undefined;
    }
    const cut = cutSequenceStart(bytes);
    // A copy: a chunk's buffer is refilled once decoded (`inputChunks`), and `Buffer#slice` is a view.
    // (cut >= from: the bytes before `from` continue the held character.)
    if (cut < bytes.length) held = new Uint8Array(bytes.subarray(cut));
    text += decodeUtf8AsGo(from === 0 && cut === bytes.length ? bytes : bytes.subarray(from, cut));
    if (atStart && text.length > 0) {
      atStart = false;
      if (text.charCodeAt(0) === BOM) text = text.slice(1);
    }
    return text;
  };
  return {
    decode,
    end() {
      const n = held?.length ?? 0;
      held = undefined;
      return '\ufffd'.repeat(n);
    },
  };
}
