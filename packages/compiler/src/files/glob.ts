/**
 * Globs, parsed by picomatch and matched by RE2 (re2js, through the engine's `compileRegex`), so a
 * match takes time linear in the path whatever the pattern: picomatch's own JavaScript RegExps
 * backtrack, and a pattern such as `**\/a/**\/a/…/x` against a deep path would take hours.
 *
 * Syntax (picomatch with `dot` and POSIX brackets): `*` and `?` within one path segment, `**` any
 * number of folders, `{a,b}` alternatives, `{1..3}` ranges, `[abc]`, `[!abc]`, `[[:alpha:]]`, `\`
 * escapes the next character. A leading `!` is not a negation here (`.gitignore` lines handle it
 * themselves); extended globs (`+(a|b)`) are off. Paths are `/`-separated and relative, with no
 * `.` or `..` segment.
 */
import picomatch from 'picomatch';
import { compileRegex, type CompiledRegex } from '@verdict/engine';

export interface PathGlob {
  /** The glob as written. */
  readonly source: string;
  /**
   * Whether the glob names `path` itself. A glob ending in `/` names folders only; in `.gitignore`
   * style, a glob with no `/` but a trailing one names a file or folder at any depth.
   */
  matches(path: string, isFolder: boolean): boolean;
  /** Whether the glob names `path` or one of the folders that hold it (`.gitignore` style only). */
  matchesWithin(path: string): boolean;
}

export type GlobResult = { ok: true; glob: PathGlob } | { ok: false; error: string };

export interface GlobOptions {
  /**
   * Read the glob as a `.gitignore` line does (without its `!`): one with no `/` except a trailing
   * one names a file or folder at any depth, a leading `/` anchors it to the base folder, and a
   * trailing `/` names folders only. Otherwise the glob names whole paths from the base folder.
   */
  gitignore?: boolean;
}

const PICOMATCH: picomatch.PicomatchOptions = {
  dot: true,
  posix: true,
  noextglob: true,
  nonegate: true,
  strictBrackets: true,
  fastpaths: false,
};

/**
 * picomatch's zero-width assertions, the only ones it writes with `dot` on: they keep `*` and `**`
 * off `.` and `..` segments and off empty names, which a normalised relative path never has. RE2
 * has no lookaround; any left after these are taken out (a user's `(?=…)`) refuse the glob.
 */
const ASSERTIONS = [
  '(?!(?:^|\\/)\\.{1,2}(?:\\/|$))',
  '(?!\\.{1,2}(?:\\/|$))',
  '(?!\\.{0,1}(?:\\/|$))',
  '(?!\\.)',
  '(?=.)',
];

export function compileGlob(source: string, options: GlobOptions = {}): GlobResult {
  let g = source;
  let folderOnly = false;
  let anyDepth = false;
  if (options.gitignore === true) {
    if (g.endsWith('/')) {
      folderOnly = true;
      g = g.replace(/\/+$/, '');
    }
    if (g.startsWith('/')) g = g.replace(/^\/+/, '');
    else if (!g.includes('/')) anyDepth = true;
  }
  if (g.startsWith('./')) g = g.replace(/^(?:\.\/)+/, '');
  if (g === '') return { ok: false, error: 'the glob names no path' };
  let body: string;
  try {
    body = picomatch.parse(g, PICOMATCH).output;
  } catch (e) {
    return { ok: false, error: pickerError(e instanceof Error ? e.message : String(e)) };
  }
  for (const a of ASSERTIONS) body = body.split(a).join('');
  const head = `(?s)^${anyDepth ? '(?:.*/)?' : ''}(?:${body})`;
  const exact = compileRegex(`${head}$`);
  if (!exact.ok) return { ok: false, error: regexError(exact.error) };
  let within: CompiledRegex | undefined;
  if (options.gitignore === true) {
    const w = compileRegex(`${head}${folderOnly ? '/.*' : '(?:/.*)?'}$`);
    if (!w.ok) return { ok: false, error: regexError(w.error) };
    within = w.regex;
  }
  const whole = exact.regex;
  return {
    ok: true,
    glob: {
      source,
      matches: (path, isFolder) => (isFolder || !folderOnly) && whole.test(path),
      matchesWithin: (path) => (within ?? whole).test(path),
    },
  };
}

/** A glob character outside a `\` escape: an argument holding one is a glob. */
export function isGlob(text: string): boolean {
  return picomatch.scan(text).isGlob || /(?:^|[^\\])[*?[\]{}]/.test(text);
}

/** A glob argument split into the folder to walk and the glob below it (`policies/**\/*.yaml`). */
export function splitGlob(text: string): { base: string; glob: string } {
  const s = picomatch.scan(text, { parts: false });
  return { base: s.base, glob: s.glob };
}

/** picomatch's `Missing closing: "]" - use "\\]" to match literal characters`, as a diagnostic says it. */
function pickerError(message: string): string {
  const m = /^Missing (opening|closing): "(.+?)"/.exec(message);
  if (m !== null) return `missing ${m[1]} \`${m[2]}\` (a literal one is written \`\\${m[2]}\`)`;
  return (message.charAt(0).toLowerCase() + message.slice(1)).replace(/\.$/, '');
}

function regexError(error: string): string {
  // A zero-width assertion written in a glob (`(?=x)`) is what RE2 refuses; say it as a glob error.
  return `the glob holds a construct Verdict cannot match in linear time (${error.replace(/^error parsing regexp: /, '')})`;
}
