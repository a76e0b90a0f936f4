/**
 * The input side of `verdict eval`, made faster without changing one answer: chunks of ASCII bytes
 * decoded as Latin-1 copies, a regular file on stdin read straight from its descriptor 1 MiB at a
 * time, answers written in bounded batches. Each path is checked against the plain one (Go's
 * rune-by-rune decoding of all the bytes, a stream of chunks) on the same bytes.
 */
import { closeSync, createReadStream, mkdtempSync, openSync, readSync, type ReadStream, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { compileSource } from '@verdict/compiler';
import type { CompiledApprover } from '@verdict/engine';
import type { CommandIo } from '../src/args.ts';
import { streamDecisions } from '../src/commands/eval.ts';
import { createChunkDecoder, FILE_READ_BYTES, inputChunks } from '../src/input/eval-input.ts';
import { goDecodeUtf8 } from './go-request-reference.ts';

const POLICY = [
  'approver:',
  '  mode: pattern',
  '  default: deny',
  '  reason: no',
  '  input: raw',
  '  allow:',
  '    - {tool: read, match: "^\\\\{\\"path\\":\\"/w/"}',
  '  deny:',
  '    - {tool: read, match: "\\\\.\\\\."}',
  '    - {tool: read, match: "\\\\x{FFFD}"}', // a character decoded wrong is seen
].join('\n');

function approver(): CompiledApprover {
  const r = compileSource(POLICY, 'p.yaml');
  if (!r.approver) throw new Error(r.diagnostics.map((d) => d.message).join('; '));
  return r.approver;
}

/** Runs the eval loop over `stdin`; returns what it wrote and how many writes it took. */
async function run(stdin: NodeJS.ReadableStream): Promise<{ text: string; writes: number }> {
  const out = new PassThrough();
  const got: Buffer[] = [];
  let writes = 0;
  out.on('data', (c: Buffer) => got.push(c));
  const write = out.write.bind(out);
  out.write = ((chunk: string) => (writes++, write(chunk))) as typeof out.write;
  const io: CommandIo = { stdin, stdout: out, stderr: new PassThrough(), cwd: process.cwd(), isTTY: false };
  await streamDecisions(approver(), io);
  return { text: Buffer.concat(got).toString('utf8'), writes };
}

const dir = mkdtempSync(join(tmpdir(), 'verdict-eval-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A ReadStream over a descriptor, as Node builds `process.stdin` when stdin is a file. */
function fileStdin(bytes: Uint8Array, name: string): { stream: ReadStream; fd: number } {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  const fd = openSync(file, 'r');
  return { stream: createReadStream('', { fd, autoClose: false }), fd };
}

const req = (toolName: string, input: string) => JSON.stringify({ toolName, input });

describe('createChunkDecoder', () => {
  // Bytes that exercise the decoder: ASCII (long runs of it, so whole chunks are ASCII), newlines,
  // 2- to 4-byte characters, a BOM, and bytes that are not UTF-8 (lone continuation, truncated
  // sequences, an encoded surrogate, 0xff).
  const piece = fc.oneof(
    { weight: 6, arbitrary: fc.string({ unit: fc.constantFrom('a', '{', '"', '\\', ' ', '\n', '\r'), maxLength: 40 }).map((s) => Buffer.from(s, 'latin1')) },
    { weight: 2, arbitrary: fc.constantFrom('é', '—', '\u{1f600}', '\ufeff', '\u2028').map((s) => Buffer.from(s, 'utf8')) },
    { weight: 2, arbitrary: fc.constantFrom([0x80], [0xff], [0xc3], [0xe2, 0x80], [0xf0, 0x9f, 0x98], [0xed, 0xa0, 0x80], [0xef, 0xbb, 0xbf]).map((b) => Buffer.from(b)) },
  );

  it('decodes any chunking of any bytes to the text Go reads in all of them (less a BOM at the start)', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 8 }), (pieces, cuts) => {
        const all = Buffer.concat(pieces);
        const at = [...new Set(cuts.map((c) => (all.length === 0 ? 0 : c % (all.length + 1))))].sort((a, b) => a - b);
        const chunks = [0, ...at, all.length].slice(1).map((end, i, ends) => all.subarray(i === 0 ? 0 : ends[i - 1]!, end));
        const d = createChunkDecoder();
        const text = chunks.map((c) => d.decode(c)).join('') + d.end();
        const go = goDecodeUtf8(all);
        expect(text).toBe(go.charCodeAt(0) === 0xfeff ? go.slice(1) : go);
      }),
      { numRuns: 2000 },
    );
  });

  it('strips a BOM only at the very start of the stream, even when ASCII chunks come first', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const d = createChunkDecoder();
    expect(d.decode(Buffer.from('a\n')) + d.decode(Buffer.from('b\n')) + d.decode(Buffer.concat([bom, Buffer.from('c')])) + d.end()).toBe('a\nb\n\ufeffc');
    const e = createChunkDecoder();
    expect(e.decode(new Uint8Array(0)) + e.decode(bom.subarray(0, 2)) + e.decode(Buffer.concat([bom.subarray(2), Buffer.from('x\n')])) + e.decode(Buffer.from('y')) + e.end()).toBe('x\ny');
  });

  it('keeps no view of a chunk: the file path refills one buffer before the next decode', () => {
    // The bytes of `é` and `😀` cut by chunk ends, each chunk handed out in the same buffer.
    const all = Buffer.from('a\u00e9b\u{1f600}c\u00e9', 'utf8');
    for (const ends of [[2, 6, all.length], [2, 5, 8, all.length], [1, 2, 3, 4, 5, 6, 7, 8, 9, all.length]]) {
      const buffer = Buffer.alloc(all.length);
      const d = createChunkDecoder();
      let text = '';
      let from = 0;
      for (const end of ends) {
        buffer.fill(0x78); // what a refill leaves where the last chunk was
        all.copy(buffer, 0, from, end);
        text += d.decode(buffer.subarray(0, end - from));
        from = end;
      }
      expect(text + d.end()).toBe('a\u00e9b\u{1f600}c\u00e9');
    }
  });

  it('a character cut by an ASCII-only next chunk is one U+FFFD per byte, as Go reads it', () => {
    const d = createChunkDecoder();
    expect(d.decode(Buffer.from('ok\n')) + d.decode(Buffer.from([0x61, 0xe2, 0x80])) + d.decode(Buffer.from('b\n')) + d.end()).toBe('ok\na\ufffd\ufffdb\n');
  });
});

