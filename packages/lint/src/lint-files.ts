/**
 * `lintFiles`: the CLI's entry point. Expands folders into policy files (by extension, then by
 * content: YAML and JSON files without any policy key are skipped), applies the configuration's
 * include and ignore globs, and lints each file with one shared regex cache.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseDocument, isMap, isScalar } from 'yaml';
import { nameFromBytes, readSourceFile } from '@verdict/compiler';
import { printable } from '@verdict/engine';
import type { Diagnostic, HookAgent } from '@verdict/engine';
import { emptyConfig, findConfigFile, loadLintConfig } from './config.ts';
import { lintSource, unreadableFile } from './runner.ts';
import { RegexCache } from './support/regex-cache.ts';
import { globToRegExp, matchesAny } from './support/glob.ts';
import { allRules } from './rules/index.ts';
import type { FileResult, LintConfig, LintRun, Rule } from './types.ts';

export interface LintFilesOptions {
  /** Driver override: a built-in name or a descriptor path (relative to `cwd`). */
  driver?: string;
  /** The agent whose hook runs the policies (overrides the configuration's `hook-agent`). */
  hookAgent?: HookAgent;
  /** Configuration file; default: `verdict.config.yaml` (or `.yml`) in `cwd`, if present. */
  configPath?: string;
  /** An already loaded configuration (takes precedence over `configPath`). */
  config?: LintConfig;
  /** Folder that paths and globs are relative to; default `process.cwd()`. */
  cwd?: string;
  /** The rule catalogue (default: every rule). */
  rules?: readonly Rule[];
}

export const POLICY_EXTENSIONS = ['.yaml', '.yml', '.json', '.verdict'] as const;
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', '.hg', '.svn', '.tsbuild', 'dist', 'coverage']);
/** Top-level keys of a policy file (an approver block alone, or a whole policy file). */
const POLICY_KEYS = new Set(['approver', 'policy', 'agent', 'driver', 'mode', 'allow', 'deny', 'ask']);

export function lintFiles(paths: readonly string[], options: LintFilesOptions = {}): LintRun {
  const cwd = resolve(options.cwd ?? process.cwd());
  const rules = options.rules ?? allRules;
  const diagnostics: Diagnostic[] = [];
  let config: LintConfig = options.config ?? emptyConfig();
  if (options.config === undefined) {
    const configFile = options.configPath !== undefined ? resolve(cwd, options.configPath) : findConfigFile(cwd);
    if (configFile !== undefined) {
      const loaded = loadLintConfig(configFile, rules.map((r) => r.id));
      config = loaded.config;
      for (const d of loaded.diagnostics) diagnostics.push(d);
    }
  }
  let driver = options.driver ?? config.driver;
  if (driver !== undefined && /[/\\]|\.(json|ya?ml)$/i.test(driver) && !isAbsolute(driver)) driver = resolve(cwd, driver);

  const include = config.include.map(globToRegExp);
  const ignore = config.ignore.map(globToRegExp);
  const configFile = config.file !== undefined ? resolve(config.file) : undefined;
  const files: FoundFile[] = [];
  const seen = new Set<string>();
  const add = (f: FoundFile): void => {
    if (!seen.has(f.abs)) {
      seen.add(f.abs);
      files.push(f);
    }
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
      if (!matchesAny(display(cwd, abs), ignore)) add({ abs, path: abs });
      continue;
    }
    for (const f of walkFolder(abs, abs)) {
      const rel = display(cwd, f.abs);
      if (f.abs === configFile || CONFIG_NAMES.has(basename(f.abs))) continue;
      if (matchesAny(rel, ignore)) continue;
      if (include.length > 0 && !matchesAny(rel, include)) continue;
      if (!looksLikePolicy(f.abs, f.path)) continue;
      add(f);
    }
  }

  // Nothing to lint is a failed run, not a clean one: a typo in `include` or a wrong path would
  // otherwise turn the CI lint into a silent no-op.
  if (files.length === 0 && !diagnostics.some((d) => d.severity === 'error')) {
    const where = (paths.length > 0 ? paths : ['.']).map((p) => `\`${printable(p)}\``).join(', ');
    diagnostics.push({
      code: 'lint/no-files',
      severity: 'error',
      message: `no policy files found in ${where}`,
      help:
        config.file !== undefined && (config.include.length > 0 || config.ignore.length > 0)
          ? `check \`include\` and \`ignore\` in \`${printable(config.file)}\`, or name the files to lint`
          : 'name the files to lint, or give them a policy name (`*.verdict`, `*.policy.yaml`, `verdict.yaml`) or a top-level `approver:`/`policy:` key',
    });
  }

  const regexes = new RegexCache();
  const results: FileResult[] = [];
  for (const f of files) {
    // The compiler's reader, as every command reads: regular files only, bounded, strict UTF-8.
    const shown = printable(display(cwd, f.abs));
    const read = readSourceFile(shown, f.path);
    if (read.text === undefined) {
      results.push(unreadableFile(shown, read.diagnostics, { config, rules }));
      continue;
    }
    results.push(
      lintSource(read.text, shown, { config, rules, regexes, ...(driver !== undefined ? { driver } : {}), ...(options.hookAgent !== undefined ? { hookAgent: options.hookAgent } : {}) }),
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
    rules,
    cwd,
  };
}

