/**
 * The one way the commands turn their path arguments into files (`verdict lint`, `test`, `fmt`):
 * a file is taken as named; a folder is walked; an argument that names nothing on disk but holds a
 * glob character is a glob (`policies/**\/*.yaml`) matched under its static folder. Walks and globs
 * honour `.gitignore` files as git does (from the repository root down, deeper files and later
 * lines winning, `!` re-including, an ignored folder never entered) and `--ignore-pattern` lines
 * (`.gitignore` style, relative to the working directory, above every `.gitignore`). They never
 * enter dot folders or the folders of `DEFAULT_SKIPPED_FOLDERS`, nor follow symbolic links, and
 * take only files whose names end in one of `extensions`, never `verdict.config.yaml` (`.yml`). Names are read as bytes, so a name that
 * is not UTF-8 is still found (and opened through its bytes).
 */
import { existsSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Diagnostic } from '@verdict/engine';
import { printable } from '@verdict/engine';
import { nameFromBytes, readSourceFile } from '../load.ts';
import { compileGlob, isGlob, splitGlob, type PathGlob } from './glob.ts';
import { CONFIG_FILE_NAMES } from './policy-files.ts';
import { ignoredBy, type IgnoreRule, type IgnoreSource, parseIgnoreFile, parseIgnoreLine } from './ignore-file.ts';

export const DEFAULT_SKIPPED_FOLDERS: readonly string[] = ['node_modules', '.git', '.hg', '.svn', '.tsbuild', 'dist', 'coverage'];

export interface FindFilesOptions {
  /** Folder that arguments, globs and `ignorePatterns` are relative to; default `process.cwd()`. */
  cwd?: string;
  /** Name endings of the files a folder or a glob contributes (`.yaml`); a named file is taken whatever its name. */
  extensions: readonly string[];
  /** `.gitignore`-style lines relative to `cwd` (`--ignore-pattern`); they apply to named files too. */
  ignorePatterns?: readonly string[];
  /** Honour `.gitignore` files (default true). */
  gitignore?: boolean;
  /** Dot folders a walk enters all the same (`.claude`, `.codex`: where agents keep their own permission files). */
  dotFolders?: readonly string[];
  /**
   * Files a walk or a glob takes whatever their extension, symbolic links included (marked
   * `symlink`, so a caller can say that the program reading them would skip them).
   */
  accept?: (abs: string) => boolean;
}

export interface FoundFile {
  /** Absolute path (a name that is not UTF-8 reads with U+FFFD). */
  abs: string;
  /** The path for messages: relative to `cwd` when inside it, else absolute; `/`-separated. */
  display: string;
  /** What opens the file: `abs`, or its bytes when the name is not UTF-8. */
  path: string | Uint8Array;
  /** Named on the command line (not found in a folder or by a glob). */
  named: boolean;
  /** Found by a glob (the user asked for it by pattern, whatever its name says). */
  byGlob: boolean;
  /** A symbolic link, found through `accept` (a walk follows no other). */
  symlink?: boolean;
}

/** A path left out, and why (`--debug` lists them). */
export interface SkippedPath {
  display: string;
  reason: string;
}

export interface FoundFiles {
  files: FoundFile[];
  skipped: SkippedPath[];
  /** Arguments that name nothing, globs that match nothing, invalid `ignorePatterns` (errors). */
  diagnostics: Diagnostic[];
}

export function findFiles(args: readonly string[], options: FindFilesOptions): FoundFiles {
  const cwd = resolve(options.cwd ?? process.cwd());
  const walker = new Walker(cwd, options);
  for (const arg of args) walker.argument(arg);
  return { files: walker.files, skipped: walker.skipped, diagnostics: walker.diagnostics };
}

/** A path for messages: relative to `cwd` when inside it, else absolute; `/` as the separator. */
export function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  const shown = rel === '' || rel.startsWith('..') || isAbsolute(rel) ? abs : rel;
  return sep === '\\' ? shown.replace(/\\/g, '/') : shown;
}

/** `to` relative to `from`, `/`-separated (`..` first when outside). */
function relativePath(from: string, to: string): string {
  const r = relative(from, to);
  return sep === '\\' ? r.replace(/\\/g, '/') : r;
}

const NOT_UTF8_ARGUMENT =
  'the name holds `\ufffd`, which is how a byte that is not UTF-8 reads on the command line: such a file cannot be named in an argument, but it is found when its folder is given';

class Walker {
  readonly files: FoundFile[] = [];
  readonly skipped: SkippedPath[] = [];
  readonly diagnostics: Diagnostic[] = [];
  private readonly seen = new Set<string>();
  /** Files a glob matched that an ignore rule left out (to say why a glob found nothing). */
  private ignoredMatches = 0;
  private readonly patterns: IgnoreSource;
  private readonly gitignores = new Map<string, IgnoreSource | undefined>();
  private readonly roots = new Map<string, string | undefined>();
  private readonly extensions: readonly string[];
  private readonly gitignore: boolean;
  private readonly dotFolders: readonly string[];
  private readonly accept: ((abs: string) => boolean) | undefined;

