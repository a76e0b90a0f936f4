/**
 * `lintFiles`: the CLI's entry point. Expands folders into policy files: a file in a folder is a
 * policy when its name says so (`*.verdict`, `*.policy.yaml`, `verdict.yaml`), when the
 * configuration's `include` globs name it, or when it names a Verdict JSON Schema (the YAML
 * language server's modeline, or a `$schema` key); anything else is skipped (and listed, for
 * `--debug`). A file named on the command line is linted whatever its name. Each file gets the
 * nearest configuration; all are linted with one shared regex cache.
 */
import { RegexCache } from '@verdict/analysis';
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { CompileResult } from '@verdict/compiler';
import { carriesVerdictSchema, checkText, compileGlob, displayPath, findFiles, hasPolicyName, type LoadedText, type PathGlob, POLICY_EXTENSIONS, readSourceFile } from '@verdict/compiler';
import { printable } from '@verdict/engine';
import type { Diagnostic, HookAgent } from '@verdict/engine';
import { emptyConfig, findConfigFile, loadLintConfig } from './config.ts';
import { compileForLint, lintNativeSource, lintSource, type LintSourceOptions, unreadableFile } from './runner.ts';
import { lstatSync } from 'node:fs';
import { NATIVE_FOLDERS, nativeFormatOf } from '@verdict/native';
import type { NativeFormat } from '@verdict/native';
import { fixSource } from './fix.ts';
import { allRules } from './rules/index.ts';
import type { FileResult, LintConfig, LintMessage, LintRun, Rule } from './types.ts';

export interface LintFilesOptions {
  /** Driver override: a built-in name or a descriptor path (relative to `cwd`). */
  driver?: string;
  /** The agent whose hook runs the policies (overrides the configuration's `hook-agent`). */
  hookAgent?: HookAgent;
  /**
   * Configuration file for every linted file (its globs are relative to `cwd`, as ESLint's
   * `--config`); default: the nearest `verdict.config.yaml` (or `.yml`) from each file's folder up
   * to the repository root, whose globs are relative to its own folder.
   */
  configPath?: string;
  /** Use no configuration file unless `configPath` names one (`--no-config-lookup`). */
  noConfigLookup?: boolean;
  /** An already loaded configuration (takes precedence over `configPath`). */
  config?: LintConfig;
  /** `.gitignore`-style lines relative to `cwd` that leave files out (`--ignore-pattern`). */
  ignorePatterns?: readonly string[];
  /** Folder that paths and globs are relative to; default `process.cwd()`. */
  cwd?: string;
  /** The rule catalogue (default: every rule). */
  rules?: readonly Rule[];
  /**
   * What the path `-` stands for: standard input as the compiler's `readSourceStream` read it
   * (the decoded text, or why it cannot be used), linted as if it were the file `name` (shown in
   * findings, its extension picks the syntax, the configuration is looked up from its folder and
   * its `ignore` applies, as for a file named as an argument).
   */
  stdin?: { name: string; read: LoadedText };
  /**
   * Apply the findings' fixes (`--fix`, `--fix-dry-run`): each result then carries the fixed text
   * as `output` and the findings of that text. Nothing is written.
   */
  fix?: boolean | ((m: LintMessage) => boolean);
}

export { carriesVerdictSchema, hasPolicyName, POLICY_EXTENSIONS };