describe('verdict eval with a regular file on stdin', () => {
  // Lines around the first 1 MiB read: a 3-byte character cut by the read, CRLF, blank lines, bytes
  // that are not UTF-8, a BOM that is not at the start, and a last line without a newline.
  const filler = req('read', JSON.stringify({ path: '/w/' + 'f'.repeat(400) }));
  const cut = Buffer.from(req('read', JSON.stringify({ path: '/w/' + 'é—'.repeat(200) })) + '\n');
  const lines: Buffer[] = [Buffer.from('\ufeff' + req('read', '{"path":"/w/bom"}') + '\n')];
  let size = lines[0]!.length;
  while (size < FILE_READ_BYTES - 1000) {
    const l = Buffer.from(filler + (lines.length % 7 === 0 ? '\r\n' : lines.length % 11 === 0 ? '\n \t\r\n' : '\n'));
    lines.push(l);
    size += l.length;
  }
  // A padding line whose length puts the first read's end inside a character of `cut`.
  for (let pad = 0; ; pad++) {
    const l = Buffer.from(req('read', JSON.stringify({ path: '/w/' + 'p'.repeat(FILE_READ_BYTES - size - 300 + pad) })) + '\n');
    const at = FILE_READ_BYTES - size - l.length; // offset of the read's end inside `cut`
    if ((cut[at]! & 0xc0) === 0x80) {
      lines.push(l);
      break;
    }
  }
  const tail = [
    cut,
    // A second full read after the cut, which refills the buffer the cut character was read into.
    ...Array.from({ length: Math.ceil((FILE_READ_BYTES * 1.1) / (filler.length + 1)) }, () => Buffer.from(filler + '\n')),
    Buffer.concat([Buffer.from('{"toolName":"read","input":"{\\"path\\":\\"/w/'), Buffer.from([0xff, 0xed, 0xa0, 0x80]), Buffer.from('\\"}"}\n')]),
    Buffer.from('\ufeff' + req('read', '{"path":"/w/x"}') + '\n'),
    Buffer.from(req('read', '{"path":"/w/../etc"}') + '\r\n'),
    Buffer.from('not json\n\n'),
    Buffer.from(req('read', '{"path":"/w/last"}')),
  ];
  const bytes = Buffer.concat([...lines, ...tail]);

  it('is read from its descriptor, and answers exactly as the stream of the same bytes does', async () => {
    expect((bytes[FILE_READ_BYTES]! & 0xc0) === 0x80 && bytes.indexOf(cut) < FILE_READ_BYTES).toBe(true);
    const { stream, fd } = fileStdin(bytes, 'calls.jsonl');
    try {
      expect(inputChunks(stream)).not.toBe(stream);
      const direct = await run(stream);
      const chunks = bytes.toString('latin1').match(/[\s\S]{1,65536}/g)!.map((s) => Buffer.from(s, 'latin1'));
      const streamed = await run(Readable.from(chunks));
      expect(direct.text).toBe(streamed.text);
      const out = direct.text.split('\n');
      expect(out.length - 1).toBe(lines.length + tail.length); // one answer a line; blank lines get none
      expect(out.slice(-7)).toEqual([
        expect.stringMatching(/^\{"decision":"allow"/),
        expect.stringMatching(/^\{"decision":"deny","reason":"no","rule":\{"list":"deny","index":1,/), // the invalid bytes
        '{"decision":"deny","reason":"verdict: request line is not valid JSON","rule":null}',
        expect.stringMatching(/^\{"decision":"deny","reason":"no","rule":\{"list":"deny"/),
        '{"decision":"deny","reason":"verdict: request line is not valid JSON","rule":null}',
        expect.stringMatching(/^\{"decision":"allow"/),
        '',
      ]);
      expect(out[0]).toMatch(/^\{"decision":"allow"/); // the BOM at the start of the stream is not part of the line
    } finally {
      closeSync(fd);
    }
  });

  it('is read from where the descriptor stands, as the stream would', async () => {
    const first = `${req('read', '{"path":"/w/a"}')}\n`;
    const { stream, fd } = fileStdin(Buffer.from(`${first}${req('read', '{"path":"/w/../b"}')}\n`), 'offset.jsonl');
    try {
      readSync(fd, Buffer.alloc(first.length), 0, first.length, null); // the first line is consumed
      const { text } = await run(stream);
      expect(text).toMatch(/^\{"decision":"deny","reason":"no","rule":\{"list":"deny"[^\n]*\n$/);
    } finally {
      closeSync(fd);
    }
  });

  it('a stream that was started, or reads from a set position, is iterated as a stream', async () => {
    const a = fileStdin(Buffer.from('x\n'), 'a.jsonl');
    const b = createReadStream('', { fd: a.fd, autoClose: false, start: 0 });
    expect(inputChunks(b)).toBe(b); // never read from: closing its descriptor is enough
    closeSync(a.fd);
    writeFileSync(join(dir, 'b.jsonl'), 'y\n');
    const started = createReadStream('', { fd: openSync(join(dir, 'b.jsonl'), 'r') }); // closes its descriptor
    await new Promise<void>((resolve) => started.once('readable', () => resolve()));
    expect(started.read(1)).toEqual(Buffer.from('y'));
    expect(inputChunks(started)).toBe(started);
    started.destroy();
    const pipe = new PassThrough();
    expect(inputChunks(pipe)).toBe(pipe);
  });
});

describe('verdict eval decoding a chunk a piece at a time', () => {
  it('answers a chunk of many-byte characters as it answers the same text given whole', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 400; i++) {
      const path = (i % 3 === 0 ? '/w/' : i % 3 === 1 ? '/w/../' : '/x/') + 'é—\u{1f600}'.repeat(i % 50) + 'a'.repeat(i % 7);
      lines.push(i % 13 === 0 ? `not json ${path}` : req('read', JSON.stringify({ path })));
    }
    lines.splice(200, 0, req('read', JSON.stringify({ path: '/w/' + 'é'.repeat(70_000) }))); // spans pieces with no newline
    const text = lines.join('\n') + '\n';
    const bytes = Buffer.from(text, 'utf8');
    expect(bytes.length).toBeGreaterThan(6 * 32 * 1024);
    const whole = await run(Readable.from([text]));
    expect(whole.text.split('\n').length).toBe(402);
    expect(whole.text.split('\n')[200]).toMatch(/^\{"decision":"allow"/);
    expect((await run(Readable.from([bytes]))).text).toBe(whole.text);
    const odd = bytes.toString('latin1').match(/[\s\S]{1,40001}/g)!.map((s) => Buffer.from(s, 'latin1'));
    expect((await run(Readable.from(odd))).text).toBe(whole.text);
  });
});

describe('verdict eval output batches', () => {
  it('a chunk of many short bad lines is answered in several bounded writes, every line in order', async () => {
    const n = 20_000;
    const text = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 'x' : req('read', `{"path":"/w/${i}"}`))).join('\n') + '\n';
    const { text: out, writes } = await run(Readable.from([Buffer.from(text)]));
    const got = out.split('\n');
    expect(got.length).toBe(n + 1);
    expect(got.filter((l, i) => (i % 2 === 0 ? l.includes('not valid JSON') : l.startsWith('{"decision":"allow"'))).length).toBe(n);
    expect(writes).toBeGreaterThan(3);
  });
});
