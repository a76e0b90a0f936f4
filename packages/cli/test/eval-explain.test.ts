/**
 * `verdict eval` and `verdict explain` on the bad inputs of the approver issue: CRLF and blank
 * lines, invalid UTF-8 and split characters on stdin, 10 MB input lines, non-string inputs, lines
 * that are not requests. Every request line gets exactly one decision line, in order; nothing that
 * is not a request is ever allowed.
 */
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { compileSource } from '@verdict/compiler';
import type { CompiledApprover } from '@verdict/engine';
import type { CommandIo } from '../src/args.ts';
import { MAX_LINE_CHARS, streamDecisions } from '../src/commands/eval.ts';
import { parseRequestLine } from '../src/input/eval-request.ts';
import { runCli } from './harness.ts';

const POLICY = [
  'approver:',
  '  mode: pattern',
  '  default: deny',
  '  reason: no',
  '  input: canonical',
  '  allow:',
  '    - {tool: read, field: path, match: "/w/.*"}',
  '    - {tool: echo, match: "^(null|5|\\\\[1\\\\]|\\\\{\\"a\\":1\\\\})$"}',
  '  deny:',
  '    - {tool: read, field: path, match: ".*\\\\.\\\\..*"}',
].join('\n');

function approver(): CompiledApprover {
  const r = compileSource(POLICY, 'p.yaml');
  if (!r.approver) throw new Error(r.diagnostics.map((d) => d.message).join('; '));
  return r.approver;
}

/** Runs the eval loop over stdin given as byte or string chunks; returns the decision lines. */
async function evalChunks(chunks: (Buffer | string)[]): Promise<string[]> {
  const out = new PassThrough();
  const got: Buffer[] = [];
  out.on('data', (c: Buffer) => got.push(c));
  const io: CommandIo = { stdin: Readable.from(chunks), stdout: out, stderr: new PassThrough(), cwd: process.cwd(), isTTY: false };
  await streamDecisions(approver(), io);
  const text = Buffer.concat(got).toString('utf8');
  expect(text === '' || text.endsWith('\n')).toBe(true);
  return text === '' ? [] : text.slice(0, -1).split('\n');
}

const ALLOW0 = '{"decision":"allow","reason":"","rule":{"list":"allow","index":0,"file":"p.yaml","line":7,"column":7}}';
const ALLOW1 = '{"decision":"allow","reason":"","rule":{"list":"allow","index":1,"file":"p.yaml","line":8,"column":7}}';
const DEFAULT_DENY = '{"decision":"deny","reason":"no","rule":null}';
const REJECTED = '{"decision":"deny","reason":"tool input is not valid JSON or repeats a key","rule":null}';
const notJson = '{"decision":"deny","reason":"verdict: request line is not valid JSON","rule":null}';
const req = (toolName: string, input: unknown) => JSON.stringify({ toolName, input });