export function lintFiles(paths: readonly string[], options: LintFilesOptions = {}): LintRun {
  const cwd = resolve(options.cwd ?? process.cwd());
  const rules = options.rules ?? allRules;
  const diagnostics: Diagnostic[] = [];
  const configs = new Configs(cwd, rules, diagnostics, options);
  const files: FoundFile[] = [];
  const skipped: SkippedFile[] = [];
  const skip = (abs: string, reason: string): void => {
    skipped.push({ file: printable(displayPath(cwd, abs)), reason });
  };
  const driverOf = (f: FoundFile): string | undefined => {
    const config = f.config.config;
    return options.driver !== undefined ? resolveDriver(options.driver, cwd) : config.driver !== undefined ? resolveDriver(config.driver, f.config.base) : undefined;
  };
  // A file sniffed for a Verdict `$schema` is read and compiled once: linting reuses both.
  const sniff = (f: FoundFile): boolean => {
    const shown = printable(displayPath(cwd, f.abs));
    const read = readSourceFile(shown, f.path);
    f.read = read;
    if (read.text === undefined) return false;
    if (read.text.includes('$schema')) f.compiled = compileForLint(read.text, shown, driverOf(f));
    return carriesVerdictSchema(read.text, f.compiled?.schemas);
  };

  // `-`: standard input, linted as the file it is named after (its configuration and `ignore` apply).
  const given = paths.length > 0 ? paths : ['.'];
  const fromDisk = options.stdin !== undefined ? given.filter((p) => p !== '-') : given;
  if (options.stdin !== undefined && fromDisk.length < given.length) {
    const abs = resolve(cwd, options.stdin.name);
    const c = configs.forFile(abs);
    const ignoredBy = c.ignoredBy(abs);
    const native = nativeFormatOf(inside(cwd, abs), { explicit: true });
    if (ignoredBy === undefined) files.push({ abs, path: abs, config: c, stdin: options.stdin.read, ...(native !== undefined ? { native } : {}) });
    else skip(abs, ignoredBy);
  }
  // The walker every command shares: folders, globs, `.gitignore` and `--ignore-pattern`.
  const found = fromDisk.length > 0
    ? findFiles(fromDisk, {
        cwd,
        extensions: POLICY_EXTENSIONS,
        // The agents' own permission files, found by their names (`.claude/settings.json`…).
        dotFolders: NATIVE_FOLDERS,
        accept: (abs) => nativeFormatOf(inside(cwd, abs)) !== undefined,
        ...(options.ignorePatterns !== undefined ? { ignorePatterns: options.ignorePatterns } : {}),
      })
    : { files: [], skipped: [], diagnostics: [] };
  diagnostics.push(...found.diagnostics);
  for (const s of found.skipped) skipped.push({ file: s.display, reason: s.reason });
  for (const f of found.files) {
    // A file named or matched by a glob is linted whatever its name or content, unless ignored.
    const explicit = f.named || f.byGlob;
    if (!f.named && configs.isConfigFile(f.abs)) continue;
    const c = configs.forFile(f.abs);
    const file: FoundFile = { abs: f.abs, path: f.path, config: c };
    // An agent's permission file is known by its name, whatever `include` says; `ignore` applies.
    const native = nativeFormatOf(inside(cwd, f.abs), { explicit: f.named });
    if (native !== undefined) {
      file.native = native;
      if (f.symlink === true || (f.named && isSymlink(f.abs))) file.symlink = true;
      const ignored = c.ignoredBy(f.abs);
      if (ignored === undefined) files.push(file);
      else skip(f.abs, ignored);
      continue;
    }
    const why = c.ignoredBy(f.abs) ?? (explicit ? undefined : c.notPolicy(f, () => sniff(file)));
    if (why === undefined) files.push(file);
    else skip(f.abs, why);
  }

  // Nothing to lint is a failed run, not a clean one: a typo in `include` or a wrong path would
  // otherwise turn the CI lint into a silent no-op.
  if (files.length === 0 && !diagnostics.some((d) => d.severity === 'error')) {
    const where = (paths.length > 0 ? paths : ['.']).map((p) => `\`${printable(p)}\``).join(', ');
    const narrowing = configs.narrowing();
    diagnostics.push({
      code: 'lint/no-files',
      severity: 'error',
      message: `no policy files found in ${where}`,
      help:
        narrowing !== undefined
          ? `check \`include\` and \`ignore\` in \`${printable(displayPath(cwd, narrowing))}\`, or name the files to lint`
          : 'name the files to lint, give them a policy name (`*.verdict`, `*.policy.yaml`, `verdict.yaml`), start them with a `# yaml-language-server: $schema=` line naming a Verdict schema, or list them under `include` in `verdict.config.yaml`',
    });
  }

  const regexes = new RegexCache();
  const results: FileResult[] = [];
  for (const f of files) {
    const config = f.config.config;
    const driver = driverOf(f);
    // The compiler's reader, as every command reads: regular files only, bounded, strict UTF-8.
    const shown = printable(displayPath(cwd, f.abs));
    const read = f.read ?? (f.stdin === undefined ? readSourceFile(shown, f.path) : f.stdin.text !== undefined ? checkText(shown, f.stdin.text) : f.stdin);
    if (read.text === undefined) {
      results.push(unreadableFile(shown, read.diagnostics, { config, rules }));
      continue;
    }
    if (f.native !== undefined) {
      results.push(lintNativeSource(read.text, shown, f.native, { config, rules, ...(f.symlink === true ? { symlink: true } : {}) }));
      continue;
    }
    const lintOptions = {
      config,
      rules,
      regexes,
      ...(driver !== undefined ? { driver } : {}),
      ...(options.hookAgent !== undefined ? { hookAgent: options.hookAgent } : {}),
      ...(f.compiled !== undefined ? { compiled: f.compiled } : {}),
    };
    const fix = options.fix;
    results.push(fix === undefined || fix === false ? lintSource(read.text, shown, lintOptions) : fixedResult(read.text, shown, f.path, f.stdin === undefined, lintOptions, fix === true ? () => true : fix));
  }
  results.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const configErrors = diagnostics.filter((d) => d.severity === 'error').length;
  return {
    results,
    errorCount: results.reduce((n, r) => n + r.errorCount, 0) + configErrors,
    warningCount: results.reduce((n, r) => n + r.warningCount, 0) + diagnostics.filter((d) => d.severity === 'warning').length,
    infoCount: results.reduce((n, r) => n + r.infoCount, 0),
    diagnostics,
    skipped,
    rules,
    cwd,
  };
}

