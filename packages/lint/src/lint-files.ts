/**
 * `lintFiles`: the CLI's entry point. Expands folders into policy files: a file in a folder is a
 * policy when its name says so (`*.verdict`, `*.policy.yaml`, `verdict.yaml`), when the
 * configuration's `include` globs name it, or when it names a Verdict JSON Schema (the YAML
 * language server's modeline, or a `$schema` key); anything else is skipped (and listed, for
 * `--debug`). A file named on the command line is linted whatever its name. Each file gets the
 * nearest configuration; all are linted with one shared regex cache.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseDocument, isMap, isScalar } from 'yaml';
import { nameFromBytes, POLICY_EXTENSIONS, readSourceFile } from '@verdict/compiler';
import type { CompileResult, LoadedText } from '@verdict/compiler';
import { printable } from '@verdict/engine';
import type { Diagnostic, HookAgent } from '@verdict/engine';
import { emptyConfig, findConfigFile, loadLintConfig } from './config.ts';
import { compileForLint, lintSource, unreadableFile } from './runner.ts';
import { RegexCache } from './support/regex-cache.ts';
import { globToRegExp, matchesAny } from './support/glob.ts';
import { allRules } from './rules/index.ts';
import type { FileResult, LintConfig, LintRun, Rule } from './types.ts';

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
  /** Folder that paths and globs are relative to; default `process.cwd()`. */
  cwd?: string;
  /** The rule catalogue (default: every rule). */
  rules?: readonly Rule[];
}

export { POLICY_EXTENSIONS };
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', '.hg', '.svn', '.tsbuild', 'dist', 'coverage']);

