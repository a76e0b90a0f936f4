import { isAscii } from 'node:buffer';
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
 * UTF-8 bytes to text, chunk by chunk. A streaming TextDecoder holds the bytes of a character split
 * across chunks and strips a BOM at the very start of the stream; a chunk of ASCII bytes met while it
 * holds nothing decodes to the same text as a Latin-1 copy, which costs a fraction of the decoder's
 * time. The first chunk with bytes always goes through the decoder (so its BOM handling is the
 * decoder's own), and so does every chunk after one that ended inside, or possibly inside, a character.
 */
export function createChunkDecoder(): { decode(bytes: Uint8Array): string; end(): string } {
  const decoder = new TextDecoder('utf-8');
  let holdsNothing = false; // true once the decoder has seen bytes and its last chunk ended on an ASCII byte
  return {
    decode(bytes) {
      if (bytes.length === 0) return '';
      if (holdsNothing && isAscii(bytes)) {
        const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        return buf.toString('latin1');
      }
      const text = decoder.decode(bytes, { stream: true });
      holdsNothing = bytes[bytes.length - 1]! < 0x80;
      return text;
    },
    end: () => decoder.decode(),
  };
}
