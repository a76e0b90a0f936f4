/**
 * The compile options of `verdict hook` for a policy from its compiled-policy cache
 * (`hook/policy-cache.ts`, which keeps only a policy that compiled without errors in this build) on a
 * call to a tool that carries no shell command: the command rules were checked when the entry was
 * written, so nothing is checked again, and neither the checks (`command-rules-check.ts`, with the
 * capability table) nor the parser (`command-rules.ts`) are loaded.
 */
import type { CompileOptions } from '@verdict/compiler';
import { checkedCommandRules } from '@verdict/shell';

export const CHECKED: Readonly<Pick<CompileOptions, 'commandJudge'>> = { commandJudge: checkedCommandRules };
