/**
 * Texts the parser may read unlike the shells (README "Readings that differ"): a screen over the
 * raw text of every script, before and beside just-bash's parse. Each finding is a reason the
 * text is unknown; the text is still parsed and walked, so a denied command elsewhere in it is
 * still found. The screen reads no quotes on purpose: it looks for its constructs anywhere in the
 * text (inside quotes too, and with line continuations removed), so a misreading of quotes can
 * only make it refuse more, never less.
 *
 * The default is that any of bash, zsh and sh (dash) may run the text: a construct that one of
 * them reads differently from the others is unknown, and the reason names the shell. A policy may
 * say which shells run its text (`shells:`); a construct that only an excluded shell reads
 * differently is then read (README "Readings that differ", column "shells").
 */

/** A shell that may run the text. */
export type ShellName = 'bash' | 'zsh' | 'sh';
/** Every shell: the default (`shells: [any]`). */
export const ANY_SHELL: readonly ShellName[] = ['bash', 'zsh', 'sh'];
/** The names a policy may give in `shells:`. */
export const SHELL_NAMES: readonly string[] = ['bash', 'zsh', 'sh', 'any'];

/** The shells a policy's `shells:` list stands for (`any`, or nothing given: all three). */
export function shellSet(names: readonly string[] | undefined): ReadonlySet<ShellName> {
  if (names === undefined || names.length === 0 || names.includes('any')) return new Set(ANY_SHELL);
  return new Set(ANY_SHELL.filter((s) => names.includes(s)));
}

/** Why `text` cannot be trusted to be read alike by just-bash and the shells; empty when nothing is found. */
export function screenText(text: string, shells: ReadonlySet<ShellName> = new Set(ANY_SHELL)): string[] {
  const out: string[] = [];
  // Bash removes a backslash-newline before it reads a token (outside single quotes): look at both forms.
  const joined = text.includes('\\\n') ? text.replace(/\\\n/g, '') : text;
  for (const t of joined === text ? [text] : [text, joined]) {
    for (const reason of screenOne(t, shells)) if (!out.includes(reason)) out.push(reason);
  }
  return out;
}

