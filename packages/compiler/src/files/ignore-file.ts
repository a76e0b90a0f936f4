/**
 * `.gitignore` lines, read as git reads them: blank lines and `#` comments are skipped, trailing
 * spaces dropped unless escaped (`\ `), `!` re-includes, `\#` and `\!` are literal; the rest is a
 * glob in `.gitignore` style (see `compileGlob`). The last line that names a path decides.
 */
import { isAbsolute, sep } from 'node:path';
import { compileGlob, type PathGlob } from './glob.ts';

export interface IgnoreRule {
  glob: PathGlob;
  /** `!pattern`: takes the path back in. */
  negated: boolean;
  /** Where the line is written, for `--debug` (`.gitignore:3`, `--ignore-pattern`). */
  where: string;
}

/** One ignore file (or the `--ignore-pattern` list): its rules, relative to `base`. */
export interface IgnoreSource {
  base: string;
  rules: IgnoreRule[];
}

export interface IgnoreLine {
  rule?: IgnoreRule;
  /** Why the line is not a valid glob (git skips such a line; `--ignore-pattern` refuses it). */
  error?: string;
}

/** One `.gitignore` line; `undefined` for a blank line or a comment. */
export function parseIgnoreLine(raw: string, where: string): IgnoreLine | undefined {
  let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (line.startsWith('#')) return undefined;
  line = trimTrailingSpaces(line);
  if (line === '') return undefined;
  const negated = line.startsWith('!');
  if (negated) line = line.slice(1);
  const c = compileGlob(line, { gitignore: true });
  return c.ok ? { rule: { glob: c.glob, negated, where } } : { error: c.error };
}

/** The rules of a `.gitignore` file's text; lines that are not valid globs are skipped, as git does. */
export function parseIgnoreFile(text: string, name: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  text.split('\n').forEach((raw, i) => {
    const r = parseIgnoreLine(raw, `${name}:${i + 1}`)?.rule;
    if (r !== undefined) rules.push(r);
  });
  return rules;
}

function trimTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === ' ') {
    // An odd run of backslashes before the space escapes it.
    let slashes = 0;
    while (end - 2 - slashes >= 0 && line[end - 2 - slashes] === '\\') slashes++;
    if (slashes % 2 === 1) break;
    end--;
  }
  return line.slice(0, end);
}

/**
 * Whether `sources` (outermost first; later lines and deeper files win) leave out the path `abs`,
 * and which line says so. Only the path itself is tested: a walk never enters an ignored folder,
 * so a folder's verdict covers everything in it, as in git.
 */
export function ignoredBy(sources: readonly IgnoreSource[], abs: string, isFolder: boolean, relative: (from: string, to: string) => string): IgnoreRule | undefined {
  let last: IgnoreRule | undefined;
  for (const s of sources) {
    let rel = relative(s.base, abs);
    if (rel === '') continue;
    // Outside the base (a path beyond the working directory, for `--ignore-pattern`), a glob is
    // matched against the whole path: one without a `/` still names the file at any depth, one
    // anchored to the base names nothing there.
    if (rel === '..' || rel.startsWith('../') || isAbsolute(rel)) rel = (sep === '\\' ? abs.replace(/\\/g, '/') : abs).replace(/^(?:[A-Za-z]:)?\/+/, '');
    for (const r of s.rules) if (r.glob.matches(rel, isFolder)) last = r;
  }
  return last !== undefined && !last.negated ? last : undefined;
}
