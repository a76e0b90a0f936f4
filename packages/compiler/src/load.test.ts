import { Readable } from 'node:stream';
import { mkdtempSync, openSync, closeSync, ftruncateSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileFile, compileSource, parseDescriptorSource } from './index.ts';
import { detectSyntax, firstInvalidUtf8, MAX_SOURCE_BYTES, MAX_SOURCE_VALUES, nameFromBytes, readSourceFile, readSourceStream } from './load.ts';
import { MAX_FILE_DIAGNOSTICS } from './cap.ts';
import { NODE_SLACK } from './parse.ts';
import { spawnSync } from 'node:child_process';

const tmp = mkdtempSync(join(tmpdir(), 'verdict-load-'));

describe('load', () => {
  it('refuses a 50 MB file without reading it', () => {
    const file = join(tmp, 'huge.yaml');
    const fd = openSync(file, 'w');
    ftruncateSync(fd, 50 * 1024 * 1024); // sparse: no 50 MB written, and none read
    closeSync(fd);
    const r = compileFile(file);
    expect(r.diagnostics.map((d) => [d.code, d.severity, d.message])).toEqual([
      ['load/too-large', 'error', 'file is 50.0 MiB, over the 10 MiB limit'],
    ]);
    expect(r.stoppedAfter).toBe('load');
    expect(r.text).toBeUndefined();
  });

  it('accepts a file at the limit and refuses an in-memory source one byte over', () => {
    const ok = compileSource('#'.repeat(MAX_SOURCE_BYTES - 20) + '\napprover: {}\n', 'big.yaml', { stopAfter: 'load' });
    expect(ok.diagnostics).toEqual([]);
    const over = compileSource('#'.repeat(MAX_SOURCE_BYTES + 1), 'big.yaml');
    expect(over.diagnostics[0]?.code).toBe('load/too-large');
  });

  it('reports invalid UTF-8 at the line and column of the first bad byte', () => {
    const file = join(tmp, 'bad.yaml');
    // line 2: two spaces, an emoji (two UTF-16 columns), then a lone continuation byte
    writeFileSync(file, Buffer.concat([Buffer.from('approver:\n  😀'), Buffer.from([0x80]), Buffer.from('\n')]));
    const r = compileFile(file);
    expect(r.diagnostics).toHaveLength(1);
    const d = r.diagnostics[0]!;
    expect([d.code, d.span?.start.line, d.span?.start.column]).toEqual(['load/invalid-utf8', 2, 5]);
    expect(d.message).toBe('file is not valid UTF-8: byte 0x80 at byte offset 16');
  });

  it('strips a BOM: positions start after it', () => {
    const r = compileSource('\uFEFFpolcy: {}\n', 'bom.yaml');
    const d = r.diagnostics[0]!;
    expect([d.code, d.span?.start.line, d.span?.start.column]).toEqual(['schema/unknown-key', 1, 1]);
    expect(r.text?.startsWith('polcy')).toBe(true);
  });

  it('reports a missing file and a directory', () => {
    expect(compileFile(join(tmp, 'nope.yaml')).diagnostics[0]?.code).toBe('load/not-found');
    const d = join(tmp, 'dir.yaml');
    mkdirSync(d);
    expect(compileFile(d).diagnostics[0]?.code).toBe('load/not-a-file');
  });

  it('reports a NUL byte at its position', () => {
    const r = compileSource('a: 1\nb: x\0y\n', 'nul.yaml');
    expect(r.diagnostics.map((d) => [d.code, d.span?.start.line, d.span?.start.column])).toEqual([['load/nul-byte', 2, 5]]);
  });

  it('picks the syntax by extension, then by content', () => {
    expect(detectSyntax('a.YML', '{}')).toBe('yaml');
    expect(detectSyntax('a.json', 'x: 1')).toBe('json');
    expect(detectSyntax('a.verdict', '{}')).toBe('verdict');
    expect(detectSyntax('policy', ' {"approver": {}}')).toBe('json');
    expect(detectSyntax('policy', '{approver: {}}')).toBe('yaml');
    expect(detectSyntax('policy', 'approver: {}')).toBe('yaml');
    expect(compileSource('{approver: {}}', 'x.txt', { syntax: 'json', stopAfter: 'parse' }).diagnostics[0]?.code).toBe('json/syntax');
  });

  it('firstInvalidUtf8 agrees with the fatal TextDecoder', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), (bytes) => {
        const k = firstInvalidUtf8(bytes);
        const ok = (b: Uint8Array) => {
          try {
            new TextDecoder('utf-8', { fatal: true }).decode(b);
            return true;
          } catch {
            return false;
          }
        };
        expect(ok(bytes)).toBe(k === bytes.length);
        expect(ok(bytes.subarray(0, k))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('load: a value budget (the YAML parser needs minutes for millions of values)', () => {
  it('refuses a 9 MB flow sequence of 4.5 million numbers at once, located at the value over the budget', () => {
    const text = 'x: [' + '1,'.repeat(4_500_000) + '1]\n';
    const r = compileSource(text, 'wide.yaml');
    expect(r.diagnostics.map((d) => [d.code, d.message, d.span?.start.line, d.span?.start.column])).toEqual([
      ['load/too-large', `file has more than ${MAX_SOURCE_VALUES} lines and commas, over the limit for a policy file`, 1, 4 + 2 * MAX_SOURCE_VALUES + 2],
    ]);
    expect(r.stoppedAfter).toBe('load');
  });

  it('refuses 9 million blank lines (JSON too), and counts nothing else', () => {
    for (const [file, text] of [
      ['blank.yaml', 'mode: deny\n' + '\n'.repeat(9_000_000)],
      ['blank.json', '{"mode": "deny"' + '\n'.repeat(9_000_000) + '}'],
    ] as const) {
      // Refused where the budget runs out (the bad-input table of the CLI bounds the time it takes).
      const r = compileSource(text, file);
      expect(r.diagnostics.map((d) => [d.code, d.span?.start.line])).toEqual([['load/too-large', MAX_SOURCE_VALUES + 1]]);
    }
    const spaces = compileSource('mode: deny' + ' '.repeat(9_000_000) + '\n', 'spaces.yaml');
    expect(spaces.diagnostics).toEqual([]);
    expect(spaces.approver?.approve({ toolName: 't', input: '' })).toEqual({ decision: 'deny', reason: 'denied by policy' });
  });

  it('accepts a file with as many lines and commas as the budget allows', () => {
    const text = 'approver: {mode: pattern}\n' + '#,\n'.repeat(MAX_SOURCE_VALUES / 2 - 1);
    const r = compileSource(text, 'edge.yaml');
    expect(r.diagnostics).toEqual([]);
    expect(r.approver).toBeDefined();
  });

  it('twenty thousand findings: none an internal error, the first 100 shown and the rest counted', () => {
    const n = 20_000;
    const text = '{' + Array.from({ length: n }, (_, i) => `k${i}: 1`).join(',') + '}';
    const r = compileSource(text, 'many.yaml');
    expect(r.diagnostics.filter((d) => d.code === 'internal/error')).toEqual([]);
    expect(r.diagnostics).toHaveLength(101);
    expect(r.diagnostics.slice(0, 100).every((d) => d.code === 'schema/unknown-key')).toBe(true);
    expect(r.diagnostics[100]).toMatchObject({ code: 'load/too-many-diagnostics', severity: 'error', message: `… and ${n - 100} more diagnostics in this file` });
  });
});

describe('descriptor files: the same value budget', () => {
  it('a descriptor file of millions of values is refused at once', () => {
    const r = parseDescriptorSource('{"type": [' + '1,'.repeat(2_000_000) + '1]}', 'huge-driver.json');
    expect(r.descriptor).toBeUndefined();
    expect(r.diagnostics.map((d) => [d.code, d.span?.start.line, d.span?.start.column])).toEqual([['load/too-large', 1, 11 + 2 * MAX_SOURCE_VALUES + 1]]);
  });
});

describe('load: one bounded, strict reader', () => {
  it('refuses a FIFO without opening it for a blocking read, and a device without reading it', () => {
    const fifo = join(tmp, 'pipe.yaml');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // Nobody writes to the pipe: a blocking open or read would never return.
    expect(readSourceFile(fifo).diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['load/not-a-file', `\`${fifo}\` is a named pipe (FIFO), not a regular file`],
    ]);
    expect(readSourceFile('/dev/zero').diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['load/not-a-file', '`/dev/zero` is a character device, not a regular file'],
    ]);
  });
  it('names a UTF-16 file instead of pointing at its byte order mark as a bad byte', () => {
    const file = join(tmp, 'utf16.yaml');
    writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('approver: {}\n', 'utf16le')]));
    expect(readSourceFile(file).diagnostics.map((d) => [d.code, d.message, d.span?.start.line, d.span?.start.column])).toEqual([
      ['load/invalid-utf8', 'file is UTF-16 (it starts with a UTF-16 byte order mark), not UTF-8', 1, 1],
    ]);
  });
  it('strips one UTF-8 BOM, from a file as from text in memory', () => {
    const file = join(tmp, 'bom2.yaml');
    writeFileSync(file, '\ufeff\ufeffmode: pattern\n');
    const fromFile = compileFile(file, { stopAfter: 'load' });
    const fromText = compileSource('\ufeff\ufeffmode: pattern\n', file, { stopAfter: 'load' });
    expect(fromFile.text).toBe('\ufeffmode: pattern\n');
    expect(fromText.text).toBe(fromFile.text);
  });
  it('opens a name given as bytes and shows it with its bad bytes escaped', () => {
    const bytes = Buffer.concat([Buffer.from(join(tmp, 'n')), Buffer.from([0xff]), Buffer.from('.yaml')]);
    writeFileSync(bytes, 'mode: pattern\n');
    const shown = nameFromBytes(bytes);
    expect(shown).toBe(join(tmp, 'n\\xff.yaml'));
    expect(readSourceFile(shown, bytes).text).toBe('mode: pattern\n');
  });
  it('says why a name with U+FFFD, as Node reads a byte that is not UTF-8 in an argument, is not found', () => {
    const d = readSourceFile(join(tmp, 'n\ufffd.yaml')).diagnostics[0];
    expect(d?.code).toBe('load/not-found');
    expect(d?.help).toContain('found when its folder is given');
  });
});

