/**
 * Claude Code `.claude/settings.json` `permissions` from a Verdict approver. Claude Code tries deny, then
 * ask, then allow, so an allow can never win over a carried deny or ask.
 *
 * - A shell deny or ask prefix `git push` is `Bash(git push)` and `Bash(git push *)` (the command alone,
 *   and with any arguments after a word boundary), one pair per alternative.
 * - An exact allow is `Bash(npm test)` (no `*`), kept only when Verdict allows that command; every wrapper
 *   Claude Code strips before an allow rule matches (`timeout`, `nice`, `nohup`, a bare `xargs`, which
 *   appends words Claude Code never sees…) asks, so the allow holds for the text as written only.
 * - Claude Code runs its read-only commands and reads files without a prompt in every mode, whatever
 *   the allow list says; to keep the file never looser those commands and tools ask, unless the
 *   policy allows the tool whole.
 * - `defaultMode: "default"`: a call no rule names asks.
 */
import type { ApproverIR } from '@verdict/engine';
import type { ExportCarried, ExportDropped, ExportOptions, ExportResult } from './plan.ts';
import { byRule, checkExact, planExport, prefixTexts, settingsDropped, someOf } from './plan.ts';
import { CLAUDE_READ_ONLY, CLAUDE_READ_ONLY_SUBCOMMANDS, CLAUDE_STRIPPED, claudeReadOnly } from '../claude/decide.ts';

/** Tools Claude Code runs without a prompt inside the working directory. */
const CLAUDE_READING_TOOLS = ['Read', 'Glob', 'Grep', 'LS', 'NotebookRead'];
/** The wrappers Claude Code strips before an allow rule matches (the model's table): each asks. */
const STRIPPED = Object.keys(CLAUDE_STRIPPED);

const MAX_TEXTS = 64;

/** A `Bash(...)` specifier holding `text` literally (a `*` in it would be a wildcard: such a text is cut before it). */
function literal(text: string): boolean {
  return !text.includes('*') && !text.includes('(') && !text.includes(')') && !text.endsWith(':');
}

export function exportClaude(ir: ApproverIR, options: ExportOptions = {}): ExportResult {
  const plan = planExport(ir, 'claude', options);
  const dropped: ExportDropped[] = [...plan.dropped];
  const carried: ExportCarried[] = [];
  const lists = { allow: [] as string[], ask: [] as string[], deny: [] as string[] };
  const add = (list: 'allow' | 'ask' | 'deny', rule: string): void => {
    if (!lists[list].includes(rule)) lists[list].push(rule);
  };

  for (const p of plan.prefixes) {
    const { texts, cut } = prefixTexts(p.command, MAX_TEXTS, literal);
    if (texts.length === 0) {
      dropped.push({ rule: p.rule, where: p.where, why: 'its program holds `*` or parentheses, which a `Bash(...)` rule cannot say literally' });
      continue;
    }
    const natives = texts.flatMap((t) => [`Bash(${t})`, `Bash(${t} *)`]);
    for (const n of natives) add(p.decision, n);
    carried.push({ rule: p.rule, where: p.where, native: natives.join(', ') });
    const broader = [...p.broader, ...(cut ? ['only its first words are carried (alternatives past the limit, or a word a Bash rule cannot say literally)'] : [])];
    if (broader.length > 0) dropped.push({ rule: p.rule, where: p.where, why: `carried broader: ${broader.join('; ')}`, carriedAs: natives });
  }

  const wholeAllowed = new Set<string>();
  for (const t of plan.tools) {
    for (const name of t.tools) add(t.list, name);
    if (t.list === 'allow') for (const name of t.tools) wholeAllowed.add(name);
    carried.push({ rule: t.rule, where: t.where, native: t.tools.join(', ') });
  }

  // Claude Code's own read-only set runs without a prompt: it asks here, so no allow of it is exported.
  // So do the wrappers Claude Code strips (below): an allow of one alone would never apply.
  const readOnly = (argv: readonly string[]): boolean => claudeReadOnly(argv) || STRIPPED.includes(argv[0]!);
  const exact = { ...plan, exact: plan.exact.filter((e) => !readOnly(e.argv)) };
  for (const group of byRule(plan.exact.filter((e) => readOnly(e.argv)))) {
    const { rule, where } = group[0]!;
    dropped.push({ rule, where, why: `${someOf(group.map((e) => e.argv.join(' ')))} ${group.length === 1 ? 'is' : 'are'} in Claude Code's read-only set (which runs without a prompt unless a rule asks) or a wrapper it strips: it asks here, so no allow of it is exported` });
  }
  // Every wrapper Claude Code strips before an allow matches asks (its ask rules see the text as written), so an
  // exact allow holds for the command as written, and for its parts of a compound command.
  const { kept, dropped: refused } = checkExact(exact, options, (argv) => [argv.join(' ')], 'Claude Code matches this text');
  dropped.push(...refused);
  for (const e of kept) {
    const rule = `Bash(${e.argv.join(' ')})`;
    add('allow', rule);
    carried.push({ rule: e.rule, where: e.where, native: rule });
  }

  const asked: string[] = [];
  for (const program of CLAUDE_READ_ONLY) {
    for (const r of [`Bash(${program})`, `Bash(${program} *)`]) if (!lists.deny.includes(r) && !lists.ask.includes(r)) asked.push(r);
  }
  for (const [program, subs] of Object.entries(CLAUDE_READ_ONLY_SUBCOMMANDS)) {
    for (const sub of subs) for (const r of [`Bash(${program} ${sub})`, `Bash(${program} ${sub} *)`]) if (!lists.deny.includes(r) && !lists.ask.includes(r)) asked.push(r);
  }
  for (const w of STRIPPED) {
    for (const r of [`Bash(${w})`, `Bash(${w} *)`]) if (!lists.deny.includes(r) && !lists.ask.includes(r)) asked.push(r);
  }
  for (const tool of CLAUDE_READING_TOOLS) if (!wholeAllowed.has(tool) && !lists.deny.includes(tool) && !lists.ask.includes(tool)) asked.push(tool);
  for (const r of asked) add('ask', r);
  dropped.push({ where: "Claude Code's read-only set", why: `Claude Code runs its read-only commands (not published; measured on the client: ${CLAUDE_READ_ONLY.map((c) => `\`${c}\``).join(', ')}, read-only \`git\` and \`docker\` sub-commands, \`node\` and \`python\` versions) and its reading tools without a prompt in every mode, \`dontAsk\` too, and strips ${STRIPPED.map((c) => `\`${c}\``).join(', ')} before an allow matches: they ask here (${asked.length} ask rules), and the hook decides; a read-only command the client knows beyond the measured ones would run with no rule` });
  if (plan.prefixes.length > 0) {
    dropped.push({ where: 'every deny and ask', why: 'Claude Code matches the command text: a carried rule does not see the program at another path (`/bin/rm`), behind a wrapper it does not strip (`devbox run`, `npx`), or with options before the sub-command (`git -C . push`)' });
  }
  dropped.push({ where: 'where Claude Code reads it', why: 'project `allow` rules apply only after the workspace-trust dialog, and never under `claude -p`; denies and asks apply always' });
  dropped.push(...settingsDropped(ir));

  const permissions: Record<string, unknown> = {};
  for (const list of ['allow', 'ask', 'deny'] as const) if (lists[list].length > 0) permissions[list] = lists[list];
  permissions['defaultMode'] = 'default';
  const text = `${JSON.stringify({ permissions }, null, 2)}\n`;
  return { agent: 'claude', path: '.claude/settings.json', text, carried, dropped };
}
