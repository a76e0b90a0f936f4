import { ruleWhere, SPAN_BUDGET, type Explanation, type RuleRef } from '@verdict/engine';
import { type Command, parse, STDIN_ARG, UsageError, write } from '../args.ts';
import { DECIDING } from '../command-rules.ts';
import { loadApproverOrReport, readPolicyInput, stdinFilenameOption, stdinName } from '../load.ts';
import { decodeUtf8AsGo } from '../input/eval-input.ts';
import { resolve } from 'node:path';

const USAGE = `usage: verdict explain --policy FILE|- --tool NAME --input JSON|- [--cwd DIR] [--format text|json] [--compat] [--stdin-filename NAME]

Decides one tool call and says why: which rule decided and where it is written, what span of the
input its pattern matched, and which other rules matched too. A write to a protected path
(docs/protections.md) is shown as the deny \`verdict hook\` answers, before any rule.

options:
  --policy FILE     the policy file (YAML, JSON or .verdict); "-" reads it from stdin
  --tool NAME       the tool name of the call (compared case-insensitively)
  --input JSON      the raw JSON text of the tool input, exactly as the model sent it ("-" reads stdin;
                    only one of --policy and --input can be "-")
  --cwd DIR         the call's folder, for the protected paths it writes (default: this one)
  --format FORMAT   text (default) or json
  --compat          behave as the reference agent on a policy with invalid regexes
  --stdin-filename NAME
                    the name a policy read from stdin goes by in messages; its extension picks
                    the syntax
  -h, --help        show this help

exit: 0 (whatever the decision), or 2 when the policy cannot load`;

function where(rule: RuleRef): string {
  return ruleWhere(rule);
}

function byText(e: Explanation): string {
  switch (e.by) {
    case 'rule':
      return e.rule ? `rule ${where(e.rule)}` : 'a rule';
    case 'default':
      return 'the default (no rule matched)';
    case 'mode':
      return 'the mode (allow_all / deny_all)';
    case 'invalid-input':
      return 'input validation (input: canonical)';
    case 'compile-error':
      return 'a pattern that does not compile (compatibility mode)';
    case 'command':
      return e.rule ? `command rule ${where(e.rule)}` : 'the command rules (what cannot be judged is never allowed)';
    default:
      return 'an internal error (fail closed)';
  }
}

/** A caret line under the matched part of the subject, for subjects short enough to show. */
function caret(subject: string, start: number, end: number): string[] {
  if (subject.length > 200 || subject.includes('\n')) return [];
  return [`  ${subject}`, `  ${' '.repeat(start)}${'^'.repeat(Math.max(1, end - start))}`];
}

export function renderExplanation(e: Explanation, input: string): string {
  const lines = [`decision: ${e.decision}`];
  if (e.reason !== '') lines.push(`reason:   ${e.reason}`);
  lines.push(`decided by ${byText(e)}`);
  if (e.match) {
    lines.push(`matched ${JSON.stringify(e.match.text)} at ${e.match.subject} offsets ${e.match.start}..${e.match.end}`);
    const subject = e.match.subject === 'canonical' ? (e.canonical ?? input) : e.match.subject === 'raw' ? input : '';
    if (subject) lines.push(...caret(subject, e.match.start, e.match.end));
  }
  if (e.shell) {
    const sh = e.shell;
    const verdict = sh.decision === null ? 'no command rule decides' : `command rules: ${sh.decision}`;
    lines.push(`${verdict} (${sh.reason})`);
    if (sh.command !== undefined) lines.push(`executed command: ${JSON.stringify(sh.command)}`);
    if (sh.span) {
      lines.push(`in \`${sh.field}\` at offsets ${sh.span.start}..${sh.span.end}: ${JSON.stringify(sh.span.text)}`);
    }
  }
  if (e.spanOmitted) {
    const { instructions, characters } = e.spanOmitted;
    lines.push(
      `span not shown: finding it could take up to ${instructions} × ${characters} steps (instructions × characters), past explain's budget of ${SPAN_BUDGET}; the decision is exact`,
    );
  }
  if (e.canonical !== undefined && e.canonical !== input) lines.push(`canonical input: ${e.canonical}`);
  if (e.alsoMatched.length > 0) {
    lines.push('also matched:');
    for (const r of e.alsoMatched) lines.push(`  ${where(r)}`);
  }
  return `${lines.join('\n')}\n`;
}