describe('load: standard input, bounded as a file is', () => {
  it('reads a stream whole and keeps the BOM for the load stage to strip once, as for a file', async () => {
    const r = await readSourceStream('<stdin>', Readable.from([Buffer.from('\ufeff\ufeffmode: '), Buffer.from('pattern\n')]));
    expect(r).toEqual({ text: '\ufeff\ufeffmode: pattern\n', diagnostics: [] });
    const file = join(tmp, 'bom3.yaml');
    writeFileSync(file, '\ufeff\ufeffmode: pattern\n');
    expect(compileSource(r.text!, file, { stopAfter: 'load' }).text).toBe(compileFile(file, { stopAfter: 'load' }).text);
  });
  it('stops reading one chunk past 10 MiB and says the input is over the limit', async () => {
    let pulled = 0;
    async function* endless(): AsyncGenerator<Buffer> {
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      for (;;) {
        pulled++;
        yield chunk;
      }
    }
    const r = await readSourceStream('<stdin>', endless());
    expect(r.text).toBeUndefined();
    expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([['load/too-large', 'file is larger than 10 MiB, over the 10 MiB limit']]);
    expect(pulled).toBe(MAX_SOURCE_BYTES / (1024 * 1024) + 1);
  });
  it('locates the first byte that is not UTF-8, as for a file', async () => {
    const r = await readSourceStream('<stdin>', Readable.from([Buffer.from([0x61, 0x3a, 0x0a, 0x62, 0xff])]));
    expect(r.diagnostics.map((d) => [d.code, d.message, d.span?.start.line, d.span?.start.column])).toEqual([
      ['load/invalid-utf8', 'file is not valid UTF-8: byte 0xff at byte offset 4', 2, 2],
    ]);
  });
  it('turns a stream that fails into a diagnostic, not an exception', async () => {
    async function* failing(): AsyncGenerator<Buffer> {
      yield Buffer.from('a');
      throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
    }
    const r = await readSourceStream('<stdin>', failing());
    expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([['load/unreadable', 'cannot read `<stdin>`: i/o error, read']]);
  });
});