  constructor(
    private readonly cwd: string,
    options: FindFilesOptions,
  ) {
    this.extensions = options.extensions.map((e) => e.toLowerCase());
    this.gitignore = options.gitignore !== false;
    this.dotFolders = options.dotFolders ?? [];
    this.accept = options.accept;
    const rules: IgnoreRule[] = [];
    for (const p of options.ignorePatterns ?? []) {
      const line = parseIgnoreLine(p, '--ignore-pattern');
      if (line?.error !== undefined) {
        this.diagnostics.push({
          code: 'files/invalid-glob',
          severity: 'error',
          message: `invalid \`--ignore-pattern\` \`${printable(p)}\`: ${line.error}`,
          help: 'a pattern is a `.gitignore` line: `*`, `?`, `**`, `[…]` and `{a,b}`, with `\\` to escape',
        });
      } else if (line?.rule !== undefined) rules.push(line.rule);
    }
    this.patterns = { base: cwd, rules };
  }

  argument(arg: string): void {
    const abs = resolve(this.cwd, arg);
    let isFolder: boolean | undefined;
    try {
      isFolder = statSync(abs).isDirectory();
    } catch {
      isFolder = undefined;
    }
    if (isFolder === true) return this.walk(abs, abs, undefined);
    if (isFolder === false) {
      // A file named explicitly is taken whatever its name, unless an --ignore-pattern names it.
      const why = this.patternIgnores(abs);
      if (why !== undefined) this.skip(abs, why);
      else this.add(abs, abs, { named: true, byGlob: false });
      return;
    }
    if (isGlob(arg)) return this.glob(arg);
    const d: Diagnostic = { code: 'files/not-found', severity: 'error', message: `no such file or folder \`${printable(arg)}\`` };
    if (arg.includes('\ufffd')) d.help = NOT_UTF8_ARGUMENT;
    this.diagnostics.push(d);
  }

  private glob(arg: string): void {
    const text = sep === '\\' ? arg.replace(/\\/g, '/') : arg;
    // The whole argument is checked first: picomatch does not split an unbalanced `[` off its folder.
    const whole = compileGlob(text);
    const { base, glob } = splitGlob(text);
    const compiled = whole.ok ? compileGlob(glob) : whole;
    if (!compiled.ok) {
      this.diagnostics.push({
        code: 'files/invalid-glob',
        severity: 'error',
        message: `invalid glob \`${printable(arg)}\`: ${compiled.error}`,
        help: 'a glob uses `*`, `?`, `**`, `[…]` and `{a,b}`, with `\\` to escape; quote it so the shell leaves it to Verdict',
      });
      return;
    }
    const root = resolve(this.cwd, base === '' ? '.' : base);
    const before = this.files.length;
    const ignoredBefore = this.ignoredMatches;
    let isFolder = false;
    try {
      isFolder = statSync(root).isDirectory();
    } catch {
      isFolder = false;
    }
    // Without `**`, a glob names paths of a fixed number of segments: no deeper folder is entered.
    const depth = glob.includes('**') ? Infinity : glob.split('/').length;
    if (isFolder) this.walk(root, root, { glob: compiled.glob, root, depth });
    if (this.files.length > before) return;
    const ignored = this.ignoredMatches > ignoredBefore;
    this.diagnostics.push({
      code: 'files/no-match',
      severity: 'error',
      message: ignored ? `every file the glob \`${printable(arg)}\` matches is ignored` : `no files match the glob \`${printable(arg)}\``,
      help: ignored
        ? 'run with `--debug` to see which ignore pattern leaves each one out'
        : isFolder
          ? `the glob is matched under \`${printable(displayPath(this.cwd, root))}\` against files ending in ${this.extensions.join(', ')}; quote a glob so the shell leaves it to Verdict`
          : `the folder \`${printable(displayPath(this.cwd, root))}\` the glob starts from does not exist`,
    });
  }

