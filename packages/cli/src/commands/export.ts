import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { decideCall, ruleLabel, spanText } from '@verdict/engine';
import { EXPORT_AGENTS, exportNative, exportShellNames, type ExportResult, type ExportRuleRef } from '@verdict/native';
import { type Command, parse, UsageError, write } from '../args.ts';
import { DECIDING } from '../command-rules.ts';
import { compileOrReport, readPolicyInput, stdinFilenameOption, stdinName } from '../load.ts';
import { describeWriteError, replaceFile, writeReportFile } from '../output.ts';

const USAGE = `usage: verdict export --to claude|codex|gemini|cursor POLICY [-o FILE] [--force] [--format text|json] [--stdin-filename NAME]

Writes the policy as the agent's own permission file, never looser than the policy: its denies and
asks are carried (broader where the agent's format cannot say more), an allow only where the agent's
own matcher allows no more than Verdict does (exact commands Verdict itself allows), and whatever no
rule carries is left to the agent's prompt. Every rule not carried, or not whole, is listed with its
place and why (on standard error; in the json's \`dropped\`): Verdict's hook still enforces it, and
stays the decision point.

  claude   .claude/settings.json \`permissions\` (allow, ask, deny, defaultMode)
  codex    a .rules file (prefix_rule forbidden and prompt; allows are not exported: a Codex allow
           also runs the command outside the sandbox)
  gemini   a policy TOML (deny at priority 900, ask 500, allow 100, ask_user for the rest at 0)
  cursor   .cursor/cli.json \`permissions\`

options:
  --to AGENT    the agent to write for
  -o FILE       write the file there (never over an existing file without --force); default: standard output
  --force       overwrite FILE
  --format F    text (default: the file on standard output or in FILE, the dropped list on standard error)
                or json (the file's text, where the agent reads it, what was carried and what was dropped)
  --stdin-filename NAME
                the name standard input goes by in messages; its extension picks the syntax
  -h, --help    show this help

exit: 0 written, 2 the policy cannot load, FILE exists (without --force) or cannot be written`;

function renderDropped(r: ExportResult): string {
  if (r.dropped.length === 0) return '';
  const lines = [`not carried to ${r.agent} (the hook still enforces these):`];
  for (const d of r.dropped) {
    lines.push(`  ${d.where}: ${d.why}`);
    if (d.carriedAs !== undefined && d.carriedAs.length > 0) lines.push(`    carried as: ${d.carriedAs.join(', ')}`);
  }
  return `${lines.join('\n')}\n`;
}

function replaceOrReport(path: string, shown: string, text: string): string | undefined {
  try {
    replaceFile(path, text);
    return undefined;
  } catch (err) {
    return `cannot write \`${shown}\`: ${describeWriteError(err)}`;
  }
}

function refJson(rule: ExportRuleRef | undefined): { rule: string | null; at: string | null } {
  return { rule: rule === undefined ? null : ruleLabel(rule), at: rule?.span === undefined ? null : spanText(rule.span) };
}

function jsonOf(r: ExportResult) {
  return {
    agent: r.agent,
    path: r.path,
    text: r.text,
    carried: r.carried.map((c) => ({ ...refJson(c.rule), native: c.native })),
    dropped: r.dropped.map((d) => ({ ...refJson(d.rule), where: d.where, why: d.why, ...(d.carriedAs !== undefined ? { carriedAs: d.carriedAs } : {}) })),
  };
}

export const exportCommand: Command = {
  name: 'export',
  summary: 'write a policy as an agent’s own permission file, never looser, listing what is not carried',
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parse(argv, {
      to: { type: 'string' },
      output: { type: 'string', short: 'o' },
      force: { type: 'boolean' },
      format: { type: 'string', short: 'f' },
      ...stdinFilenameOption,
    });
    if (values.help) return write(io.stdout, USAGE), 0;
    const agent = values.to;
    if (agent === undefined) throw new UsageError('missing `--to AGENT`', `want one of ${EXPORT_AGENTS.join(', ')}`);
    if (!(EXPORT_AGENTS as readonly string[]).includes(agent)) throw new UsageError(`unknown agent \`${agent}\``, `want one of ${EXPORT_AGENTS.join(', ')}`);
    const [file, extra] = positionals;
    if (file === undefined) throw new UsageError('missing POLICY');
    if (extra !== undefined) throw new UsageError(`unexpected argument \`${extra}\``);
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json') throw new UsageError(`unknown format \`${format}\` (want text or json)`);
    if (values.force && values.output === undefined) throw new UsageError('`--force` overwrites the file `-o` names: give `-o FILE`');
    const out = values.output === undefined ? undefined : resolve(io.cwd, values.output);
    if (out !== undefined && existsSync(out) && !values.force) {
      io.stderr.write(`verdict export: \`${values.output}\` exists: not overwritten [cli/exists]\n  help: choose another file, or overwrite it with \`--force\`\n`);
      return 2;
    }
    const name = stdinName([file], values['stdin-filename']);
    const input = await readPolicyInput(file, io, name);
    if (!input) return 2;
    const result = compileOrReport(input, io, DECIDING);
    if (!result) return 2;
    const ir = result.ir?.approver;
    const approver = result.approver;
    if (!ir || !approver) {
      io.stderr.write(`${input.file}: error: the file has no approver block [cli/no-approver]\n`);
      return 2;
    }
    const target = agent as (typeof EXPORT_AGENTS)[number];
    const names = exportShellNames(target);
    // Verdict's own decision, the one procedure every entry point uses, for what the emitters may allow.
    const decideShell = (command: string) => decideCall(approver, { names, input: JSON.stringify({ command }) }).decision;
    const exported = exportNative(ir, target, { decideShell, source: input.file });
    const body = format === 'json' ? `${JSON.stringify(jsonOf(exported), null, 2)}\n` : exported.text;
    if (out !== undefined) {
      // Over an existing file (--force) through a temporary file and a rename: never half written.
      const failed = values.force === true && existsSync(out) ? replaceOrReport(out, values.output!, body) : writeReportFile(out, body, { exclusive: true });
      if (failed !== undefined) {
        io.stderr.write(`verdict export: ${failed}\n`);
        return 2;
      }
    } else write(io.stdout, body);
    if (format === 'text') io.stderr.write(renderDropped(exported));
    return 0;
  },
};
