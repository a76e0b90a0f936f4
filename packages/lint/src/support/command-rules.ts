/**
 * Facts about command rules (docs/shell.md), decided by `@verdict/shell` itself: the extraction the
 * judge runs, its wrapper table and its program names. Nothing here re-implements the wrapper
 * grammar: a rule's prefix words are handed to the real extraction.
 */
import { type ApproverIR, type RuleIR, shellQuote } from '@verdict/engine';
import { extract, programKey, wrapperTable, type ShellCommand, type WrapperSpec } from '@verdict/shell';

/** Combinations of a prefix's alternatives tried at most; over it, nothing is said. */
export const MAX_COMBINATIONS = 256;

/** Whether `program` (at any path, any case) is a wrapper the judge looks through. */
export function isWrapper(program: string, approver: ApproverIR): boolean {
  return Object.hasOwn(wrapperTable(approver.wrappers), programKey(program));
}

/** `[ls, -l]`: an argv as a rule's `command` writes it (YAML flow style, quoted where needed). */
export function asCommandValue(words: readonly (string | null)[]): string {
  return `[${words.map((w) => (w === null ? '…' : /^[A-Za-z0-9_@%+=:./-]+$/.test(w) && !/^[-:]$/.test(w) ? w : JSON.stringify(w))).join(', ')}]`;
}

/**
 * What the judge makes of `words` (a rule's argv prefix, one alternative per position), when the
 * first word is a program that runs another command and the words already name that command
 * (`timeout 5 ls`, `env FOO=1 make`, `nohup make`, `bash -c ls`): the commands run instead, as a
 * person would type them. `null` otherwise (the words are themselves an executed command, as in
 * `env`, `command -v`, `find . -exec rm {} ;`, or the extraction cannot tell).
 *
 * Such a prefix can never be an executed command: the extraction finds the inner command from the
 * words up to it (options, their values, positionals, assignments, the script of `-c`), which the
 * words after the prefix cannot change, and it reports the wrapper as a layer of the inner command,
 * never as a command of its own; an allow rule matches executed commands only.
 */
export function wrappedCommands(words: readonly string[], wrappers: Readonly<Record<string, WrapperSpec>>): ShellCommand[] | null {
  const [program, ...rest] = words;
  if (program === undefined) return null;
  const ext = extract(words.map(shellQuote).join(' '), { wrappers });
  if (ext.commands.length === 0) return null;
  const isPrefix = (args: readonly (string | null)[]): boolean => args.length >= rest.length && rest.every((w, i) => args[i] === w);
  // The prefix runs as itself (a wrapper with no command, `find` beside its `-exec` command).
  if (ext.commands.some((c) => c.program === program && isPrefix(c.args))) return null;
  const outer = (c: (typeof ext.commands)[number]) => c.wrappers[0];
  const throughPrefix = ext.commands.every((c) => {
    const w = outer(c);
    return w !== undefined && w.program === program && w.args.length === rest.length && isPrefix(w.args);
  });
  return throughPrefix ? ext.commands : null;
}
