import type { ApprovalRequest, CompiledApprover, RuledResult } from '@verdict/engine';
import { type Command, type CommandIo, parse, UsageError, write } from '../args.ts';
import { loadApproverOrReport } from '../load.ts';

const USAGE = `usage: verdict eval --policy FILE [--compat]

Reads one request per line on standard input and writes one decision per line, in order:
  in:  {"toolName":"bash","input":"{\\"command\\":\\"ls\\"}","sessionId":"s1"}
  out: {"decision":"allow","reason":"","rule":{"list":"allow","index":0,"file":"p.yaml","line":7,"column":7}}
A string "input" is the raw JSON text of the tool input; any other JSON value is taken as its
compact JSON.stringify text. A line that is not a valid request is denied, never skipped.

options:
  --policy FILE   the policy file (YAML, JSON or .verdict)
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
    const loaded = loadApproverOrReport(values.policy, io, { compat: values.compat === true });
    if (!loaded) return 2;
    await streamDecisions(loaded.approver, io);
    return 0;
  },
};

/**
 * A line of JSON white space only (space, tab, CR) is no request and gets no answer. Anything else
 * (a no-break space, a BOM, U+2028: white space to JS's `trim`, not to JSON) is a line the caller
 * sent, so it gets its deny: skipping it would shift every later answer onto the wrong request.
 */
function isBlank(line: string): boolean {
  return /^[ \t\r]*$/.test(line);
}

/** Why a request line is denied without asking the approver (fail closed: a bad line is never an allow). */
function badRequest(reason: string): string {
  return `{"decision":"deny","reason":${JSON.stringify(`verdict: ${reason}`)},"rule":null}`;
}

export function parseRequestLine(line: string): ApprovalRequest | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'request line is not valid JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'request line is not a JSON object';
  const record = value as Record<string, unknown>;
  const toolName = Object.hasOwn(record, 'toolName') ? record['toolName'] : undefined;
  if (typeof toolName !== 'string') return 'request has no string `toolName`';
  const raw = Object.hasOwn(record, 'input') ? record['input'] : undefined;
  let input: string;
  if (raw === undefined) input = '';
  else if (typeof raw === 'string') input = raw;
  else {
    try {
      input = JSON.stringify(raw);
    } catch {
      // JSON.stringify recurses: an array nested a few thousand levels deep exhausts the stack.
      return 'request `input` nests too deeply to be read as JSON text';
    }
  }
  const sessionId = Object.hasOwn(record, 'sessionId') ? record['sessionId'] : undefined;
  return typeof sessionId === 'string' ? { toolName, input, sessionId } : { toolName, input };
}

function renderDecision(e: RuledResult): string {
  const rule = e.rule
    ? `{"list":"${e.rule.list}","index":${e.rule.index},"file":${JSON.stringify(e.rule.span?.file ?? null)},"line":${e.rule.span?.start.line ?? null},"column":${e.rule.span?.start.column ?? null}}`
    : 'null';
  return `{"decision":"${e.decision}","reason":${JSON.stringify(e.reason)},"rule":${rule}}`;
}

/**
 * The output line of a decision. A compiled approver hands out the same rule objects and a handful
 * of reasons, so lines are cached per (rule, decision, reason) instead of re-serialised per call.
 */
export function createDecisionFormatter(): (e: RuledResult) => string {
  const byRule = new WeakMap<object, Map<string, string>>();
  const noRule = new Map<string, string>();
  const MAX_PER_RULE = 64; // reasons are few; internal-error texts must not grow the cache
  return (e) => {
    const cache = e.rule ? (byRule.get(e.rule) ?? new Map<string, string>()) : noRule;
    if (e.rule && !byRule.has(e.rule)) byRule.set(e.rule, cache);
    const key = e.decision + e.reason;
    let line = cache.get(key);
    if (line === undefined) {
      line = renderDecision(e);
      if (cache.size < MAX_PER_RULE) cache.set(key, line);
    }
    return line;
  };
}

function decideLine(approver: CompiledApprover, format: (e: RuledResult) => string, line: string): string {
  if (line.endsWith('\r')) line = line.slice(0, -1);
  try {
    const request = parseRequestLine(line);
    if (typeof request === 'string') return badRequest(request);
    return format(approver.decide(request));
  } catch (err) {
    return badRequest(`internal error: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * Streams decisions in constant memory: reads stdin chunk by chunk (async iteration gives backpressure),
 * writes one batch per chunk and waits for `drain` when stdout is full.
 */
export async function streamDecisions(approver: CompiledApprover, io: CommandIo): Promise<void> {
  const decoder = new TextDecoder('utf-8');
  const format = createDecisionFormatter();
  let pending = '';
  let skipping = false; // inside an over-long line: discard until its newline
  const out = io.stdout;
  const flush = async (text: string) => {
    if (text === '') return;
    if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  };
  for await (const chunk of io.stdin) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk as Uint8Array, { stream: true });
    let start = 0;
    let batch = '';
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      const piece = text.slice(start, nl);
      start = nl + 1;
      if (skipping) {
        skipping = false;
        pending = '';
        continue;
      }
      const line = pending === '' ? piece : pending + piece;
      pending = '';
      if (isBlank(line)) continue;
      batch += decideLine(approver, format, line) + '\n';
    }
    if (!skipping) {
      pending += text.slice(start);
      if (pending.length > MAX_LINE_CHARS) {
        batch += badRequest(`request line is longer than ${MAX_LINE_CHARS} characters`) + '\n';
        pending = '';
        skipping = true;
      }
    }
    await flush(batch);
  }
  const rest = pending + decoder.decode();
  if (!skipping && !isBlank(rest)) await flush(decideLine(approver, format, rest) + '\n');
}
