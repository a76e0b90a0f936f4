/**
 * Gemini CLI `settings.json` (JSON with comments): the tool lists that become policy rules
 * (`tools.core`, `tools.allowed`, `tools.exclude`, `tools.confirmationRequired`, `mcp.allowed`,
 * `mcp.excluded`, and the legacy `coreTools`, `allowedTools`, `excludeTools`), each entry located
 * and split into its tool and argument (`run_shell_command(git status)`).
 */
import type { Diagnostic, Span } from '@verdict/engine';
import { parseClaudeRule } from './claude.ts';
import { diag, keysOf, member, readJson, stringItems } from './json.ts';
import type { LocatedKey, NativeFileBase } from './types.ts';

export type GeminiToolSetting =
  | 'tools.core'
  | 'tools.allowed'
  | 'tools.exclude'
  | 'tools.confirmationRequired'
  | 'mcp.allowed'
  | 'mcp.excluded'
  | 'coreTools'
  | 'allowedTools'
  | 'excludeTools';

export interface GeminiToolEntry {
  setting: GeminiToolSetting;
  text: string;
  span: Span;
  /** The tool name (`run_shell_command` for `run_shell_command(git)`). */
  tool: string;
  /** The text in parentheses (`git`). */
  argument?: string;
}

export interface GeminiSettingsFile extends NativeFileBase {
  format: 'gemini-settings';
  agent: 'gemini';
  entries: GeminiToolEntry[];
  topLevelKeys: LocatedKey[];
  toolsKeys?: LocatedKey[];
}

const SETTINGS: readonly [GeminiToolSetting, readonly string[]][] = [
  ['tools.core', ['tools', 'core']],
  ['tools.allowed', ['tools', 'allowed']],
  ['tools.exclude', ['tools', 'exclude']],
  ['tools.confirmationRequired', ['tools', 'confirmationRequired']],
  ['mcp.allowed', ['mcp', 'allowed']],
  ['mcp.excluded', ['mcp', 'excluded']],
  ['coreTools', ['coreTools']],
  ['allowedTools', ['allowedTools']],
  ['excludeTools', ['excludeTools']],
];

export function readGeminiSettings(file: string, text: string): GeminiSettingsFile {
  const diagnostics: Diagnostic[] = [];
  const { root } = readJson(file, text, diagnostics, { comments: true });
  const out: GeminiSettingsFile = { format: 'gemini-settings', agent: 'gemini', file, text, diagnostics, complete: root !== undefined, entries: [], topLevelKeys: [] };
  if (root === undefined) return out;
  if (root.kind !== 'map') {
    diagnostics.push(diag('native/type', 'error', 'a Gemini CLI settings file is a JSON object', root.span));
    out.complete = false;
    return out;
  }
  out.topLevelKeys = keysOf(root);
  const tools = member(root, 'tools');
  if (tools?.kind === 'map') out.toolsKeys = keysOf(tools);
  for (const [setting, path] of SETTINGS) {
    let node = member(root, path[0] as string);
    if (path.length === 2) node = node?.kind === 'map' ? member(node, path[1] as string) : undefined;
    if (node === undefined) continue;
    for (const item of stringItems(node, setting, diagnostics)) {
      const parts = parseClaudeRule(item.value);
      const e: GeminiToolEntry = { setting, text: item.value, span: item.span, tool: parts.tool };
      if (parts.specifier !== undefined) e.argument = parts.specifier;
      out.entries.push(e);
    }
  }
  return out;
}
