/**
 * The project placeholder (docs/protections.md "The project"): `${project}` in a rule's `match`,
 * `args` or `redirect` pattern stands for the agent's project folder, as a literal (regex-quoted),
 * and in the approver's `reason` as text. `verdict hook` passes the folder of the call
 * (`CompileOptions.project`); everywhere else (inline tests, `verdict eval`, `test`, `lint`) it is
 * {@link DEFAULT_PROJECT}, the folder the starters' tests are written for.
 */
import type { ApproverIR, RuleIR } from '@verdict/engine';

export const PROJECT_PLACEHOLDER = '${project}';

/** The project folder where no agent names one. */
export const DEFAULT_PROJECT = '/workspace';

/** `text` as an RE2 literal (Go's `regexp.QuoteMeta`). */
export function quoteMeta(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

function inRule(rule: RuleIR, quoted: string): void {
  if (rule.match.includes(PROJECT_PLACEHOLDER)) rule.match = rule.match.split(PROJECT_PLACEHOLDER).join(quoted);
  if (rule.args?.includes(PROJECT_PLACEHOLDER)) rule.args = rule.args.split(PROJECT_PLACEHOLDER).join(quoted);
  if (rule.redirect?.includes(PROJECT_PLACEHOLDER)) rule.redirect = rule.redirect.split(PROJECT_PLACEHOLDER).join(quoted);
}

/** Replaces the placeholder in the approver's patterns and reason, in place. */
export function substituteProject(ir: ApproverIR, project: string = DEFAULT_PROJECT): void {
  const folder = project.length > 1 ? project.replace(/\/+$/, '') : project;
  const quoted = quoteMeta(folder);
  for (const rule of [...ir.allow, ...ir.deny, ...(ir.ask ?? [])]) inRule(rule, quoted);
  if (ir.reason.includes(PROJECT_PLACEHOLDER)) ir.reason = ir.reason.split(PROJECT_PLACEHOLDER).join(folder);
}
