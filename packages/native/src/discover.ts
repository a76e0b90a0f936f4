/**
 * Which native format a file is, by its path (the agents find these files by name, and so does
 * Verdict), and the one entry point that reads any of them.
 */
import { readSourceFile } from '@verdict/compiler';
import { lstatSync } from 'node:fs';
import { AGENT_CATALOGUES, type Diagnostic, HOOK_AGENTS } from '@verdict/engine';
import { readClaudeSettings } from './claude.ts';
import type { ClaudeSettingsFile } from './claude.ts';
import { readCodexRequirements } from './codex-requirements.ts';
import type { CodexRequirementsFile } from './codex-requirements.ts';
import { readCodexRules } from './codex-rules.ts';
import type { CodexRulesFile } from './codex-rules.ts';
import { readCursorCli } from './cursor.ts';
import type { CursorCliFile } from './cursor.ts';
import { readGeminiPolicy } from './gemini-policy.ts';
import type { GeminiPolicyFile } from './gemini-policy.ts';
import { readGeminiSettings } from './gemini-settings.ts';
import type { GeminiSettingsFile } from './gemini-settings.ts';
import { FORMAT_AGENT } from './types.ts';
import type { NativeFormat } from './types.ts';

export type NativeFile = ClaudeSettingsFile | CodexRulesFile | CodexRequirementsFile | GeminiPolicyFile | GeminiSettingsFile | CursorCliFile;

/** The path's parts, `/` and `\` alike. */
function parts(path: string): string[] {
  return path.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
}

/** The dot folders where the agents keep these files (a folder walk enters them for these files only). */
export const NATIVE_FOLDERS: readonly string[] = [...HOOK_AGENTS.map((a) => AGENT_CATALOGUES[a].settings.folder), '.config'];

const isAgentDir = (dir: string | undefined, agent: string): boolean => dir !== undefined && (dir === `.${agent}` || dir === agent);

/**
 * The native format a path names, by the names the agents look for: `.claude/settings.json`,
 * `.claude/settings.local.json`, `managed-settings.json`; `.codex/rules/*.rules`,
 * `.codex/requirements.toml`; `.gemini/policies/*.toml`, `.gemini/settings.json`;
 * `.cursor/cli.json`, `cli-config.json`. With `explicit` (a file named on the command line), a
 * `*.rules` file anywhere is read as Codex rules and a `*.toml` in a `policies` folder as Gemini policy.
 */
export function nativeFormatOf(path: string, options: { explicit?: boolean } = {}): NativeFormat | undefined {
  const p = parts(path);
  const name = p[p.length - 1];
  const dir = p[p.length - 2];
  const up = p[p.length - 3];
  if (name === undefined) return undefined;
  if (name === 'managed-settings.json') return 'claude-settings';
  if ((name === 'settings.json' || name === 'settings.local.json') && isAgentDir(dir, 'claude')) return 'claude-settings';
  if (name.endsWith('.rules') && name.length > 6) {
    if (dir === 'rules' && isAgentDir(up, 'codex')) return 'codex-rules';
    if (options.explicit === true) return 'codex-rules';
  }
  if (name === 'requirements.toml' && (isAgentDir(dir, 'codex') || (options.explicit === true && p.some((x) => isAgentDir(x, 'codex'))))) return 'codex-requirements';
  if (name.endsWith('.toml') && dir === 'policies') {
    if (isAgentDir(up, 'gemini') || up === 'gemini-cli' || options.explicit === true) return 'gemini-policy';
  }
  if (name === 'settings.json' && isAgentDir(dir, 'gemini')) return 'gemini-settings';
  if (name === 'cli.json' && dir === '.cursor') return 'cursor-cli';
  if (name === 'cli-config.json' && isAgentDir(dir, 'cursor')) return 'cursor-cli';
  return undefined;
}

/** Reads a native file's text as its format. */
export function readNative(file: string, text: string, format: NativeFormat): NativeFile {
  switch (format) {
    case 'claude-settings':
      return readClaudeSettings(file, text);
    case 'codex-rules':
      return readCodexRules(file, text);
    case 'codex-requirements':
      return readCodexRequirements(file, text);
    case 'gemini-policy':
      return readGeminiPolicy(file, text);
    case 'gemini-settings':
      return readGeminiSettings(file, text);
    case 'cursor-cli':
      return readCursorCli(file, text);
  }
}

export interface ReadNativeFileOptions {
  /** What is opened, when not `file` (the name diagnostics show). */
  path?: string;
  format?: NativeFormat;
}

/**
 * Reads a native file from disk through the compiler's one bounded reader; a file that cannot be
 * read yields an empty result holding the loader's error. `symlink` is set when the path is a
 * symbolic link (Codex and Gemini CLI skip symlinked rule files).
 */
export function readNativeFile(file: string, options: ReadNativeFileOptions = {}): (NativeFile & { symlink?: boolean }) | { format?: undefined; file: string; diagnostics: Diagnostic[] } {
  const path = options.path ?? file;
  const format = options.format ?? nativeFormatOf(path, { explicit: true });
  if (format === undefined) {
    return { file, diagnostics: [{ code: 'native/unknown-format', severity: 'error', message: `\`${file}\` is not a permission file Verdict knows by its name`, span: { file, start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } } }] };
  }
  let symlink = false;
  try {
    symlink = lstatSync(path).isSymbolicLink();
  } catch {
    // The reader reports a missing file.
  }
  const loaded = readSourceFile(file, path);
  const read: NativeFile & { symlink?: boolean } =
    loaded.text === undefined ? emptyOf(file, format, loaded.diagnostics) : readNative(file, loaded.text, format);
  if (symlink) read.symlink = true;
  return read;
}

function emptyOf(file: string, format: NativeFormat, diagnostics: Diagnostic[]): NativeFile {
  const r = readNative(file, '', format);
  r.diagnostics = diagnostics;
  r.complete = false;
  delete r.text;
  void FORMAT_AGENT;
  return r;
}
