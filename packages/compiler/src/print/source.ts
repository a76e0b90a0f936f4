/**
 * `verdict fmt` for YAML and JSON files: the file's own document, laid out again, never re-built from
 * the IR. A policy file is often a whole agent configuration with comments, anchors and keys that are
 * not ours; printing it from the IR would drop all of them. So YAML is re-printed through yaml's
 * document model (comments, key order, anchors, tags and every other key stay; the rules of the
 * approver's lists and the inline tests take the one-line flow layout where they hold no comment), and
 * JSON only has its white space changed. Each result is checked against its source before it is
 * returned: the same tree of values, the same comments, anchors, tags and document markers (or, for
 * JSON, the same tokens). A layout that would lose anything is refused with a diagnostic, never written.
 */
import { CST, isMap, isScalar, isSeq, Lexer, parseDocument, visit } from 'yaml';
import type { Node as YamlNode, Scalar, YAMLMap } from 'yaml';
import { type Diagnostic, RULE_LISTS } from '@verdict/engine';
import type { JNode } from '../tree.ts';
import type { FormatResult } from './format.ts';

/** The rule lists of an approver block: their items are laid out one rule a line. */
const RULE_LIST_KEYS: ReadonlySet<string> = new Set(RULE_LISTS);
const APPROVER_KEYS: ReadonlySet<string> = new Set(['mode', 'default', 'reason', 'input', ...RULE_LISTS]);

/** Token kinds of yaml's lexer that a layout must keep, with their text. */
const KEPT_TOKENS = new Set(['comment', 'anchor', 'tag', 'alias', 'directive-line', 'doc-start', 'doc-end']);

function lossDiagnostic(message: string): Diagnostic {
  return {
    code: 'fmt/lossy',
    severity: 'error',
    message,
    help: 'the file is left as it is; please report this layout as a bug',
  };
}

/** The comments, anchors, tags, aliases and document markers of a YAML (or JSON) text, with their text, sorted. */
export function keptTokens(text: string): string[] {
  const out: string[] = [];
  for (const token of new Lexer().lex(text)) {
    const kind = CST.tokenType(token);
    if (kind && KEPT_TOKENS.has(kind)) out.push(`${kind} ${token.trimEnd()}`);
  }
  return out.sort();
}

/** How many comments the YAML (or JSON) text holds. */
export function commentTokens(text: string): number {
  let n = 0;
  for (const token of new Lexer().lex(text)) if (CST.tokenType(token) === 'comment') n++;
  return n;
}

function hasComment(node: YAMLMap): boolean {
  if (node.commentBefore || node.comment) return true;
  for (const pair of node.items) {
    for (const part of [pair.key, pair.value] as unknown[]) {
      if (part && typeof part === 'object' && ('commentBefore' in part || 'comment' in part)) {
        const n = part as { commentBefore?: string | null; comment?: string | null };
        if (n.commentBefore || n.comment) return true;
      }
      if (isMap(part) || isSeq(part)) {
        // A nested collection keeps its own layout; one with a comment inside cannot go on one line.
        let inner = false;
        visit(part, {
          Node(_, n) {
            const c = n as { commentBefore?: string | null; comment?: string | null };
            if (c.commentBefore || c.comment) inner = true;
          },
        });
        if (inner) return true;
      }
    }
  }
  return false;
}

function keyName(node: unknown): string | undefined {
  return isScalar(node) && typeof node.value === 'string' ? node.value : undefined;
}

/** Where the approver's keys live: the root (a bare approver), `approver:`, or `agent: approver:`. */
function approverMaps(root: unknown): YAMLMap[] {
  const out: YAMLMap[] = [];
  if (!isMap(root)) return out;
  if (root.items.some((p) => APPROVER_KEYS.has(keyName(p.key) ?? ''))) out.push(root);
  for (const pair of root.items) {
    const key = keyName(pair.key);
    if (key === 'approver' && isMap(pair.value)) out.push(pair.value);
    if (key === 'agent' && isMap(pair.value)) {
      for (const inner of pair.value.items) if (keyName(inner.key) === 'approver' && isMap(inner.value)) out.push(inner.value);
    }
  }
  return out;
}

/** One line per rule and per inline test, as `printYaml` writes them, where nothing would be lost. */
function oneLineItems(root: unknown): void {
  const lists: unknown[] = [];
  for (const block of approverMaps(root)) {
    for (const pair of block.items) if (RULE_LIST_KEYS.has(keyName(pair.key) ?? '')) lists.push(pair.value);
  }
  if (isMap(root)) for (const pair of root.items) if (keyName(pair.key) === 'tests') lists.push(pair.value);
  for (const list of lists) {
    if (!isSeq(list)) continue;
    for (const item of list.items) {
      if (isMap(item) && !item.anchor && !hasComment(item)) item.flow = true;
    }
  }
}