export function explanationJson(e: Explanation): object {
  const rule = (r: RuleRef) => ({
    list: r.list,
    index: r.index,
    file: r.span?.file ?? null,
    line: r.span?.start.line ?? null,
    column: r.span?.start.column ?? null,
  });
  return {
    decision: e.decision,
    reason: e.reason,
    by: e.by,
    rule: e.rule ? rule(e.rule) : null,
    match: e.match,
    alsoMatched: e.alsoMatched.map(rule),
    ...(e.canonical !== undefined ? { canonical: e.canonical } : {}),
    ...(e.spanOmitted !== undefined ? { spanOmitted: e.spanOmitted } : {}),
    ...(e.shell !== undefined
      ? {
          shell: {
            field: e.shell.field,
            decision: e.shell.decision,
            reason: e.shell.reason,
            rule: e.shell.rule ? rule(e.shell.rule) : null,
            command: e.shell.command ?? null,
            span: e.shell.span ?? null,
          },
        }
      : {}),
  };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return decodeUtf8AsGo(Buffer.concat(chunks));
}

export const explainCommand: Command = {
  name: 'explain',
  summary: 'explain the decision for one tool call',
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parse(argv, {
      policy: { type: 'string', short: 'p' },
      tool: { type: 'string', short: 't' },
      input: { type: 'string', short: 'i' },
      format: { type: 'string', short: 'f' },
      compat: { type: 'boolean' },
      cwd: { type: 'string' },
      ...stdinFilenameOption,
    });
    if (values.help) return write(io.stdout, USAGE), 0;
    if (!values.policy) throw new UsageError('missing `--policy FILE`');
    if (values.tool === undefined) throw new UsageError('missing `--tool NAME`');
    if (positionals.length > 0) throw new UsageError(`unexpected argument \`${positionals[0]}\``);
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json') throw new UsageError(`unknown format \`${format}\` (want text or json)`);
    // Standard input is read once: for the policy or for the input, not both.
    stdinName([values.policy, values.input], undefined);
    const policy = await readPolicyInput(values.policy, io, stdinName([values.policy], values['stdin-filename']));
    if (!policy) return 2;
    const loaded = loadApproverOrReport(policy, io, { ...DECIDING, compat: values.compat === true });
    if (!loaded) return 2;
    const input = values.input === STDIN_ARG ? await readAll(io.stdin) : (values.input ?? '');
    const e = loaded.approver.explain({ toolName: values.tool, input });
    // The protected paths, as `verdict hook` checks them (packages/cli/src/hook/protect.ts).
    const { explainProtection } = await import('../hook/protect.ts');
    const file = typeof values.policy === 'string' && values.policy !== STDIN_ARG ? resolve(io.cwd, values.policy) : undefined;
    const hit = await explainProtection(values.tool, input, {
      cwd: resolve(io.cwd, values.cwd ?? '.'),
      env: io.env ?? process.env,
      policyFiles: file ? [file] : [],
      lift: loaded.result.ir?.approver?.protections?.lift ?? [],
    });
    if (hit) {
      if (format === 'json') write(io.stdout, JSON.stringify({ decision: 'deny', reason: hit.reason, by: 'protection', protection: hit, rules: explanationJson(e) }, null, 2));
      else {
        const rules = renderExplanation(e, input).trimEnd().split('\n').map((l) => `  ${l}`).join('\n');
        write(io.stdout, `decision: deny\nreason:   ${hit.reason}\ndecided by the protected path \`${hit.name}\` (${hit.path ?? 'a path known only at run time'}), before any rule\nthe rules alone:\n${rules}\n`);
      }
      return 0;
    }
    write(io.stdout, format === 'json' ? JSON.stringify(explanationJson(e), null, 2) : renderExplanation(e, input));
    return 0;
  },
};