/** The findings of the fixed text, with the text to write (a file whose name is not UTF-8 is not fixed). */
function fixedResult(text: string, shown: string, path: string | Uint8Array, onDisk: boolean, options: LintSourceOptions, accept: (m: LintMessage) => boolean): FileResult {
  if (typeof path !== 'string') return lintSource(text, shown, options);
  const fixed = fixSource(text, shown, options, accept);
  // The reader strips a byte order mark; the file keeps its own.
  const output = fixed.output !== undefined && onDisk && startsWithBom(path) && !fixed.output.startsWith('\ufeff') ? `\ufeff${fixed.output}` : fixed.output;
  return {
    ...fixed.result,
    ...(output !== undefined ? { output, filePath: path } : {}),
    ...(fixed.diagnostics.length > 0 ? { fixDiagnostics: fixed.diagnostics } : {}),
  };
}

function startsWithBom(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(3);
    return readSync(fd, head, 0, 3, 0) === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A driver named by a path is relative to `base`; a built-in name is kept. */
function resolveDriver(driver: string, base: string): string {
  return /[/\\]|\.(json|ya?ml)$/i.test(driver) && !isAbsolute(driver) ? resolve(base, driver) : driver;
}

/** A file a folder held that is not linted, and why (`--debug` prints them). */
export interface SkippedFile {
  file: string;
  reason: string;
}

/** The configuration that applies to one folder, with its globs compiled. */
class FolderConfig {
  readonly include: PathGlob[];
  readonly ignore: PathGlob[];
  constructor(
    readonly config: LintConfig,
    /** The folder the globs (and a driver path) are relative to. */
    readonly base: string,
    /** The configuration file as messages name it (relative to the working directory). */
    private readonly shown: string | undefined = config.file,
  ) {
    // Invalid globs were reported, located, when the configuration was read.
    this.include = compileGlobs(config.include);
    this.ignore = compileGlobs(config.ignore);
  }
  private rel(abs: string): string {
    const r = relative(this.base, abs);
    return sep === '\\' ? r.replace(/\\/g, '/') : r;
  }
  private where(): string {
    return this.shown !== undefined ? ` of \`${printable(this.shown)}\`` : '';
  }
  /** Why the configuration's `ignore` leaves `abs` out, or `undefined`. */
  ignoredBy(abs: string): string | undefined {
    const rel = this.rel(abs);
    if (rel.startsWith('..') || isAbsolute(rel)) return undefined;
    const g = this.ignore.find((x) => x.matchesWithin(rel));
    return g === undefined ? undefined : `matched by \`ignore\` glob \`${printable(g.source)}\`${this.where()}`;
  }
  /** Why a file found in a folder is not a policy, or `undefined` when it is one. */
  notPolicy(f: { abs: string }, sniff: () => boolean): string | undefined {
    if (this.include.length > 0) {
      const rel = this.rel(f.abs);
      const inside = !rel.startsWith('..') && !isAbsolute(rel);
      return inside && this.include.some((g) => g.matchesWithin(rel)) ? undefined : `not matched by \`include\`${this.where()}`;
    }
    if (hasPolicyName(basename(f.abs))) return undefined;
    if (sniff()) return undefined;
    return 'not a policy by name (`*.verdict`, `*.policy.yaml`, `verdict.yaml`), by a Verdict `$schema`, or by `include`';
  }
}

/**
 * The configuration of each linted file: `config`, or the file `configPath`, or else the nearest
 * `verdict.config.yaml` found from the file's folder upward, up to the repository root (a folder
 * holding `.git`) or the filesystem root. Each configuration is read once; its problems are
 * reported once.
 */
class Configs {
  private readonly fixed: FolderConfig | undefined;
  private readonly byDir = new Map<string, FolderConfig>();
  private readonly byFile = new Map<string, FolderConfig>();
  private readonly none: FolderConfig;
  constructor(
    private readonly cwd: string,
    private readonly rules: readonly Rule[],
    private readonly diagnostics: Diagnostic[],
    options: LintFilesOptions,
  ) {
    this.none = new FolderConfig(emptyConfig(), cwd);
    if (options.config !== undefined) this.fixed = new FolderConfig(options.config, cwd);
    else if (options.configPath !== undefined) this.fixed = this.load(resolve(cwd, options.configPath), cwd);
    else if (options.noConfigLookup === true) this.fixed = this.none;
  }
  private load(file: string, base: string): FolderConfig {
    let c = this.byFile.get(file);
    if (c === undefined) {
      const shown = displayPath(this.cwd, file);
      const loaded = loadLintConfig(file, this.rules.map((r) => r.id), shown);
      for (const d of loaded.diagnostics) this.diagnostics.push(d);
      c = new FolderConfig(loaded.config, base, shown);
      this.byFile.set(file, c);
    }
    return c;
  }
  isConfigFile(abs: string): boolean {
    return this.byFile.has(abs);
  }
  forFile(abs: string): FolderConfig {
    return this.fixed ?? this.forDir(dirname(abs));
  }
  private forDir(dir: string): FolderConfig {
    const known = this.byDir.get(dir);
    if (known !== undefined) return known;
    const file = findConfigFile(dir);
    const parent = dirname(dir);
    const c = file !== undefined ? this.load(file, dir) : existsSync(join(dir, '.git')) || parent === dir ? this.none : this.forDir(parent);
    this.byDir.set(dir, c);
    return c;
  }
  /** A configuration file whose `include` or `ignore` took part, for the help of an empty run. */
  narrowing(): string | undefined {
    for (const c of [this.fixed, ...this.byFile.values()]) {
      if (c?.config.file !== undefined && (c.config.include.length > 0 || c.config.ignore.length > 0)) return c.config.file;
    }
    return undefined;
  }
}

function compileGlobs(globs: readonly string[]): PathGlob[] {
  return globs.flatMap((g) => {
    const c = compileGlob(g, { gitignore: true });
    return c.ok ? [c.glob] : [];
  });
}


/** A file found on disk: `abs` names it in messages and globs, `path` opens it (bytes when the name is not UTF-8). */
interface FoundFile {
  abs: string;
  path: string | Uint8Array;
  config: FolderConfig;
  /** What standard input held, when the file came from there rather than from `path`. */
  stdin?: LoadedText;
  /** Read (and compiled) while deciding whether it is a policy: linting reuses them. */
  read?: LoadedText;
  compiled?: CompileResult;
  /** An agent's own permission file, by its name. */
  native?: NativeFormat;
  symlink?: boolean;
}

/** A path as the folders below `cwd` name it (the names above it say nothing about the file), or as given. */
function inside(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? abs : rel;
}

function isSymlink(abs: string): boolean {
  try {
    return lstatSync(abs).isSymbolicLink();
  } catch {
    return false;
  }
}