/** The constructs, each with the reason it is unknown and the shells that read it otherwise (`all`: the parser may misread it). */
const PATTERNS: readonly [RegExp, string, ShellName | 'all'][] = [
  [/\0/, 'a NUL byte, which the shell drops, is not analysed', 'all'],
  // A `$'` or `$"` followed by a blank, an operator or the end is most often the end of a quoted
  // string (`grep 'a$' f`). Were it an opening one, sh would read the same quotes and a value with a
  // `$` in front: the same commands. Not so with a `\'` anywhere: inside `$'…'` it does not end
  // the string for bash, and does for sh, so then every `$'` is refused.
  [/\$'(?![ \t\n;|&)]|$)|\$'[^]*\\'|\\'[^]*\$'/, "`$'…'` quoting is read differently by sh (dash reads `$` and a single-quoted string)", 'sh'],
  // bash translates `$"…"` through a message catalog and expands the translation: never read.
  [/\$"(?![ \t\n;|&)]|$)/, '`$"…"` quoting is read differently by zsh and sh (they keep the `$`)', 'all'],
  [/<<</, 'a here-string (`<<<`) is read differently by sh (dash reads a heredoc)', 'sh'],
  // `time ! ! ls`: the keyword to bash and zsh (the negations cancel out in the parse), the time program to sh, which runs `!`.
  [/(^|[^A-Za-z0-9_./-])time[ \t]+!/, '`time !` is the keyword to bash and zsh and the time program, running `!`, to sh (dash)', 'sh'],
  // sh (dash) reads `&>` as `&` (run in the background) and `>`: words after the target are a command of their own there.
  [/&>>?[ \t]*[^ \t\n;&|()<>]+[ \t]+[^ \t\n;&|()#]/, '`&>` followed by more words is read by sh (dash) as `&` and a redirection, where the words after the target are a command', 'sh'],
  [/\$\{[!(~=^+]/, 'an indirect or flagged parameter expansion (`${!x}`, zsh `${(…)x}`, `${~x}`, `${=x}`, `${^x}`, `${+x}`) is not analysed', 'all'],
  [/\$[~=^+][A-Za-z_{]/, 'a zsh parameter expansion modifier (`$~x`, `$=x`, `$^x`, `$+x`) is not analysed', 'zsh'],
  // zsh reads `$name[…]` (not `${name}[…]`) as a subscript and evaluates it as arithmetic, where a
  // variable's value can hold a command substitution (`i='a[$(cmd)]'; echo $HOME[i]` runs cmd);
  // bash and sh read `$name` and a glob. `$a[1]` evaluates nothing.
  [/\$[#+=~^]?([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])\[(?!-?[0-9]+\])/, 'zsh reads `$name[…]` as a subscript evaluated as arithmetic, where a value can hold a command substitution', 'zsh'],
  [/@[A-Za-z]\}/, 'a parameter transformation (`${x@P}`, `${x@Q}`, …) can run code (`@P` expands a prompt) and is not analysed', 'all'],
];

function screenOne(text: string, shells: ReadonlySet<ShellName>): string[] {
  const out: string[] = [];
  for (const [re, reason, shell] of PATTERNS) if ((shell === 'all' || shells.has(shell)) && re.test(text)) out.push(reason);
  // Without sh, `$'…'` is read alike by bash (3.2 to 5.2), zsh and the parser when its escapes are
  // only those they all decode the same (tested against bash and zsh: extract.test.ts).
  if (!shells.has('sh') && ansiCEscapes(text)) out.push("`$'…'` with an escape other than `\\n \\t \\r \\\\ \\' \\a \\b \\e \\E \\f \\v` (or never closed) is read differently by bash and zsh, or by bash's versions");
  if (braceInParameter(text)) out.push('a `{` inside `${…}` is read differently by bash (the first `}` closes) and zsh (braces nest)');
  if (hashAfterSubstitution(text)) out.push('a `#` inside or after a substitution (`$( )`, `` ` ` ``, `<( )`, `>( )`) may start a comment where the parser reads none');
  return out;
}

/** The escapes of `$'…'` that bash 3.2 to 5.2, zsh and the parser decode alike. */
const PLAIN_ESCAPES = new Set(['n', 't', 'r', '\\', "'", 'a', 'b', 'e', 'E', 'f', 'v']);

/**
 * Whether some `$'` opens a string holding another escape, or one that never closes (unless the
 * `$'` is followed by a blank, an operator or the end, and so most likely ends a string: see `PATTERNS`). Every `$'` of the raw text is read as if it
 * opened a string, ending at the first `'` no `\` escapes, as bash and zsh end it: the real
 * openings are among them, so a misreading of quotes only refuses more.
 */
function ansiCEscapes(text: string): boolean {
  for (let i = text.indexOf("$'"); i >= 0; i = text.indexOf("$'", i + 1)) {
    // Followed by a blank or an operator, a `$'` most often ends a quoted string (`grep 'a$' f`):
    // it may then run to the end of the text, but were it an opening, its escapes must still be plain.
    const ending = /[ \t\n;|&)]/.test(text[i + 2] ?? ' ');
    let j = i + 2;
    for (; j < text.length && text[j] !== "'"; j++) {
      if (text[j] === '\\') {
        if (!PLAIN_ESCAPES.has(text[j + 1] ?? '')) return true;
        j++;
      }
    }
    if (j >= text.length && !ending) return true;
  }
  return false;
}

/**
 * Whether some `${` has a `{` (not itself a `${`) before the `}` that closes it, nested `${`
 * counted. One pass: inside a `${`, the first plain `{` decides, and each `}` closes the innermost.
 */
function braceInParameter(text: string): boolean {
  let depth = 0;
  for (let j = text.indexOf('${'); j >= 0 && j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x7b /* { */) {
      if (text.charCodeAt(j - 1) === 0x24 /* $ */) depth++;
      else if (depth > 0) return true;
    } else if (c === 0x7d /* } */ && depth > 0) depth--;
  }
  return false;
}

/**
 * Whether a `#` may start a comment that just-bash and bash read differently: inside a
 * substitution (`$( )`, a backquote, `<( )`, `>( )`, zsh `=( )`), right after one (`<(ls)#x`), or
 * anywhere after one whose end this count cannot be sure of. just-bash and bash disagree on where
 * comments start and end inside substitutions (a `)` in a comment, a `#` in the middle of a word);
 * the count reads single quotes only, so a substitution holding a `"`, a backslash, a backquote, a `[`
 * or `{` (`[)]`, `${x/)/}`), a heredoc or a `case` (whose patterns end in a lone `)`), or one that
 * never closes by the count,
 * leaves every later `#` suspect. `$#` and `${#` are never comments.
 */
function hashAfterSubstitution(text: string): boolean {
  const starts = /\$\(|<\(|>\(|=\(|`/g;
  let from = 0;
  // Characters counted over all substitutions: past a few times the text, every later `#` is suspect (linear time).
  let budget = 4 * text.length + 1024;
  for (;;) {
    starts.lastIndex = from;
    const m = starts.exec(text);
    if (m === null) return false;
    if (m[0] === '`') return laterHash(text, m.index + 1);
    if (budget <= 0) return laterHash(text, m.index + 2);
    let depth = 1;
    let j = m.index + 2;
    for (; j < text.length && depth > 0; j++) {
      const c = text[j];
      if (c === '(') depth++;
      else if (c === ')') depth--;
      else if (c === "'") {
        // A fresh quoting context starts inside a substitution: with no `"`, `\` or `#` around
        // (checked below), a `'` opens a single-quoted string that ends at the next `'`.
        const end = text.indexOf("'", j + 1);
        if (end < 0) break;
        j = end;
      }
    }
    const body = text.slice(m.index + 2, j);
    if (depth > 0 || /["\\`[{]|<<|case/.test(body.replace(/'[^']*'/g, "''"))) return laterHash(text, m.index + 2);
    if (laterHash(body, 0) || text[j] === '#') return true;
    budget -= j - m.index;
    // The next start may be inside this one (a `$(` this count took for one may stand in quotes,
    // and what it took for its end may not be): each start is counted on its own.
    from = m.index + 2;
  }
}

/** A `#` at or after `from` other than in `$#` and `${#`. */
function laterHash(text: string, from: number): boolean {
  for (let i = text.indexOf('#', from); i >= 0; i = text.indexOf('#', i + 1)) {
    if (text[i - 1] === '$' || (text[i - 1] === '{' && text[i - 2] === '$')) continue;
    return true;
  }
  return false;
}
