import { ruleWhere, shellQuote as quoteShell } from '@verdict/engine';
import { type DiffChange, diffPolicies, type DiffWitness, type PolicyDiff } from '@verdict/analysis';
import { type Command, parse, UsageError, write } from '../args.ts';
import { DECIDING } from '../command-rules.ts';
import { compileOrReport, readPolicyInput, stdinFilenameOption, stdinName } from '../load.ts';

const USAGE = `usage: verdict diff OLD NEW [--format text|json] [--stdin-filename NAME]

Compares the approvers of two policy files semantically and lists, for every tool whose decisions
changed, a call the old policy allows and the new one denies (or the reverse): a witness you can
paste into \`verdict explain\`, checked against the real engine. Then a verdict: stricter, looser,
equivalent, neither or unknown (the analysis is bounded; it says unknown rather than guess).
With ask rules on either side, decisions are ordered allow < ask < deny, and the calls the new
policy newly asks about are listed too. Command rules on shell tools are compared exactly where the
changes decide it (a deny rule added can only deny more) and by example commands otherwise: a
direction no example shows stays unknown. Either file (not both) may be \`-\`: standard input.

options:
  --format F   text (default) or json
  --stdin-filename NAME
               the name standard input goes by in messages; its extension picks the syntax
  -h, --help   show this help

exit: 0 equivalent, 1 the policies differ (or unknown), 2 a file cannot load`;

function decided(r: DiffWitness['old']): string {
  if (!r.rule) return r.by === 'command' ? `${r.decision} by the command rules: ${r.reason}` : `${r.decision} by the default`;
  return `${r.decision} by ${ruleWhere(r.rule, 'parens')}`;
}

export function renderDiff(d: PolicyDiff, newFile: string): string {
  const lines = [`verdict: ${d.verdict}`];
  // With ask rules on either side the titles say so, and newly asked calls get their section.
  const withAsk = d.newlyAsked !== undefined;
  const sections: [DiffChange['direction'], string][] = withAsk
    ? [
        ['newly-denied', 'newly denied (the old policy allows or asks, the new one denies)'],
        ['newly-allowed', 'newly allowed (the old policy denies or asks, the new one allows)'],
        ['newly-asked', 'newly asked (the old policy allows or denies, the new one asks)'],
      ]
    : [
        ['newly-denied', 'newly denied (the old policy allows, the new one denies)'],
        ['newly-allowed', 'newly allowed (the old policy denies, the new one allows)'],
      ];
  for (const [direction, title] of sections) {
    const changes = d.changes.filter((c) => c.direction === direction);
    // Newly asked calls may show one tool twice: one call allowed before, one denied before.
    const tools = new Set(changes.map((c) => c.toolName)).size;
    lines.push('', `${title}: ${changes.length === 0 ? 'none' : `${tools} tool${tools === 1 ? '' : 's'}`}`);
    for (const c of changes) {
      lines.push(
        `  ${c.toolName}  ${c.input}`,
        `    old: ${decided(c.old)}`,
        `    new: ${decided(c.new)}`,
        `    try: verdict explain --policy ${quoteShell(newFile)} --tool ${quoteShell(c.toolName)} --input ${quoteShell(c.input)}`,
      );
    }
  }
  if (d.unknown.length > 0) lines.push('');
  for (const why of d.unknown) lines.push(`unknown: ${why}`);
  return `${lines.join('\n')}\n`;
}

export const diffCommand: Command = {
  name: 'diff',
  summary: 'calls one policy allows and the other denies, with witnesses',
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parse(argv, { format: { type: 'string', short: 'f' }, ...stdinFilenameOption });
    if (values.help) return write(io.stdout, USAGE), 0;
    const [oldFile, newFile, extra] = positionals;
    if (oldFile === undefined || newFile === undefined) throw new UsageError('want two files: OLD NEW');
    if (extra !== undefined) throw new UsageError(`unexpected argument \`${extra}\``);
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json') throw new UsageError(`unknown format \`${format}\` (want text or json)`);
    const name = stdinName([oldFile, newFile], values['stdin-filename']);
    const oldInput = await readPolicyInput(oldFile, io, name);
    const newInput = await readPolicyInput(newFile, io, name);
    if (!oldInput || !newInput) return 2;
    const older = compileOrReport(oldInput, io, { ...DECIDING, compat: true });
    const newer = compileOrReport(newInput, io, { ...DECIDING, compat: true });
    if (!older || !newer) return 2;
    const oldIr = older.ir?.approver;
    const newIr = newer.ir?.approver;
    if (!oldIr || !newIr) {
      io.stderr.write(`verdict diff: ${!oldIr ? oldInput.file : newInput.file} has no approver block [cli/no-approver]\n`);
      return 2;
    }
    const d = diffPolicies(oldIr, newIr, DECIDING);
    write(io.stdout, format === 'json' ? JSON.stringify(d, null, 2) : renderDiff(d, newInput.file));
    return d.verdict === 'equivalent' ? 0 : 1;
  },
};
