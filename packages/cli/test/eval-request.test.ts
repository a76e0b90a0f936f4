/**
 * How `verdict eval` reads a request line, against Go's `encoding/json` decoding the line into a
 * struct {toolName, input, sessionId}: repeated keys (exact or case-folded) are bad lines, a key in
 * another case names its field as Go matches it, a non-string input reaches the approver as the
 * exact text the caller wrote, and invalid UTF-8 is U+FFFD byte by byte. Tables through
 * `readRequestLine`, `streamDecisions` and the CLI itself, and properties against a plain reference
 * written from Go's rules (`go-request-reference.ts`).
 */
import { PassThrough, Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSource } from '@verdict/compiler';
import type { CompiledApprover } from '@verdict/engine';
import type { CommandIo } from '../src/args.ts';
import { streamDecisions } from '../src/commands/eval.ts';
import { createDecisionFormatter } from '../src/input/eval-line.ts';
import { parseRequestLine, readRequestLine } from '../src/input/eval-request.ts';
import { createChunkDecoder, decodeUtf8AsGo } from '../src/input/eval-input.ts';
import { goDecodeUtf8, goReadRequest } from './go-request-reference.ts';
import { runCli } from './harness.ts';

/** `VERDICT_FUZZ_RUNS=50000` turns the properties below into a long fuzz run. */
const RUNS = Number(process.env['VERDICT_FUZZ_RUNS'] ?? 0);
const LONG = RUNS > 0 ? 3_600_000 : undefined;

function approver(yaml: string[]): CompiledApprover {
  const r = compileSource(yaml.join('\n'), 'p.yaml');
  if (!r.approver) throw new Error(r.diagnostics.map((d) => d.message).join('; '));
  return r.approver;
}

/** Raw mode: rules that see the exact text of the input and tool names as sent. */
const RAW = approver([
  'approver:',
  '  mode: pattern',
  '  default: allow',
  '  reason: no',
  '  input: raw',
  '  deny:',
  '    - {tool: calc, match: "1e999|-0|12345678901234567890|\\\\{ \\"a\\" : 1 \\\\}"}',
  '    - {tool: t, match: "^\\\\{\\"a\\":\\"\\\\x{FFFD}{2}x\\"\\\\}$"}',
  '    - {tool: t, match: "\\\\x{FFFD}{3}"}',
  '    - {tool: bash, match: "rm -rf"}',
  '    - {match: "\\\\\\\\u"}',
]);

/** Canonical mode, as fixtures/policies/workspace.yaml: repeated input keys are refused. */
const CANONICAL = approver([
  'approver:',
  '  mode: pattern',
  '  default: deny',
  '  reason: no',
  '  input: canonical',
  '  allow:',
  '    - {tool: grep}',
  '    - {tool: bash, field: command, match: "ls( .*)?"}',
  '    - {tool: "\\ufffd"}',
  '  deny:',
  '    - {tool: bash, match: "rm -rf"}',
]);

async function evalBytes(a: CompiledApprover, chunks: (Buffer | string)[]): Promise<string[]> {
  const out = new PassThrough();
  const got: Buffer[] = [];
  out.on('data', (c: Buffer) => got.push(c));
  const io: CommandIo = { stdin: Readable.from(chunks), stdout: out, stderr: new PassThrough(), cwd: process.cwd(), isTTY: false };
  await streamDecisions(a, io);
  const text = Buffer.concat(got).toString('utf8');
  return text === '' ? [] : text.slice(0, -1).split('\n');
}

