/**
 * A Codex `.rules` file from a Verdict approver: every deny and ask command rule as a `prefix_rule`
 * (`forbidden`, `prompt`) with the rule's own prefix and alternatives (Codex matches the first argv
 * words exactly, alternatives at any position). No allow is written: a Codex allow also runs the
 * command outside the sandbox, which a Verdict allow never says.
 */
import { eachRule } from '@verdict/engine';
import type { ApproverIR } from '@verdict/engine';
import type { ExportCarried, ExportDropped, ExportOptions, ExportResult } from './plan.ts';
import { headerLines, planExport, settingsDropped, whereOf } from './plan.ts';

/** A Starlark string literal (JSON's escapes are Starlark's for the characters they produce). */
function str(s: string): string {
  return JSON.stringify(s);
}

/** Words Codex reads literally but that its matcher (or the lint) reads as something else: cut the prefix before them. */
function codexWordOk(word: string): boolean {
  return word !== '' && !/\s/.test(word);
}

export function exportCodex(ir: ApproverIR, options: ExportOptions = {}): ExportResult {
  const plan = planExport(ir, 'codex', {});
  const dropped: ExportDropped[] = plan.dropped.filter((d) => d.rule?.list !== 'allow' && d.where !== 'allow rules');
  const carried: ExportCarried[] = [];
  const blocks: string[] = [];
  for (const p of plan.prefixes) {
    // A word Codex cannot match as the rule means (a blank inside a token): the prefix stops before it (broader).
    const cut = p.command.findIndex((w) => (typeof w === 'string' ? [w] : w).some((x) => !codexWordOk(x)));
    const command = cut < 0 ? p.command : p.command.slice(0, cut);
    if (command.length === 0) {
      dropped.push({ rule: p.rule, where: p.where, why: 'its program holds a blank: Codex matches no such argv word as written' });
      continue;
    }
    const pattern = `[${command.map((w) => (typeof w === 'string' ? str(w) : `[${w.map(str).join(', ')}]`)).join(', ')}]`;
    const decision = p.decision === 'deny' ? 'forbidden' : 'prompt';
    const justification = `${p.list === 'deny' ? 'denied' : 'asked'} by the Verdict policy${p.broader.length > 0 ? ' (some of these commands)' : ''}: ${p.where}`;
    blocks.push(['prefix_rule(', `    pattern = ${pattern},`, `    decision = ${str(decision)},`, `    justification = ${str(justification)},`, ')'].join('\n'));
    const native = `prefix_rule(${pattern}, ${decision})`;
    carried.push({ rule: p.rule, where: p.where, native });
    const broader = [...p.broader, ...(cut >= 0 ? ['the words after a word holding a blank are not carried'] : [])];
    if (broader.length > 0) dropped.push({ rule: p.rule, where: p.where, why: `carried broader: ${broader.join('; ')}`, carriedAs: [native] });
  }
  for (const t of plan.tools) {
    if (t.list === 'allow') continue;
    dropped.push({ rule: t.rule, where: t.where, why: 'Codex rules match the first words of a command: a rule on a whole tool (the shell tool included) has no `prefix_rule`' });
  }
  for (const { rule, index } of eachRule(ir, ['allow'])) {
    dropped.push({ rule: { list: 'allow', index, ...(rule.span !== undefined ? { span: rule.span } : {}) }, where: whereOf(rule, 'allow', index), why: 'an allow is not exported to Codex: a Codex allow also runs the command outside the sandbox (when every command of the call is allowed), which a Verdict allow never says; Codex asks and the hook decides' });
  }
  if (plan.prefixes.length > 0) {
    dropped.push({ where: 'every deny and ask', why: 'Codex matches the first argv words exactly: a carried rule does not see the program behind a wrapper (`timeout 5 rm`), after an assignment (`FOO=1 rm`), with options before the sub-command (`git -C . push`), or inside a script Codex does not split (redirections, `$( )`)' });
  }
  dropped.push(...settingsDropped(ir));
  const header = [
    ...headerLines('codex', options),
    'Set `approval_policy = "untrusted"` in config.toml: under "on-request" a command no rule matches runs in the sandbox without asking.',
  ];
  const text = `${header.map((l) => `# ${l}`).join('\n')}\n${blocks.length > 0 ? `\n${blocks.join('\n\n')}\n` : ''}`;
  return { agent: 'codex', path: '.codex/rules/verdict.rules', text, carried, dropped };
}