  /** `acceptedOnly`: inside a dot folder of `dotFolders`, where only `accept`ed files are taken. */
  private walk(dir: string, path: string | Buffer, glob: { glob: PathGlob; root: string; depth: number } | undefined, top = dir, depth = 0, acceptedOnly = false): void {
    const sources = this.sourcesFor(dir, top);
    let entries: Dirent<Buffer>[];
    try {
      entries = readdirSync(path, { withFileTypes: true, encoding: 'buffer' });
    } catch {
      return;
    }
    const named = entries.map((e) => ({ e, name: nameFromBytes(e.name) }));
    named.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const { e, name } of named) {
      const abs = join(dir, name);
      const p =
        typeof path === 'string' && name === e.name.toString('utf8')
          ? abs
          : Buffer.concat([typeof path === 'string' ? Buffer.from(path) : path, Buffer.from(sep), e.name]);
      if (e.isDirectory()) {
        const dot = name.startsWith('.');
        if ((dot && !this.dotFolders.includes(name)) || DEFAULT_SKIPPED_FOLDERS.includes(name)) continue;
        if (glob !== undefined && depth + 1 >= glob.depth) continue;
        const rule = ignoredBy(sources, abs, true, relativePath);
        if (rule !== undefined) {
          this.skip(abs, ruleReason(rule), true);
          continue;
        }
        this.walk(abs, p, glob, top, depth + 1, acceptedOnly || dot);
      } else if (
        (!acceptedOnly && !e.isSymbolicLink() && this.extensions.some((x) => name.toLowerCase().endsWith(x))) ||
        (this.accept !== undefined && (e.isFile() || e.isSymbolicLink()) && this.accept(abs))
      ) {
        // Regular files, and FIFOs and devices too: the reader refuses those with a diagnostic
        // instead of the walk passing over them without a word.
        if (glob !== undefined && !glob.glob.matches(relativePath(glob.root, abs), false)) continue;
        // A lint configuration is never a policy: only naming it takes it.
        if ((CONFIG_FILE_NAMES as readonly string[]).includes(name)) continue;
        const rule = ignoredBy(sources, abs, false, relativePath);
        if (rule !== undefined) {
          this.skip(abs, ruleReason(rule));
          this.ignoredMatches++;
        } else this.add(abs, p, { named: false, byGlob: glob !== undefined, ...(e.isSymbolicLink() ? { symlink: true } : {}) });
      }
    }
  }

  /**
   * The ignore files that apply in `dir`: every `.gitignore` from the repository root (the nearest
   * folder holding `.git`; outside a repository, the folder the walk started in) down to `dir`,
   * then `--ignore-pattern`.
   */
  private sourcesFor(dir: string, top: string): IgnoreSource[] {
    const chain: IgnoreSource[] = [];
    if (this.gitignore) {
      const ceiling = this.repositoryRoot(top) ?? top;
      for (let d = dir; ; ) {
        const s = this.gitignoreIn(d);
        if (s !== undefined) chain.unshift(s);
        const parent = resolve(d, '..');
        if (d === ceiling || parent === d) break;
        d = parent;
      }
    }
    chain.push(this.patterns);
    return chain;
  }

  /** The nearest folder at or above `dir` that holds `.git`, whose `.gitignore` files apply. */
  private repositoryRoot(dir: string): string | undefined {
    if (this.roots.has(dir)) return this.roots.get(dir);
    const parent = resolve(dir, '..');
    const root = existsSync(join(dir, '.git')) ? dir : parent === dir ? undefined : this.repositoryRoot(parent);
    this.roots.set(dir, root);
    return root;
  }

  private gitignoreIn(dir: string): IgnoreSource | undefined {
    if (this.gitignores.has(dir)) return this.gitignores.get(dir);
    const file = join(dir, '.gitignore');
    let source: IgnoreSource | undefined;
    if (existsSync(file)) {
      const read = readSourceFile(file);
      if (read.text !== undefined) source = { base: dir, rules: parseIgnoreFile(read.text, displayPath(this.cwd, file)) };
    }
    this.gitignores.set(dir, source);
    return source;
  }

  /** Why `--ignore-pattern` leaves a named file out (testing its folders from `cwd` down, as a walk would). */
  private patternIgnores(abs: string): string | undefined {
    const rel = relativePath(this.cwd, abs);
    const outside = rel === '..' || rel.startsWith('../') || isAbsolute(rel);
    const root = outside ? resolve('/') : this.cwd;
    const parts = (outside ? relativePath(root, abs) : rel).split('/');
    for (let i = 1; i <= parts.length; i++) {
      const rule = ignoredBy([this.patterns], join(root, ...parts.slice(0, i)), i < parts.length, relativePath);
      if (rule !== undefined) return ruleReason(rule);
    }
    return undefined;
  }

  private add(abs: string, path: string | Uint8Array, how: { named: boolean; byGlob: boolean; symlink?: boolean }): void {
    if (this.seen.has(abs)) return;
    this.seen.add(abs);
    this.files.push({ abs, display: printable(displayPath(this.cwd, abs)), path, ...how });
  }

  private skip(abs: string, reason: string, folder = false): void {
    this.skipped.push({ display: `${printable(displayPath(this.cwd, abs))}${folder ? '/' : ''}`, reason });
  }
}

function ruleReason(rule: IgnoreRule): string {
  return rule.where === '--ignore-pattern'
    ? `matched by \`--ignore-pattern\` \`${printable(rule.glob.source)}\``
    : `matched by \`${printable(rule.glob.source)}\` in \`${printable(rule.where)}\``;
}
