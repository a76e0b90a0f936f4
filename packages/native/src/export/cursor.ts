/**
 * Cursor CLI `.cursor/cli.json` `permissions` from a Verdict approver. Cursor has allow and deny only
 * (deny beats allow); a command no rule names is left to its approval mode, which asks under
 * `approvalMode: "allowlist"` (a setting of the user's `cli-config.json`: a project file holds only
 * permissions).
 *
 * - A shell deny of one program is `Shell(rm)` (Cursor matches the first word); a longer prefix is
 *   `Shell(git:push*)`, whose argument glob Cursor's documentation does not define: listed as such.
 * - Asks have no list of their own: left out, the command asks under the allowlist mode.
 * - No shell allow is exported: `Shell(git)` allows every git command, and how an argument glob meets the
 *   arguments is not documented, so no allow is provably no looser than Verdict.
 */
import type { ApproverIR } from '@verdict/engine';
import type { ExportCarried, ExportDropped, ExportOptions, ExportResult } from './plan.ts';
import { byRule, planExport, prefixTexts, settingsDropped } from './plan.ts';

/** The Cursor rule type and glob that cover every call of one of its tools. */
const WHOLE: Readonly<Record<string, string>> = { Shell: 'Shell(*)', Read: 'Read(/**)', Write: 'Write(/**)', Delete: 'Write(/**)' };

const MAX_TEXTS = 64;

/** Text a `Shell(...)` rule can hold literally. */
function literal(text: string): boolean {
  return !/[*?():]/.test(text);
}

export function exportCursor(ir: ApproverIR, options: ExportOptions = {}): ExportResult {
  const plan = planExport(ir, 'cursor', options);
  const dropped: ExportDropped[] = plan.dropped.filter((d) => d.where !== 'allow rules');
  const carried: ExportCarried[] = [];
  const lists = { allow: [] as string[], deny: [] as string[] };
  const add = (list: 'allow' | 'deny', rule: string): void => {
    if (!lists[list].includes(rule)) lists[list].push(rule);
  };

  for (const p of plan.prefixes) {
    if (p.decision === 'ask') {
      dropped.push({ rule: p.rule, where: p.where, why: 'Cursor has no ask list: left out, the command asks under `approvalMode: "allowlist"`' });
      continue;
    }
    const { texts, cut } = prefixTexts(p.command, MAX_TEXTS, literal);
    if (texts.length === 0) {
      dropped.push({ rule: p.rule, where: p.where, why: 'its program holds a character a `Shell(...)` rule reads as a pattern' });
      continue;
    }
    const natives = texts.map((t) => {
      const [base, ...rest] = t.split(' ');
      return rest.length === 0 ? `Shell(${base})` : `Shell(${base}:${rest.join(' ')}*)`;
    });
    for (const n of natives) add('deny', n);
    carried.push({ rule: p.rule, where: p.where, native: natives.join(', ') });
    const notes = [...p.broader, ...(cut ? ['only its first words are carried'] : [])];
    if (natives.some((n) => n.includes(':'))) notes.push("Cursor's documentation does not say how an argument glob meets the arguments: the rule may match less in Cursor itself");
    if (notes.length > 0) dropped.push({ rule: p.rule, where: p.where, why: `carried with caveats: ${notes.join('; ')}`, carriedAs: natives });
  }

  for (const t of plan.tools) {
    const natives = [...new Set(t.tools.map((n) => WHOLE[n]).filter((n): n is string => n !== undefined))];
    if (natives.length === 0 || t.list === 'ask') {
      dropped.push({ rule: t.rule, where: t.where, why: t.list === 'ask' ? 'Cursor has no ask list: left out, the call asks under `approvalMode: "allowlist"`' : `Cursor's permissions name no rule type for \`${t.tools.join('`, `')}\`` });
      continue;
    }
    if (t.list === 'allow' && natives.includes('Shell(*)')) {
      dropped.push({ rule: t.rule, where: t.where, why: 'an allow of every shell command is not exported' });
      continue;
    }
    for (const n of natives) add(t.list === 'deny' ? 'deny' : 'allow', n);
    carried.push({ rule: t.rule, where: t.where, native: natives.join(', ') });
  }
  for (const [e] of byRule(plan.exact)) {
    dropped.push({ rule: e!.rule, where: e!.where, why: "no shell allow is exported to Cursor: `Shell(prog)` allows every command of the program, and how an argument glob meets the arguments is not documented" });
  }
  if (plan.prefixes.length > 0) {
    dropped.push({ where: 'every deny', why: "Cursor matches the command line's first word: a carried rule does not see the program behind a wrapper, after an assignment, at another path or quoted; how Cursor treats compound commands is not documented" });
  }
  dropped.push({ where: 'approvalMode', why: 'set `"approvalMode": "allowlist"` in `~/.cursor/cli-config.json` (a project `.cursor/cli.json` holds only permissions): under another mode a command no rule names may run without asking' });
  dropped.push(...settingsDropped(ir));
  const text = `${JSON.stringify({ permissions: { allow: lists.allow, deny: lists.deny } }, null, 2)}\n`;
  return { agent: 'cursor', path: '.cursor/cli.json', text, carried, dropped };
}