const bad = (reason: string) => `{"decision":"deny","reason":${JSON.stringify(`verdict: ${reason}`)},"rule":null}`;
const ALLOW = /^\{"decision":"allow"/;
const REJECTED = '{"decision":"deny","reason":"tool input is not valid JSON or repeats a key","rule":null}';
const b = (s: string) => Buffer.from(s, 'utf8');

describe('request lines: repeated and case-folded keys (wrong allows before)', () => {
  it('an object input that repeats a key reaches canonical mode as written, and is refused', async () => {
    const line = '{"toolName":"bash","input":{"command":"rm -rf /","command":"ls"}}';
    expect(readRequestLine(b(line))).toEqual({ toolName: 'bash', input: '{"command":"rm -rf /","command":"ls"}' });
    expect(await evalBytes(CANONICAL, [line + '\n'])).toEqual([REJECTED]);
    // The same through the CLI, with the bundled policy (its `ls` rule allowed the call before).
    const r = await runCli(['eval', '--policy', 'fixtures/policies/workspace.yaml'], `${line}\n{"toolName":"bash","input":{"command":"ls"}}\n`);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toEqual([REJECTED, expect.stringMatching(ALLOW), '']);
  });

  it('an envelope that repeats a key, exactly or in another case, is a bad line', async () => {
    const rows: [string, string][] = [
      ['{"toolName":"bash","input":"{\\"command\\":\\"rm -rf /\\"}","toolName":"grep"}', 'request line repeats the key `toolName`'],
      ['{"toolName":"grep","TOOLNAME":"bash","input":"{\\"command\\":\\"rm -rf /\\"}"}', 'request line repeats the key `toolName` as `TOOLNAME`'],
      ['{"toolName":"bash","input":"{\\"command\\":\\"rm -rf /\\"}","Input":"{}"}', 'request line repeats the key `input` as `Input`'],
      ['{"toolName":"grep","\\u0074oolName":"bash"}', 'request line repeats the key `toolName`'],
      ['{"sessionId":"a","toolName":"grep","\u017fessionId":"b"}', 'request line repeats the key `sessionId` as `\u017fessionId`'],
      ['{"x":1,"toolName":"grep","x":2}', 'request line repeats the key `x`'],
      ['{"k":1,"toolName":"grep","\u212a":2}', 'request line repeats the key `k` as `\u212a`'],
      ['{"\\ud800":1,"toolName":"grep","\\udc00":2}', 'request line repeats the key `\ufffd`'],
      [`{"${'k'.repeat(100)}":1,"toolName":"grep","${'K'.repeat(100)}":2}`, `request line repeats the key \`${'k'.repeat(64)}…\` as \`${'K'.repeat(64)}…\``],
      [`{"${'\u{1f600}'.repeat(65)}":1,"${'\u{1f600}'.repeat(65)}":2}`, `request line repeats the key \`${'\u{1f600}'.repeat(64)}…\``],
    ];
    for (const [line, reason] of rows) {
      expect(readRequestLine(b(line)), line).toBe(reason);
      expect(goReadRequest(b(line)), line).toBe(reason);
    }
    expect(await evalBytes(CANONICAL, rows.map(([l]) => l + '\n'))).toEqual(rows.map(([, r]) => bad(r)));
    const r = await runCli(['eval', '--policy', 'fixtures/policies/workspace.yaml'], rows[0]![0] + '\n');
    expect(r.stdout).toBe(bad('request line repeats the key `toolName`') + '\n');
  });

  it('a key in another case names its field, as Go matches struct fields; İ and ı fold with nothing', async () => {
    expect(readRequestLine(b('{"TOOLNAME":"grep","INPUT":"x","SessionID":"s"}'))).toEqual({ toolName: 'grep', input: 'x', sessionId: 's' });
    expect(readRequestLine(b('{"toolname":"bash","\u017fe\u017f\u017fionid":"s","\u0130nput":"{}","\u0131nput":"{}"}'))).toEqual({ toolName: 'bash', input: '', sessionId: 's' });
    expect(readRequestLine(b('{"tool_name":"grep"}'))).toBe('request has no string `toolName`');
    expect(await evalBytes(CANONICAL, ['{"TOOLNAME":"grep","input":"{}"}\n'])).toEqual([expect.stringMatching(ALLOW)]);
  });
});

describe('request lines: a non-string input is the text the caller wrote', () => {
  it('numbers, white space and escapes reach the approver verbatim (raw mode sees them)', async () => {
    const rows: [string, string][] = [
      ['{"toolName":"calc","input":{"n":1e999}}', '{"n":1e999}'],
      ['{"toolName":"calc","input":-0}', '-0'],
      ['{"toolName":"calc","input":[12345678901234567890, 1.0]}', '[12345678901234567890, 1.0]'],
      ['{"toolName":"calc","input":{ "a" : 1 } }', '{ "a" : 1 }'],
      ['{"toolName":"x","input":{"a":"\\u00e9\\ud800"},"sessionId":"s"}', '{"a":"\\u00e9\\ud800"}'],
    ];
    for (const [line, input] of rows) expect(readRequestLine(b(line))).toMatchObject({ input });
    const lines = await evalBytes(RAW, rows.map(([l]) => l + '\n'));
    expect(lines.slice(0, 4)).toEqual(Array(4).fill(expect.stringMatching(/^\{"decision":"deny","reason":"no","rule":\{"list":"deny","index":0,/)));
    expect(lines[4]).toMatch(/^\{"decision":"deny","reason":"no","rule":\{"list":"deny","index":4,/);
  });

  it('a string input and a lone-surrogate tool name decode as Go decodes them (U+FFFD)', () => {
    expect(readRequestLine(b('{"toolName":"\\ud800","input":"\\udc00\\ud83d\\ude00\\ud800\\u0041","sessionId":"\\udfff"}'))).toEqual({
      toolName: '\ufffd',
      input: '\ufffd\u{1f600}\ufffdA',
      sessionId: '\ufffd',
    });
    // A lone surrogate in the text itself is the invalid byte it stands for.
    expect(parseRequestLine('{"toolName":"t","input":"\ud800\\udc00"}')).toEqual({ toolName: 't', input: '\ufffd\ufffd' });
    expect(parseRequestLine('{"toolName":"t","input":"\\ud800\udc00"}')).toEqual({ toolName: 't', input: '\ufffd\ufffd' });
  });

  it('nesting: 10000 levels in all are read, one more is a bad line that says so', () => {
    const deep = (n: number) => `{"toolName":"t","input":${'['.repeat(n)}${']'.repeat(n)}}`;
    expect(readRequestLine(b(deep(9999)))).toEqual({ toolName: 't', input: '['.repeat(9999) + ']'.repeat(9999) });
    expect(readRequestLine(b(deep(10000)))).toBe('request line nests deeper than 10000 levels');
    expect(readRequestLine(b(`{"toolName":"t","x":${'{"a":'.repeat(10000)}1${'}'.repeat(10000)}}`))).toBe('request line nests deeper than 10000 levels');
    // The first error decides: a syntax error before the 10001st level is a syntax error.
    expect(readRequestLine(b(`{"toolName":"t",,"input":${'['.repeat(20000)}}`))).toBe('request line is not valid JSON');
  });

  it('what is not a request says why', () => {
    const rows: [string, string][] = [
      ['', 'request line is not valid JSON'],
      ['[]', 'request line is not a JSON object'],
      ['"x"', 'request line is not a JSON object'],
      ['{"toolName":"t",}', 'request line is not valid JSON'],
      ['{"toolName":"t","input":01}', 'request line is not valid JSON'],
      ['{"toolName":"t","input":"\\x"}', 'request line is not valid JSON'],
      ['{"toolName":"t","input":"a\tb"}', 'request line is not valid JSON'],
      ['{"toolName":"t"} {}', 'request line is not valid JSON'],
      ['{"toolName":null}', 'request has no string `toolName`'],
      ['{"__proto__":{"toolName":"t"}}', 'request has no string `toolName`'],
    ];
    for (const [line, reason] of rows) expect([line, readRequestLine(b(line))]).toEqual([line, reason]);
  });
});

describe('request bytes: invalid UTF-8 is U+FFFD byte by byte, as Go decodes it', () => {
  const line = (mid: number[]) => Buffer.concat([b('{"toolName":"t","input":"{\\"a\\":\\"'), Buffer.from(mid), b('\\"}"}')]);

  it('a cut-short sequence is one U+FFFD per byte (E2 82 78: two and `x`), an encoded surrogate three', async () => {
    expect(readRequestLine(line([0xe2, 0x82, 0x78]))).toEqual({ toolName: 't', input: '{"a":"\ufffd\ufffdx"}' });
    expect(readRequestLine(line([0xed, 0xa0, 0x80]))).toEqual({ toolName: 't', input: '{"a":"\ufffd\ufffd\ufffd"}' });
    expect(readRequestLine(line([0xf0, 0x9f, 0x98, 0x78]))).toEqual({ toolName: 't', input: '{"a":"\ufffd\ufffd\ufffdx"}' });
    expect(readRequestLine(line([0xc0, 0xaf, 0xf4, 0x90, 0x80, 0x80]))).toEqual({ toolName: 't', input: `{"a":"${'\ufffd'.repeat(6)}"}` });
    // Decisions: the rule `^{"a":"\x{FFFD}{2}x"}$` denies the first, `\x{FFFD}{3}` the second.
    const lines = await evalBytes(RAW, [Buffer.concat([line([0xe2, 0x82, 0x78]), b('\n'), line([0xed, 0xa0, 0x80]), b('\n'), line([0xe2, 0x82, 0xac]), b('\n')])]);
    expect(lines.map((l) => JSON.parse(l).rule?.index ?? null)).toEqual([1, 2, null]);
  });

  it('split across chunks anywhere, and held at the end of the stream, the bytes read the same', async () => {
    const bytes = Buffer.concat([line([0xe2, 0x82, 0x78]), b('\n'), line([0xf0, 0x9f, 0x98]), b('\n'), line([0xe2, 0x82, 0xac]), b('\n'), b('{"toolName":"t","input":"'), Buffer.from([0xe2, 0x82])]);
    const whole = await evalBytes(RAW, [bytes]);
    expect(whole).toEqual([expect.stringMatching(/"index":1,/), expect.stringMatching(/"index":2,/), expect.stringMatching(ALLOW), bad('request line is not valid JSON')]);
    for (let cut = 1; cut < bytes.length; cut += 7) expect(await evalBytes(RAW, [bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(whole);
  });

  it('an invalid byte outside a string makes the line not JSON', () => {
    expect(readRequestLine(Buffer.concat([b('{"toolName":"t",'), Buffer.from([0xff]), b('"input":"{}"}')]))).toBe('request line is not valid JSON');
    expect(readRequestLine(Buffer.concat([b('{"toolName":"t","input":1'), Buffer.from([0xc2, 0xa0]), b('}')]))).toBe('request line is not valid JSON');
  });

  it('a byte order mark is dropped at the start of the stream only (a line is Go JSON: no BOM)', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const ok = b('{"toolName":"grep","input":"{}"}\n');
    expect(await evalBytes(CANONICAL, [bom.subarray(0, 1), bom.subarray(1), ok, bom, ok])).toEqual([expect.stringMatching(ALLOW), bad('request line is not valid JSON')]);
    expect(readRequestLine(Buffer.concat([bom, ok.subarray(0, -1)]))).toBe('request line is not valid JSON');
  });
});

// ---------------------------------------------------------------------------------------------
// Properties: the reader equals the reference on generated lines.

const utf8 = (s: string) => Buffer.from(s, 'utf8');
/** Bytes that are not UTF-8, or are, in every shape Go's decoder tells apart. */
const oddBytes = fc.constantFrom(
  [0x80], [0xbf], [0xc0, 0x80], [0xc1, 0xbf], [0xc2], [0xc3, 0x28], [0xe2, 0x82], [0xe2, 0x82, 0x78], [0xe0, 0x9f, 0x80],
  [0xed, 0xa0, 0x80], [0xed, 0x9f, 0xbf], [0xef, 0xbf, 0xbd], [0xf0, 0x9f, 0x98], [0xf0, 0x8f, 0xbf, 0xbf], [0xf4, 0x90, 0x80, 0x80],
  [0xf4, 0x8f, 0xbf, 0xbf], [0xf5], [0xff], [0xef, 0xbb, 0xbf], [0xc3, 0xa9], [0xf0, 0x9f, 0x98, 0x80],
).map((a) => Buffer.from(a));

/** Pieces of a JSON string literal's body, as bytes. */
const literalPiece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('a', 'rm -rf /', ' ', 'K', '\u212a', '\u00e9', '\u{1f600}', '\u2028', '\ufeff', '\ufffd').map(utf8) },
  { weight: 3, arbitrary: fc.constantFrom('\\"', '\\\\', '\\/', '\\n', '\\t', '\\u0041', '\\u00E9', '\\ud800', '\\udc00', '\\ud83d\\ude00', '\\ud800\\u0041', '\\ud800\\ud800\\udc00', '\\uDBFF\\uDFFF').map(utf8) },
  { weight: 1, arbitrary: fc.constantFrom('\\x', '\\u12', '\t', '\u0001', '\\').map(utf8) },
  { weight: 2, arbitrary: oddBytes },
);
const literal = fc.array(literalPiece, { maxLength: 8 }).map((p) => Buffer.concat([utf8('"'), ...p, utf8('"')]));

const keyText = fc.oneof(
  fc.constantFrom('toolName', 'TOOLNAME', 'toolname', 'ToolName', 'input', 'INPUT', 'Input', '\u0130nput', '\u0131nput', 'sessionId', 'SESSIONID', '\u017fessionId', 'x', 'X', 'k', 'K', '\u212a', '\u00df', '\u1e9e', '\u03c3', '\u03c2', '\u03a3', '\u00e9', '\u00c9').map((k) => utf8(JSON.stringify(k))),
  fc.constantFrom('"\\u0074oolName"', '"\\u0069nput"', '"\\ud800"', '"\\udc00"', '"a\\u0000"', '"tool\\u004eame"').map(utf8),
);

const numberText = fc.constantFrom('0', '-0', '1e999', '-1E-999', '12345678901234567890123', '0.5e+3', '1.0', '01', '1.', '-', '.5', '+1').map(utf8);
/** Nesting at Go's limit: inside the envelope's own level, 9999 levels are read and 10000 are one too many. */
const deepText = fc
  .tuple(fc.constantFrom(9998, 9999, 10000), fc.boolean())
  .map(([n, array]) => utf8(array ? '['.repeat(n) + ']'.repeat(n) : '{"a":'.repeat(n) + '1' + '}'.repeat(n)));
const ws = fc.constantFrom('', '', ' ', '\t', '\r', ' \r\t').map(utf8);

const valueText: fc.Arbitrary<Buffer> = fc.letrec<{ value: Buffer }>((tie) => ({
  value: fc.oneof(
    { weight: 5, arbitrary: literal },
    { weight: 2, arbitrary: numberText },
    { weight: 1, arbitrary: fc.constantFrom('true', 'false', 'null', 'nul', '{', ']').map(utf8) },
    { weight: 1, arbitrary: fc.array(fc.tuple(keyText, tie('value') as fc.Arbitrary<Buffer>), { maxLength: 3 }).map((ms) => Buffer.concat([utf8('{'), ...ms.flatMap(([k, v], i) => [utf8(i ? ',' : ''), k, utf8(':'), v]), utf8('}')])) },
    { weight: 1, arbitrary: fc.array(tie('value') as fc.Arbitrary<Buffer>, { maxLength: 3 }).map((vs) => Buffer.concat([utf8('['), ...vs.flatMap((v, i) => [utf8(i ? ' , ' : ''), v]), utf8(']')])) },
  ),
})).value.filter((v) => v.length < 4000);

/** A handmade envelope: members with white space around every token. */
const envelope = fc
  .tuple(fc.array(fc.tuple(ws, keyText, ws, ws, fc.oneof({ weight: 20, arbitrary: valueText }, { weight: 1, arbitrary: deepText }), ws), { maxLength: 5 }), ws)
  .map(([ms, end]) => Buffer.concat([utf8('{'), ...ms.flatMap(([a, k, c, d, v, e], i) => [utf8(i ? ',' : ''), a, k, c, utf8(':'), d, v, e]), end, utf8('}')]));

/** Lines as `JSON.stringify` writes them (the fast shape), from strings that include lone surrogates. */
const textPiece = fc.constantFrom('a', 'rm -rf /', '"', '\\', '\n', '\u0000', '\u00e9', '\u{1f600}', '\ud800', '\udc00', '\u212a', '\ufeff', '","toolName":"grep', '\\u', '}');
const text = fc.array(textPiece, { maxLength: 8 }).map((p) => p.join(''));
const stringified = fc
  .record({ toolName: fc.constantFrom('bash', 'Bash', 't', '\u212aelvin', '\u00e9', '\ud800', '"', 'a\\b', ''), input: text, sessionId: fc.option(fc.constantFrom('s1', '', '\u00e9', '"', '\ud83d'), { nil: undefined }) })
  .map((r) => utf8(JSON.stringify(r)));

/** A line, then maybe bytes inserted or removed somewhere in it (never a newline). */
const line = fc
  .tuple(
    fc.oneof(envelope, stringified),
    fc.array(fc.tuple(fc.nat(), fc.oneof(oddBytes, fc.constantFrom('"', ',', '\\', '}', ' ', '\r', '","toolName":"grep', ',"input":{"a":1}', '\\u0000').map(utf8), fc.constant(Buffer.alloc(0)))), { maxLength: 2 }),
  )
  .map(([bytes, edits]) => {
    let out = bytes;
    for (const [at, piece] of edits) {
      const i = at % (out.length + 1);
      out = piece.length === 0 ? Buffer.concat([out.subarray(0, i), out.subarray(i + 1)]) : Buffer.concat([out.subarray(0, i), piece, out.subarray(i)]);
    }
    return out;
  });

describe('request lines: properties against the reference', () => {
  it('readRequestLine equals the reference read from Go rules', () => {
    fc.assert(
      fc.property(line, (bytes) => {
        expect(readRequestLine(bytes)).toEqual(goReadRequest(bytes));
      }),
      { numRuns: RUNS || 1500 },
    );
  }, LONG);

  it('decodeUtf8AsGo, and the chunk decoder over any cuts, equal Go rune-by-rune decoding', () => {
    const bytes = fc.array(fc.oneof(oddBytes, fc.uint8Array({ maxLength: 6 }).map((a) => Buffer.from(a)), fc.constantFrom('a\n', '{"').map(utf8)), { maxLength: 20 }).map((p) => Buffer.concat(p));
    fc.assert(
      fc.property(bytes, fc.array(fc.nat(), { maxLength: 6 }), (all, cuts) => {
        const want = goDecodeUtf8(all);
        expect(decodeUtf8AsGo(all)).toBe(want);
        const at = [...new Set(cuts.map((c) => c % (all.length + 1)))].sort((x, y) => x - y);
        const d = createChunkDecoder();
        let got = '';
        let from = 0;
        for (const end of [...at, all.length]) {
          got += d.decode(all.subarray(from, end));
          from = end;
        }
        got += d.end();
        expect(got).toBe(want.charCodeAt(0) === 0xfeff ? want.slice(1) : want);
      }),
      { numRuns: RUNS || 3000 },
    );
  }, LONG);

  it('streamDecisions answers each line as the approver answers readRequestLine of its bytes, however stdin is cut', async () => {
    const format = createDecisionFormatter();
    const expected = (a: CompiledApprover, bytes: Buffer) => {
      const r = readRequestLine(bytes);
      return typeof r === 'string' ? bad(r) : format(a.decide(r));
    };
    const isBlank = (l: Buffer) => l.every((c) => c === 0x20 || c === 0x09 || c === 0x0d);
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 5 }), fc.boolean(), async (lines, cuts, canonical) => {
        const a = canonical ? CANONICAL : RAW;
        // A first line that cannot start with a BOM (the stream's BOM is dropped, a line's is not).
        const all = [utf8('{"toolName":"grep","input":"{}"}'), ...lines];
        const bytes = Buffer.concat(all.flatMap((l) => [l, utf8('\n')]));
        const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((x, y) => x - y);
        const chunks = [...at, bytes.length].map((end, i, ends) => bytes.subarray(i === 0 ? 0 : ends[i - 1]!, end)).filter((c) => c.length > 0);
        expect(await evalBytes(a, chunks)).toEqual(all.filter((l) => !isBlank(l)).map((l) => expected(a, l)));
      }),
      { numRuns: RUNS ? Math.ceil(RUNS / 10) : 300 },
    );
  }, LONG);
});
