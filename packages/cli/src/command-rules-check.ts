/**
 * The compile options of `verdict hook` for a call to a tool that carries no shell command: a
 * policy's command rules are checked (a broken one still fails the policy) but never judge, so the
 * shell parser is not loaded. Kept apart from `command-rules.ts`, whose import loads the parser.
 */
import type { CompileOptions } from '@verdict/compiler';
import { commandRuleChecker } from '@verdict/shell';

export const CHECKING: Readonly<Pick<CompileOptions, 'commandJudge'>> = { commandJudge: commandRuleChecker };
