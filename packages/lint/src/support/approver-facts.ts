/** Facts about an approver block, read through the engine's own normalisation (semantics.md A2). */
import { caseFold, isCommandRule, normalizeApproverDefault, normalizeApproverMode, ruleLabel as engineRuleLabel } from '@verdict/engine';
import type { ApproverIR, RuleIR, RuleList } from '@verdict/engine';
import type { RegexCache } from '@verdict/analysis';
import { patternBranches } from '@verdict/analysis';

export type EffectiveMode = 'allow_all' | 'deny_all' | 'pattern' | undefined;

export function effectiveMode(a: ApproverIR): EffectiveMode {
  return normalizeApproverMode(a.mode);
}

/** The pattern-mode default, or undefined when it is unknown (a load error the compiler reports). */
export function effectiveDefault(a: ApproverIR): 'allow' | 'deny' | undefined {
  return normalizeApproverDefault(a.default);
}

/** `allow[2]`, `deny[0]`: the engine's rule label. */
export function ruleLabel(list: RuleList, index: number): string {
  return engineRuleLabel({ list, index });
}

/** Tool names compared as the engine compares them (Unicode simple case folding). */
export function sameTool(a: string, b: string): boolean {
  return caseFold(a) === caseFold(b);
}

/**
 * Whether a rule matches every call to its tool: no `field`, and a pattern that matches the empty
 * string without any anchor or word-boundary assertion (so it matches at offset 0 of any input).
 */
export function isCatchAll(rule: RuleIR, regexes: RegexCache): boolean {
  // A command rule matches executed commands, never every call.
  if (rule.field !== undefined || isCommandRule(rule)) return false;
  if (rule.match === '') return true;
  const compiled = regexes.get(rule.match);
  if (!compiled.ok || !compiled.regex.test('') || !compiled.regex.test('{\n  "k": "v"\n}')) return false;
  return (patternBranches(rule.match) ?? []).some((b) => {
    const list = b.atoms;
    const starts = list.filter((a) => a.kind === 'anchor-start').length;
    const ends = list.filter((a) => a.kind === 'anchor-end').length;
    if (starts > 0 && ends > 0) return false;
    return list.every(
      (a) => a.kind === 'anchor-start' || a.kind === 'anchor-end' || (a.min === 0 && a.kind !== 'assert'),
    );
  });
}

/** Shell-like tool names whose input is a command line. */
export const SHELL_TOOLS = [
  'bash',
  'sh',
  'zsh',
  'shell',
  'exec',
  'exec_command',
  'execute',
  'execute_command',
  'run',
  'run_command',
  'run_shell_command',
  'shell_command',
  'local_shell',
  'terminal',
  'powershell',
  'pwsh',
  'cmd',
  'command',
];
