/**
 * The judge of a process that decides no shell command: it denies every text it is given. The
 * engine asks a judge only for a call to a shell tool, so a program that will make no such call
 * (`verdict hook` on a call to a tool that carries no shell command) needs the policy's command rules
 * checked, not judged, and need not load the shell parser. Kept apart from `engine-rules.ts` (the
 * checks, and the capability table they read) so that a caller whose rules are already checked loads
 * nothing else.
 */
import type { CommandJudge, CommandJudgeFactory } from '@verdict/engine';

export const UNJUDGED: CommandJudge = {
  judge: () => ({ decision: 'deny', reason: 'the shell parser was not loaded for this call, so the command is not judged' }),
};

/**
 * For command rules this very build already checked (`verdict hook`'s compiled-policy cache keeps only
 * a policy that compiled without errors): the judge that judges nothing, without checking them again.
 */
export const checkedCommandRules: CommandJudgeFactory = () => UNJUDGED;
