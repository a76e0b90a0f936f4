/**
 * Cursor CLI `.cursor/cli.json` and `cli-config.json`: `permissions.allow/deny` rules
 * (`Shell(commandBase[:args])`, `Read(glob)`, `Write(glob)`, `WebFetch(domain)`, `Mcp(server:tool)`)
 * with their spans, and every key as written.
 */
import type { Diagnostic, Span } from '@verdict/engine';
import { parseClaudeRule } from './claude.ts';
import { readJson } from './json.ts';
import { readPermissions } from './permissions.ts';
import type { LocatedKey, NativeFileBase } from './types.ts';

export type CursorList = 'allow' | 'deny';

/** The rule types Cursor's reference documents. */
export const CURSOR_RULE_TYPES: readonly string[] = ['Shell', 'Read', 'Write', 'WebFetch', 'Mcp'];

export interface CursorRule {
  list: CursorList;
  text: string;
  span: Span;
  index: number;
  /** `Shell`, `Read`… as written. */
  type: string;
  /** The text inside the parentheses. */
  argument?: string;
  malformed?: string;
}

export interface CursorCliFile extends NativeFileBase {
  format: 'cursor-cli';
  agent: 'cursor';
  rules: CursorRule[];
  topLevelKeys: LocatedKey[];
  permissionKeys?: LocatedKey[];
}

export function readCursorCli(file: string, text: string): CursorCliFile {
  const diagnostics: Diagnostic[] = [];
  const { root } = readJson(file, text, diagnostics, { comments: true });
  const out: CursorCliFile = { format: 'cursor-cli', agent: 'cursor', file, text, diagnostics, complete: root !== undefined, rules: [], topLevelKeys: [] };
  if (root === undefined) return out;
  readPermissions(root, out, 'a Cursor CLI configuration', ['allow', 'deny'] as const, (list, item) => {
    const parts = parseClaudeRule(item.value);
    const rule: CursorRule = { list, text: item.value, span: item.span, index: item.index, type: parts.tool };
    if (parts.specifier !== undefined) rule.argument = parts.specifier;
    if (parts.malformed !== undefined) rule.malformed = parts.malformed;
    out.rules.push(rule);
  });
  return out;
}