/** The values of a tree, without positions: what two layouts of one document must share. */
export function shape(node: JNode): unknown {
  if (node.kind === 'scalar') return node.value;
  if (node.kind === 'seq') return node.items.map(shape);
  return node.entries.map((e) => [e.key, shape(e.value)]);
}

export interface SourceFormatOptions {
  /** Parses a candidate layout the way the compiler reads the file (its tree of values, or nothing). */
  readTree: (text: string) => JNode | undefined;
}

/** The canonical layout of a YAML policy file, keeping everything in it. */
export function formatYamlSource(text: string, tree: JNode, options: SourceFormatOptions): FormatResult {
  const doc = parseDocument(text, { keepSourceTokens: false, uniqueKeys: false });
  if (doc.errors.length > 0) return { diagnostics: [lossDiagnostic('the file does not parse as one YAML document')] };
  oneLineItems(doc.contents);
  const out = doc.toString({ lineWidth: 0, minContentWidth: 0, flowCollectionPadding: false });
  return checked(out, tree, options, keptTokens(text).join('\n') === keptTokens(out).join('\n'));
}

/** JSON laid out with two-space indentation; objects and arrays that fit stay on one line. */
export function formatJsonSource(text: string, tree: JNode, options: SourceFormatOptions): FormatResult {
  const doc = parseDocument(text, { keepSourceTokens: true, uniqueKeys: false });
  if (doc.errors.length > 0) return { diagnostics: [lossDiagnostic('the file does not parse as JSON')] };
  const out = `${printJson(doc.contents as YamlNode | null, 0)}\n`;
  return checked(out, tree, options, withoutSpace(text) === withoutSpace(out));
}

function checked(out: string, tree: JNode, options: SourceFormatOptions, tokensKept: boolean): FormatResult {
  if (!tokensKept) {
    return { diagnostics: [lossDiagnostic('the new layout would lose a comment, anchor, tag or document marker')] };
  }
  const again = options.readTree(out);
  if (again === undefined || JSON.stringify(shape(again)) !== JSON.stringify(shape(tree))) {
    return { diagnostics: [lossDiagnostic('the new layout would change a value of the file')] };
  }
  return { text: out, diagnostics: [] };
}

const INLINE_WIDTH = 100;

/** A scalar exactly as written (JSON strings and numbers are never re-encoded). */
function scalarSource(node: Scalar): string {
  const token = node.srcToken as { source?: string } | undefined;
  if (token && typeof token.source === 'string') return token.source;
  return JSON.stringify(node.value);
}

function printJson(node: YamlNode | null, indent: number): string {
  if (node === null || node === undefined) return '';
  if (isScalar(node)) return scalarSource(node);
  // The document and its sections (`approver`, `policy`, `tests`) always open up; what is inside them
  // (a rule, a test, a list of rules) stays on one line when it fits.
  const inline = indent >= 4 ? jsonInline(node, INLINE_WIDTH - indent) : undefined;
  if (inline !== undefined) return inline;
  const pad = ' '.repeat(indent + 2);
  const close = ' '.repeat(indent);
  if (isMap(node)) {
    if (node.items.length === 0) return '{}';
    const lines = node.items.map((p) => `${pad}${scalarSource(p.key as Scalar)}: ${printJson(p.value as YamlNode, indent + 2)}`);
    return `{\n${lines.join(',\n')}\n${close}}`;
  }
  if (isSeq(node)) {
    if (node.items.length === 0) return '[]';
    const lines = node.items.map((item) => `${pad}${printJson(item as YamlNode, indent + 2)}`);
    return `[\n${lines.join(',\n')}\n${close}]`;
  }
  return '';
}

/** The one-line form of a node, or `undefined` once it is longer than `room` (so nothing long is built whole). */
function jsonInline(node: YamlNode, room = INLINE_WIDTH): string | undefined {
  if (isScalar(node)) {
    const text = scalarSource(node);
    return text.length <= room ? text : undefined;
  }
  const map = isMap(node);
  if (!map && !isSeq(node)) return undefined;
  let out = map ? '{' : '[';
  for (const item of node.items as unknown[]) {
    if (out.length > 1) out += ', ';
    if (map) {
      const pair = item as { key: Scalar; value: YamlNode };
      out += `${scalarSource(pair.key)}: `;
      const v = jsonInline(pair.value, room - out.length);
      if (v === undefined) return undefined;
      out += v;
    } else {
      const v = jsonInline(item as YamlNode, room - out.length);
      if (v === undefined) return undefined;
      out += v;
    }
    if (out.length > room) return undefined;
  }
  // Objects get a space inside their braces, as Prettier writes JSON; arrays do not.
  out = map ? (out === '{' ? '{}' : `{ ${out.slice(1)} }`) : `${out}]`;
  return out.length <= room ? out : undefined;
}

/** The text with JSON's insignificant white space removed (strings untouched): equal for two layouts of one file. */
function withoutSpace(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') {
      out += c;
    }
  }
  return out;
}