export function lintFiles(paths: readonly string[], options: LintFilesOptions = {}): LintRun {
  const cwd = resolve(options.cwd ?? process.cwd());
  const rules = options.rules ?? allRules;
  const diagnostics: Diagnostic[] = [];
  const configs = new Configs(cwd, rules, diagnostics, options);
  const files: FoundFile[] = [];
  const skipped: SkippedFile[] = [];
  const seen = new Set<string>();
  const add = (f: FoundFile): void => {
    if (!seen.has(f.abs)) {
      seen.add(f.abs);
      files.push(f);
    }
  };
  const skip = (abs: string, reason: string): void => {
    skipped.push({ file: printable(display(cwd, abs)), reason });
  };
  const driverOf = (f: FoundFile): string | undefined => {
    const config = f.config.config;
    return options.driver !== undefined ? resolveDriver(options.driver, cwd) : config.driver !== undefined ? resolveDriver(config.driver, f.config.base) : undefined;
  };
  // The compiler's reader, as every command reads: regular files only, bounded, strict UTF-8.
  const readFound = (f: FoundFile): LoadedText => readSourceFile(printable(display(cwd, f.abs)), f.path);
  const sniff = (f: FoundFile): boolean => {
    const read = readFound(f);
    f.read = read;
    if (read.text === undefined) return false;
    if (declaresVerdictSchema(read.text)) return true;
    if (!read.text.includes('$schema')) return false;
    f.compiled = compileForLint(read.text, printable(display(cwd, f.abs)), driverOf(f));
    return namesVerdictSchema(read.text, f.compiled);
  };

  for (const p of paths.length > 0 ? paths : ['.']) {
    const abs = resolve(cwd, p);
    let isDir: boolean;
    try {
      isDir = statSync(abs).isDirectory();
    } catch {
      const d: Diagnostic = { code: 'lint/path-not-found', severity: 'error', message: `no such file or folder \`${printable(p)}\`` };
      if (p.includes('\ufffd')) d.help = NOT_UTF8_ARGUMENT;
      diagnostics.push(d);
      continue;
    }
    if (!isDir) {
      // A file named explicitly is linted whatever its name or content, unless ignored.
      const c = configs.forFile(abs);
      const ignoredBy = c.ignoredBy(abs);
      if (ignoredBy === undefined) add({ abs, path: abs, config: c });
      else skip(abs, ignoredBy);
      continue;
    }
    for (const f of walkFolder(abs, abs)) {
      if (CONFIG_NAMES.has(basename(f.abs)) || configs.isConfigFile(f.abs)) continue;
      const c = configs.forFile(f.abs);
      const found: FoundFile = { ...f, config: c };
      // A file sniffed for a `$schema` is read and compiled once: linting reuses both.
      const why = c.ignoredBy(f.abs) ?? c.notPolicy(f, () => sniff(found));
      if (why === undefined) add(found);
      else skip(f.abs, why);
    }
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
          ? `check \`include\` and \`ignore\` in \`${printable(display(cwd, narrowing))}\`, or name the files to lint`
          : 'name the files to lint, give them a policy name (`*.verdict`, `*.policy.yaml`, `verdict.yaml`), start them with a `# yaml-language-server: $schema=` line naming a Verdict schema, or list them under `include` in `verdict.config.yaml`',
    });
  }

  const regexes = new RegexCache();
  const results: FileResult[] = [];
  for (const f of files) {
    const config = f.config.config;
    const driver = driverOf(f);
    const shown = printable(display(cwd, f.abs));
    const read = f.read ?? readFound(f);
    if (read.text === undefined) {
      results.push(unreadableFile(shown, read.diagnostics, { config, rules }));
      continue;
    }
    results.push(
      lintSource(read.text, shown, {
        config,
        rules,
        regexes,
        ...(driver !== undefined ? { driver } : {}),
        ...(options.hookAgent !== undefined ? { hookAgent: options.hookAgent } : {}),
        ...(f.compiled !== undefined ? { compiled: f.compiled } : {}),
      }),
    );
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

/** A driver named by a path is relative to `base`; a built-in name is kept. */
function resolveDriver(driver: string, base: string): string {
  return /[/\\]|\.(json|ya?ml)$/i.test(driver) && !isAbsolute(driver) ? resolve(base, driver) : driver;
}

/** A file a folder held that is not linted, and why (`--debug` prints them). */
export interface SkippedFile {
  file: string;
  reason: string;
}

/**
 * A file is a policy by its name: `*.verdict`, `*.policy.yaml` (`.yml`, `.json`), or
 * `verdict.yaml` (`.yml`, `.json`).
 */
export function hasPolicyName(name: string): boolean {
  return POLICY_NAME.test(name);
}
const POLICY_NAME = /(?:\.verdict|\.policy\.(?:ya?ml|json)|^verdict\.(?:ya?ml|json))$/i;

/**
 * A file says it is a policy when it names a Verdict JSON Schema: the YAML language server's
 * modeline (`# yaml-language-server: $schema=…verdict…`), or a top-level `$schema` key (JSON or
 * YAML) whose value names one.
 */
export function carriesVerdictSchema(text: string): boolean {
  return declaresVerdictSchema(text) || (text.includes('$schema') && namesVerdictSchema(text, undefined));
}

/** The YAML language server's modeline names a Verdict schema. */
function declaresVerdictSchema(text: string): boolean {
  for (const m of text.matchAll(/^[ \t]*#[ \t]*yaml-language-server[ \t]*:[ \t]*\$schema=(\S+)/gm)) {
    if (VERDICT_SCHEMA.test(m[1] ?? '')) return true;
  }
  return false;
}

/**
 * A top-level `$schema` key names a Verdict schema: read from the compiler's parse of the file when
 * it read a document, else (no compilation, or one that stopped before reading a document) here.
 */
function namesVerdictSchema(text: string, compiled: CompileResult | undefined): boolean {
  if (compiled?.schemas !== undefined) return compiled.schemas.some((s) => VERDICT_SCHEMA.test(s));
  try {
    const doc = parseDocument(text, { uniqueKeys: false });
    const root = doc.contents;
    if (!isMap(root)) return false;
    return root.items.some((p) => isScalar(p.key) && p.key.value === '$schema' && isScalar(p.value) && typeof p.value.value === 'string' && VERDICT_SCHEMA.test(p.value.value));
  } catch {
    return false;
  }
}
/** A schema address or path that names Verdict (`https://verdict.dev/schemas/…`, `node_modules/@verdict/compiler/schemas/…`). */
const VERDICT_SCHEMA = /verdict/i;

/** The configuration that applies to one folder, with its globs compiled. */
class FolderConfig {
  readonly include: RegExp[];
  readonly ignore: RegExp[];
  constructor(
    readonly config: LintConfig,
    /** The folder the globs (and a driver path) are relative to. */
    readonly base: string,
  ) {
    this.include = config.include.map(globToRegExp);
    this.ignore = config.ignore.map(globToRegExp);
  }
  private rel(abs: string): string {
    const r = relative(this.base, abs);
    return sep === '\\' ? r.replace(/\\/g, '/') : r;
  }
  private where(): string {
    return this.config.file !== undefined ? ` of \`${printable(this.config.file)}\`` : '';
  }
  /** Why the configuration's `ignore` leaves `abs` out, or `undefined`. */
  ignoredBy(abs: string): string | undefined {
    const rel = this.rel(abs);
    const i = this.ignore.findIndex((g) => matchesAny(rel, [g]));
    return i < 0 ? undefined : `matched by \`ignore\` glob \`${printable(this.config.ignore[i] ?? '')}\`${this.where()}`;
  }
  /** Why a file found in a folder is not a policy, or `undefined` when it is one (`sniff` reads its content). */
  notPolicy(f: { abs: string }, sniff: () => boolean): string | undefined {
    if (this.include.length > 0) {
      return matchesAny(this.rel(f.abs), this.include) ? undefined : `not matched by \`include\`${this.where()}`;
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
    cwd: string,
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
      const loaded = loadLintConfig(file, this.rules.map((r) => r.id));
      for (const d of loaded.diagnostics) this.diagnostics.push(d);
      c = new FolderConfig(loaded.config, base);
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

const CONFIG_NAMES = new Set(['verdict.config.yaml', 'verdict.config.yml']);

const NOT_UTF8_ARGUMENT =
  'the name holds `\ufffd`, which is how a byte that is not UTF-8 reads on the command line: such a file cannot be named in an argument, but it is found when its folder is given';

/** A file found on disk: `abs` names it in messages and globs, `path` opens it (bytes when the name is not UTF-8). */
interface FoundFile {
  abs: string;
  path: string | Buffer;
  config: FolderConfig;
  /** Read (and compiled) while deciding whether it is a policy: linting reuses them. */
  read?: LoadedText;
  compiled?: CompileResult;
}

/**
 * A path for messages: relative to `cwd` when inside it, else absolute; `/` as the separator. On
 * POSIX a `\` is part of a name, not a separator, and is kept.
 */
function display(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  const shown = rel === '' || rel.startsWith('..') || isAbsolute(rel) ? abs : rel;
  return sep === '\\' ? shown.replace(/\\/g, '/') : shown;
}

/** Policy files under a folder, sorted by name. Names are listed as bytes, so none is lost to decoding. */
function* walkFolder(dir: string, path: string | Buffer): Generator<{ abs: string; path: string | Buffer }> {
  let entries: import('node:fs').Dirent<Buffer>[];
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
      if (SKIPPED_FOLDERS.has(name) || name.startsWith('.')) continue;
      yield* walkFolder(abs, p);
    } else if (!e.isSymbolicLink() && (POLICY_EXTENSIONS as readonly string[]).includes(extname(name).toLowerCase())) {
      // Regular files, and FIFOs and devices too: the reader refuses those with a diagnostic
      // instead of the walk passing over them without a word.
      yield { abs, path: p };
    }
  }
}
