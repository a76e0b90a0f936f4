/**
 * Claude Code `settings.json`, `settings.local.json` and managed settings: every rule of
 * `permissions.allow/ask/deny` with its span and its parts (`Tool`, `Tool(specifier)`), the mode,
 * the additional directories, and every key as written (top level and under `permissions`).
 */
import type { Diagnostic, Span } from '@verdict/engine';
import type { JMap } from '@verdict/compiler';
import { fileStart, member, memberKey, readJson, stringItems } from './json.ts';
import { readPermissions } from './permissions.ts';
import type { Located, LocatedKey, NativeFileBase } from './types.ts';

export type ClaudeList = 'allow' | 'ask' | 'deny';
export type ClaudeScope = 'managed' | 'local' | 'project' | 'user';

export const CLAUDE_LISTS: readonly ClaudeList[] = ['deny', 'ask', 'allow'];

/** The keys Claude Code reads under `permissions`. */
export const CLAUDE_PERMISSION_KEYS: readonly string[] = [
  'allow',
  'ask',
  'deny',
  'defaultMode',
  'additionalDirectories',
  'disableBypassPermissionsMode',
  'disableAutoMode',
  'allowManagedPermissionRulesOnly',
];

export const CLAUDE_MODES: readonly string[] = ['default', 'manual', 'acceptEdits', 'plan', 'auto', 'dontAsk', 'bypassPermissions'];

/** A rule's parts: `Bash(git status:*)` is tool `Bash`, specifier `git status:*`. */
export interface ClaudeRuleParts {
  tool: string;
  /** The text between the parentheses; absent for a bare tool name. */
  specifier?: string;
  /** Why the text is no rule (unbalanced parentheses, text after `)`, empty). */
  malformed?: string;
}

export interface ClaudeRule extends ClaudeRuleParts {
  list: ClaudeList;
  /** The rule as written. */
  text: string;
  span: Span;
  /** Index in its list. */
  index: number;
}

export interface ClaudeSettingsFile extends NativeFileBase {
  format: 'claude-settings';
  agent: 'claude';
  scope: ClaudeScope;
  rules: ClaudeRule[];
  defaultMode?: Located<string>;
  additionalDirectories: Located<string>[];
  topLevelKeys: LocatedKey[];
  /** The keys under `permissions` (absent when there is no `permissions` object). */
  permissionKeys?: LocatedKey[];
  permissionsSpan?: Span;
}

/** Splits `Tool(specifier)`; the specifier is everything between the first `(` and the final `)`. */
export function parseClaudeRule(text: string): ClaudeRuleParts {
  const t = text.trim();
  const open = t.indexOf('(');
  if (t === '') return { tool: '', malformed: 'the rule is empty' };
  if (open < 0) {
    if (t.includes(')')) return { tool: t, malformed: 'a `)` without `(`' };
    return { tool: t };
  }
  const tool = t.slice(0, open);
  if (!t.endsWith(')')) return { tool, specifier: t.slice(open + 1), malformed: 'the `(` is not closed by a final `)`' };
  return { tool, specifier: t.slice(open + 1, -1) };
}

/** The scope a settings file's name says (managed and local by name; any other `settings.json` is read as the project's). */
export function claudeScopeOf(path: string): ClaudeScope {
  const name = path.split(/[\\/]/).pop() ?? path;
  if (name === 'managed-settings.json' || /managed-settings\.d[\\/]/.test(path)) return 'managed';
  if (name === 'settings.local.json') return 'local';
  return 'project';
}

export function readClaudeSettings(file: string, text: string, options: { scope?: ClaudeScope } = {}): ClaudeSettingsFile {
  const diagnostics: Diagnostic[] = [];
  const { root, index } = readJson(file, text, diagnostics);
  const out: ClaudeSettingsFile = {
    format: 'claude-settings',
    agent: 'claude',
    file,
    text,
    diagnostics,
    complete: root !== undefined,
    scope: options.scope ?? claudeScopeOf(file),
    rules: [],
    additionalDirectories: [],
    topLevelKeys: [],
  };
  if (root === undefined) return out;
  const perms = readPermissions(root, out, 'a settings file', ['allow', 'ask', 'deny'] as const, (list, item) => {
    out.rules.push({ list, text: item.value, span: item.span, index: item.index, ...parseClaudeRule(item.value) });
  });
  if (perms === undefined) return out;
  out.permissionsSpan = memberKey(root as JMap, 'permissions') ?? fileStart(file, index);
  const mode = member(perms, 'defaultMode');
  if (mode !== undefined && mode.kind === 'scalar' && typeof mode.value === 'string') out.defaultMode = { value: mode.value, span: mode.span };
  const dirs = member(perms, 'additionalDirectories');
  if (dirs !== undefined) for (const d of stringItems(dirs, 'permissions.additionalDirectories', diagnostics)) out.additionalDirectories.push({ value: d.value, span: d.span });
  return out;
}
