/**
 * The one shell quoter: how a word is written so that a POSIX shell (and `@verdict/shell`'s
 * extraction) reads it back as that word. Reasons, witnesses, installed hook commands, lint's command
 * texts and `verdict diff`'s `try:` lines all write words through it.
 */

/** Words a shell reads as themselves when written bare: no quoting, expansion or operator character. */
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** `'word'`: in single quotes, a `'` inside written `'\''`; read back as `word` in every position. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * A word as a person would type it: bare when it is plain (letters, digits, `_@%+=:,./-`), else
 * {@link shellQuote}d; the empty word is `''`.
 */
export function shellWord(word: string): string {
  return PLAIN_WORD.test(word) ? word : shellQuote(word);
}
