import type { ApprovalRequest, CompiledApprover, RuledResult } from '@verdict/engine';
import { type Command, type CommandIo, parse, POLICY_FROM_STDIN_HELP, policyFromStdinRefused, STDIN_ARG, UsageError, write } from '../args.ts';
import { DECIDING } from '../command-rules.ts';
import { loadApproverOrReport } from '../load.ts';
import { createChunkDecoder, inputChunks } from '../input/eval-input.ts';
import { badRequest, createLineFormatter, isBlank } from '../input/eval-line.ts';
import { parseRequestLine, requestOfDecodedLine } from '../input/eval-request.ts';

const USAGE = `usage: verdict eval --policy FILE [--compat]

Reads one request per line on standard input and writes one decision per line, in order:
  in:  {"toolName":"bash","input":"{\\"command\\":\\"ls\\"}","sessionId":"s1"}
  out: {"decision":"allow","reason":"","rule":{"list":"allow","index":0,"file":"p.yaml","line":7,"column":7}}
A string "input" is the raw JSON text of the tool input; any other JSON value is taken as the
text it is written as in the line. A line that is not a valid request (not JSON, a key repeated,
even in another case, no string "toolName") is denied, never skipped.

options:
  --policy FILE   the policy file (YAML, JSON or .verdict); not "-": stdin carries the requests
  --compat        load a policy whose only errors are invalid regexes and deny every call, as the
                  reference agent does (\`approver: pattern compile: …\`)
  -h, --help      show this help

exit: 0, or 2 when the policy cannot load`;

/** Longest request line (in UTF-16 characters) we buffer; longer lines are denied and skipped without being held in memory. */
export const MAX_LINE_CHARS = 64 * 1024 * 1024;

export const evalCommand: Command = {
  name: 'eval',
  summary: 'decide tool calls: JSON lines in, decisions out',
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parse(argv, {
      policy: { type: 'string', short: 'p' },
      compat: { type: 'boolean' },
    });
    if (values.help) return write(io.stdout, USAGE), 0;
    if (!values.policy) throw new UsageError('missing `--policy FILE`');
    if (positionals.length > 0) throw new UsageError(`unexpected argument \`${positionals[0]}\``);
    if (values.policy === STDIN_ARG) throw new UsageError(policyFromStdinRefused('eval', 'the requests'), POLICY_FROM_STDIN_HELP);
    const loaded = loadApproverOrReport(values.policy, io, { ...DECIDING, compat: values.compat === true });
    if (!loaded) return 2;
    await streamDecisions(loaded.approver, io);
    return 0;
  },
};

type ReadLine = (line: string) => ApprovalRequest | string;

/**
 * The answer to one request line, newline included. A trailing CR (a CRLF line end) needs no
 * stripping: it is JSON white space, so the line reads the same with or without it.
 */
function decideLine(approver: CompiledApprover, format: (e: RuledResult) => string, read: ReadLine, line: string): string {
  try {
    const request = read(line);
    if (typeof request === 'string') return badRequest(request) + '\n';
    return format(approver.decide(request));
  } catch (err) {
    return badRequest(`internal error: ${err instanceof Error ? err.message : String(err)}`) + '\n';
  }
}

/** Bytes decoded at a time: at most 32K UTF-16 units, 64 KB of text, well under V8's large-object size. */
const DECODE_BYTES = 32 * 1024;

/** A batch of answers is written once it is this long, even in the middle of an input chunk. */
const MAX_BATCH_CHARS = 256 * 1024;

/**
 * Streams decisions in constant memory: reads stdin chunk by chunk (async iteration gives backpressure),
 * writes one batch per chunk (or per {@link MAX_BATCH_CHARS}: a chunk of short bad lines makes long
 * answers) and waits for `drain` when stdout is full.
 */
export async function streamDecisions(approver: CompiledApprover, io: CommandIo): Promise<void> {
  const decoder = createChunkDecoder();
  const format = createLineFormatter();
  let pending = '';
  let skipping = false; // inside an over-long line: discard until its newline
  const out = io.stdout;
  const flush = async (text: string) => {
    if (text === '') return;
    if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  };
  let batch = '';
  // Text decoded from bytes has no lone surrogate; text a stream hands out as strings may.
  let read: ReadLine = requestOfDecodedLine;
  /** Answers the lines `text` ends; what follows its last newline waits in `pending`. */
  const take = async (text: string) => {
    let start = 0;
    let nl = text.indexOf('\n');
    if (nl === -1) {
      if (!skipping) pending += text;
      return;
    }
    // The line that started in an earlier chunk ends here.
    if (skipping) skipping = false;
    else {
      const line = pending === '' ? text.slice(0, nl) : pending + text.slice(0, nl);
      if (!isBlank(line)) batch += decideLine(approver, format, read, line);
    }
    pending = '';
    start = nl + 1;
    for (nl = text.indexOf('\n', start); nl !== -1; nl = text.indexOf('\n', start)) {
      const line = text.slice(start, nl);
      start = nl + 1;
      if (isBlank(line)) continue;
      batch += decideLine(approver, format, read, line);
      if (batch.length > MAX_BATCH_CHARS) {
        await flush(batch);
        batch = '';
      }
    }
    if (start < text.length) pending = text.slice(start);
  };
  for await (const chunk of inputChunks(io.stdin)) {
    if (typeof chunk === 'string') {
      read = parseRequestLine;
      await take(chunk);
    }
    else {
      // Decoded a piece at a time: a piece's text stays small enough for V8's young generation
      // (a 1 MiB chunk's would be a 2 MB string in large-object space, which drives old-space
      // collections). Pieces only split the chunk's text: the answers are the same.
      const bytes = chunk as Uint8Array;
      for (let at = 0; at < bytes.length; at += DECODE_BYTES) await take(decoder.decode(bytes.subarray(at, at + DECODE_BYTES)));
    }
    if (!skipping && pending.length > MAX_LINE_CHARS) {
      batch += badRequest(`request line is longer than ${MAX_LINE_CHARS} characters`) + '\n';
      pending = '';
      skipping = true;
    }
    await flush(batch);
    batch = '';
  }
  const rest = pending + decoder.end();
  if (!skipping && !isBlank(rest)) await flush(decideLine(approver, format, read, rest));
}