describe('verdict eval: line handling', () => {
  it('CRLF line ends, blank lines of spaces, tabs and CRs, and a last line without a newline', async () => {
    const lines = await evalChunks([
      `${req('read', '{"path":"/w/a"}')}\r\n\r\n \t \r\n${req('read', '{"path":"/etc/x"}')}\r\n${req('READ', '{"path":"/w/b"}')}`,
    ]);
    expect(lines).toEqual([ALLOW0, DEFAULT_DENY, ALLOW0]);
  });

  it('a line of other white space (no-break space, BOM, U+2028) is not a request: denied, not skipped', async () => {
    const lines = await evalChunks([`\u00a0\n\ufeff\n${req('read', '{"path":"/w/a"}')}\n\u2028\n`]);
    expect(lines).toEqual([notJson, notJson, ALLOW0, notJson]);
  });

  it('a character split across stdin chunks is decoded whole; invalid bytes read as U+FFFD and still decide', async () => {
    const line = Buffer.from(`${req('read', '{"path":"/w/\u00e9\u{1f600}"}')}\n`, 'utf8');
    const at = line.indexOf(0xf0); // split inside the 4-byte emoji, then inside the 2-byte é
    const e = line.indexOf(0xc3);
    const split = [line.subarray(0, e + 1), line.subarray(e + 1, at + 2), line.subarray(at + 2)];
    expect(await evalChunks(split)).toEqual([ALLOW0]);
    const bad = Buffer.concat([
      Buffer.from('{"toolName":"read","input":"{\\"path\\":\\"/w/'),
      Buffer.from([0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
      Buffer.from('\\"}"}\n{"toolName":"read","input":"{\\"path\\":\\"/w/../'),
      Buffer.from([0xfe]),
      Buffer.from('\\"}"}\n'),
    ]);
    expect(await evalChunks([bad])).toEqual([ALLOW0, '{"decision":"deny","reason":"no","rule":{"list":"deny","index":0,"file":"p.yaml","line":10,"column":7}}']);
  });

  it('invalid UTF-8 outside a string makes the line not JSON: denied', async () => {
    const bad = Buffer.concat([Buffer.from('{"toolName":"read",'), Buffer.from([0xff]), Buffer.from('"input":"{}"}\n')]);
    expect(await evalChunks([bad])).toEqual([notJson]);
  });

  it('a 10 MB input line is decided, and so are the lines after it', async () => {
    const big = req('read', JSON.stringify({ path: '/w/' + 'x'.repeat(10 * 1024 * 1024) }));
    const bigDotDot = req('read', JSON.stringify({ path: '/w/../' + 'y'.repeat(1024 * 1024) }));
    const pieces = `${big}\n${bigDotDot}\n${req('read', '{"path":"/w/z"}')}\n`.match(/[\s\S]{1,65536}/g)!;
    const lines = await evalChunks(pieces);
    expect(lines).toEqual([
      ALLOW0,
      '{"decision":"deny","reason":"no","rule":{"list":"deny","index":0,"file":"p.yaml","line":10,"column":7}}',
      ALLOW0,
    ]);
  });
});

describe('verdict eval: an over-long line', () => {
  it('is denied without being held whole, and the next line is still decided', async () => {
    const mib = 'x'.repeat(1 << 20);
    const chunks = ['{"toolName":"read","input":"', ...Array<string>(Math.ceil(MAX_LINE_CHARS / mib.length) + 1).fill(mib), '"}\n', `${req('read', '{"path":"/w/a"}')}\n`];
    expect(await evalChunks(chunks)).toEqual([
      `{"decision":"deny","reason":"verdict: request line is longer than ${MAX_LINE_CHARS} characters","rule":null}`,
      ALLOW0,
    ]);
  });
});

describe('verdict eval: request shapes', () => {
  it('a non-string input is the text it is written as in the line', async () => {
    const lines = await evalChunks([
      [
        req('echo', null),
        req('echo', 5),
        req('echo', [1]),
        req('echo', { a: 1 }),
        '{"toolName":"echo","input":{ "a" : 1 }}',
        '{"toolName":"echo"}',
        '{"toolName":"read","input":{"path":"/w/q","PATH":"/etc"}}',
        '{"toolName":"read","input":{"__proto__":{"path":"/w/q"}}}',
        '{"toolName":"read","input":{"path":"/w/q","__proto__":"x"}}',
      ].join('\n'),
    ]);
    expect(lines).toEqual([ALLOW1, ALLOW1, ALLOW1, ALLOW1, ALLOW1, DEFAULT_DENY, REJECTED, DEFAULT_DENY, ALLOW0]);
  });

  it('an input nested deeper than Go reads denies that line only', async () => {
    const deep = '{"toolName":"read","input":' + '['.repeat(200_000) + ']'.repeat(200_000) + '}';
    const lines = await evalChunks([`${deep}\n${req('read', '{"path":"/w/a"}')}\n`]);
    expect(lines).toEqual([
      '{"decision":"deny","reason":"verdict: request line nests deeper than 10000 levels","rule":null}',
      ALLOW0,
    ]);
    const r = await runCli(['eval', '--policy', 'fixtures/policies/workspace.yaml'], `${deep}\n{"toolName":"read","input":"{\\"path\\":\\"/workspace/x\\"}"}\n`);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[1]).toMatch(/^\{"decision":"allow"/);
  });

  it('parseRequestLine: what is not a request says why; nothing throws', () => {
    expect(parseRequestLine('{"toolName":"t","input":"{}","sessionId":"s"}')).toEqual({ toolName: 't', input: '{}', sessionId: 's' });
    expect(parseRequestLine('{"toolName":"t","input":1e999}')).toEqual({ toolName: 't', input: '1e999' });
    expect(parseRequestLine('{"toolName":"t","sessionId":7}')).toEqual({ toolName: 't', input: '' });
    expect(parseRequestLine('{"toolName":"\\ud800","input":"\\udc00"}')).toEqual({ toolName: '\ufffd', input: '\ufffd' });
    expect(parseRequestLine('{"__proto__":{"toolName":"t"}}')).toBe('request has no string `toolName`');
    expect(parseRequestLine('{"toolName":["t"]}')).toBe('request has no string `toolName`');
    expect(parseRequestLine('[]')).toBe('request line is not a JSON object');
    expect(parseRequestLine('null')).toBe('request line is not a JSON object');
    expect(parseRequestLine('{"toolName":"t",}')).toBe('request line is not valid JSON');
    expect(parseRequestLine('{"toolName":"t","input":01}')).toBe('request line is not valid JSON');
  });
});

describe('verdict explain: bad inputs', () => {
  it('explains a rejected canonical input, and reads the input from stdin with `--input -`', async () => {
    const r = await runCli(
      ['explain', '--policy', 'fixtures/policies/workspace.yaml', '--tool', 'bash', '--input', '-', '--format', 'json'],
      Buffer.concat([Buffer.from('{"command":"ls","COMMAND":"'), Buffer.from([0xff]), Buffer.from('"}')]),
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      decision: 'deny',
      reason: 'tool input is not valid JSON or repeats a key',
      by: 'invalid-input',
      rule: null,
      match: null,
      alsoMatched: [],
    });
  });

  it('an input that is not JSON, in text form', async () => {
    const r = await runCli(['explain', '--policy', 'fixtures/policies/workspace.yaml', '--tool', 'read', '--input', 'not json']);
    expect(r).toEqual({
      code: 0,
      stdout: 'decision: deny\nreason:   tool input is not valid JSON or repeats a key\ndecided by input validation (input: canonical)\n',
      stderr: '',
    });
  });
});