const CONFIG_NAMES = new Set(['verdict.config.yaml', 'verdict.config.yml']);

const NOT_UTF8_ARGUMENT =
  'the name holds `\ufffd`, which is how a byte that is not UTF-8 reads on the command line: such a file cannot be named in an argument, but it is found when its folder is given';

/** A file found on disk: `abs` names it in messages and globs, `path` opens it (bytes when the name is not UTF-8). */
interface FoundFile {
  abs: string;
  path: string | Buffer;
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
function* walkFolder(dir: string, path: string | Buffer): Generator<FoundFile> {
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

/**
 * `.verdict` files always; YAML and JSON files with at least one policy key at the top level. A
 * file that cannot be read (too large, not UTF-8) counts as a policy, so its error is reported.
 */
export function looksLikePolicy(file: string, path: string | Uint8Array = file): boolean {
  const ext = extname(file).toLowerCase();
  if (ext === '.verdict') return true;
  const read = readSourceFile(file, path);
  if (read.text === undefined) return true; // reported when read again
  return textLooksLikePolicy(read.text);
}

export function textLooksLikePolicy(text: string): boolean {
  if (startsWithPolicyKey(text)) return true;
  try {
    const doc = parseDocument(text, { uniqueKeys: false });
    if (doc.errors.length === 0) {
      const root = doc.contents;
      if (!isMap(root)) return false;
      return root.items.some((p) => isScalar(p.key) && POLICY_KEYS.has(String(p.key.value)));
    }
  } catch {
    // fall through to the textual check
  }
  // Broken files are linted when they mention a policy key at the top level, so the error shows.
  return /^(?:\s*\{\s*)?["']?(approver|policy|agent|driver|mode)["']?\s*:/m.test(text);
}

/**
 * A shortcut that gives the same answer as parsing: the first line that is not blank or a comment
 * starts, at column 0, with a policy key the textual check knows (plain, or the first key of a JSON
 * object). Such a line makes the document a mapping with that key, and if the document does not
 * parse, the textual check matches that line.
 */
function startsWithPolicyKey(text: string): boolean {
  let i = 0;
  for (;;) {
    const nl = text.indexOf('\n', i);
    const line = text.slice(i, nl < 0 ? text.length : nl);
    if (!/^[ \t]*(?:#.*)?\r?$/.test(line)) {
      if (POLICY_KEY_LINE.test(line)) return true;
      if (PLAIN_KEY_LINE.test(line) && !RISKY.test(line)) return laterPolicyKey(text, nl);
      return /^\{\s*"(?:approver|policy|agent|driver|mode)"\s*:/.test(text.slice(i, i + 256));
    }
    if (nl < 0) return false;
    i = nl + 1;
  }
}

const POLICY_KEY_LINE = /^(?:approver|policy|agent|driver|mode)[ \t]*:(?:[ \t]|\r?$)/;
const PLAIN_KEY_LINE = /^[A-Za-z_][A-Za-z0-9_-]*[ \t]*:(?:[ \t]|\r?$)/;
/**
 * Characters that may start a construct spanning lines (quotes, flow collections, block
 * scalars) or other syntax this scan does not model; a line with any of them ends the scan.
 */
const RISKY = /["'`[\]{}|>&*!%@?\t]/;

/**
 * The document starts with a plain key at column 0 (a block mapping at indent 0): a later line
 * that starts at column 0 with a policy key the textual check knows is then a key of that
 * mapping, as long as no earlier line can carry content over lines (checked conservatively). If
 * the document does not parse, the textual check matches that line. `false` means "parse".
 */
function laterPolicyKey(text: string, nl: number): boolean {
  let i = nl + 1;
  while (nl >= 0 && i < text.length) {
    nl = text.indexOf('\n', i);
    const line = text.slice(i, nl < 0 ? text.length : nl);
    i = nl + 1;
    if (/^[ \t]*(?:#.*)?\r?$/.test(line)) continue;
    if (POLICY_KEY_LINE.test(line)) return true;
    if (RISKY.test(line) || line.startsWith('---') || line.startsWith('...')) return false;
  }
  return false;
}
