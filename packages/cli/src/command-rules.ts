/**
 * The compile options of the commands that decide (eval, explain, test, hook, serve, fuzz, diff): command
 * rules on shell tools are judged by `@verdict/shell`. Imported only by those commands, so that
 * `lint`, `fmt` and the others never load the shell parser.
 */
import type { CompileOptions } from '@verdict/compiler';
import { commandJudgeFactory } from '@verdict/shell';

export const DECIDING: Readonly<Pick<CompileOptions, 'commandJudge'>> = { commandJudge: commandJudgeFactory };