describe('load: at most 100 diagnostics per file, and parsing stops there', () => {
  it('a 4 MB line of `]` shows 100 errors and one line saying the rest was not checked', () => {
    const r = compileSource(']'.repeat(4_000_000), 'brackets.yaml');
    expect(r.diagnostics).toHaveLength(MAX_FILE_DIAGNOSTICS + 1);
    expect(r.diagnostics.slice(0, 100).every((d) => d.code === 'yaml/syntax')).toBe(true);
    expect(r.diagnostics[100]).toMatchObject({
      code: 'load/too-many-diagnostics',
      severity: 'error',
      message: '… and the rest of the file was not checked: it has more than 100 errors',
      span: { start: { line: 1, column: 101 } },
    });
  });
  it('a line packed with a million tags is refused where it goes over the node budget', () => {
    const r = compileSource('!t '.repeat(1_000_000) + 'x\n', 'tags.yaml');
    expect(r.diagnostics.map((d) => [d.code, d.span?.start.line, d.span?.start.column])).toEqual([
      ['load/too-large', 1, 3 * (NODE_SLACK + 1) - 2],
    ]);
  });
  it('a dense policy within the budget parses (a JSON policy on one line, four rules a line)', () => {
    const rule = '{"tool": "bash", "match": "x"}';
    const oneLine = `{"approver": {"mode": "pattern", "default": "deny", "deny": [${Array(2500).fill(rule).join(', ')}]}}`;
    expect(compileSource(oneLine, 'one-line.json').diagnostics).toEqual([]);
    const block = 'approver:\n  mode: pattern\n  default: deny\n  deny:\n' + `    - {tool: bash, match: x}\n`.repeat(5_000);
    expect(compileSource(block, 'block.yaml').diagnostics).toEqual([]);
  });
  it('150,000 unexpected characters in a DSL file: 100 shown and the rest counted, no internal error', () => {
    const r = compileSource('@\n'.repeat(150_000), 'errors.verdict');
    expect(r.diagnostics).toHaveLength(MAX_FILE_DIAGNOSTICS + 1);
    expect(r.diagnostics[100]).toMatchObject({ code: 'load/too-many-diagnostics', message: '… and 149900 more diagnostics in this file' });
  });
});

describe('every compiler message is bounded', () => {
  it('a policy value of two million characters is quoted shortened, in the message and in the Go note', () => {
    const r = compileSource(`policy: {sandbox: ${'a'.repeat(2_000_000)}}\n`, 'long-value.yaml');
    const d = r.diagnostics.find((x) => x.code === 'policy/invalid-value');
    expect(d?.message).toBe(`invalid value \`${'a'.repeat(48)}…${'a'.repeat(32)} (2000000 characters)\` for \`Policy.Sandbox\``);
    for (const x of r.diagnostics) {
      expect(x.message.length).toBeLessThan(1000);
      for (const n of x.related ?? []) expect(n.message.length).toBeLessThan(1000);
    }
  });
});
