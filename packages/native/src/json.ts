/**
 * JSON with positions for the native readers: the compiler's one located tree (`parseTree`), over
 * strict JSON, or JSON with comments (`//`, `/* *\/`, trailing commas) blanked first so offsets stay.
 */
import { LineIndex, parseTree, spanOf } from '@verdict/compiler';
import type { JMap, JNode } from '@verdict/compiler';
import type { Diagnostic, Span } from '@verdict/engine';
import type { LocatedKey } from './types.ts';

export interface LocatedJson {
  root?: JNode;
  index: LineIndex;
}

/** Comments and trailing commas replaced by spaces (strings kept), so a JSONC file parses as JSON at the same offsets. */
export function blankJsonComments(text: string): string {
  const out = text.split('');
  let i = 0;
  const n = text.length;
  let lastSignificant = -1;
  while (i < n) {
    const c = text[i];
    if (c === '"') {
      i++;
      while (i < n && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      lastSignificant = i;
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n' && text[i] !== '\r') out[i++] = ' ';
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      for (; i < stop; i++) if (text[i] !== '\n' && text[i] !== '\r') out[i] = ' ';
      continue;
    }
    if ((c === '}' || c === ']') && lastSignificant >= 0 && text[lastSignificant] === ',') out[lastSignificant] = ' ';
    if (c !== undefined && !/\s/.test(c)) lastSignificant = i;
    i++;
  }
  return out.join('');
}

export function readJson(file: string, text: string, diagnostics: Diagnostic[], options: { comments?: boolean } = {}): LocatedJson {
  const index = new LineIndex(text);
  const source = options.comments === true ? blankJsonComments(text) : text;
  const found: Diagnostic[] = [];
  const root = parseTree(file, source, index, 'json', found);
  for (const d of found) diagnostics.push(d.code.startsWith('json/') || d.code.startsWith('yaml/') ? { ...d, code: 'native/syntax' } : d);
  return root === undefined ? { index } : { root, index };
}

/** The plain value of a located node (maps keep the last of a repeated key, as JSON.parse does). */
export function plain(node: JNode): unknown {
  if (node.kind === 'scalar') return node.value;
  if (node.kind === 'seq') return node.items.map(plain);
  const o: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const e of node.entries) o[e.key] = plain(e.value);
  return o;
}

export function keysOf(map: JMap): LocatedKey[] {
  return map.entries.map((e) => ({ key: e.key, keySpan: e.keySpan, valueSpan: e.value.span, value: plain(e.value) }));
}

export function member(map: JMap, key: string): JNode | undefined {
  let found: JNode | undefined;
  for (const e of map.entries) if (e.key === key) found = e.value;
  return found;
}

export function memberKey(map: JMap, key: string): Span | undefined {
  let found: Span | undefined;
  for (const e of map.entries) if (e.key === key) found = e.keySpan;
  return found;
}

/** A diagnostic at a span. */
export function diag(code: string, severity: Diagnostic['severity'], message: string, span: Span | undefined, help?: string): Diagnostic {
  const d: Diagnostic = { code, severity, message };
  if (span !== undefined) d.span = span;
  if (help !== undefined) d.help = help;
  return d;
}

export function fileStart(file: string, index: LineIndex): Span {
  return spanOf(file, index, 0, 0);
}

/** The located strings of a list node; each non-string item reported as `native/type`. */
export function stringItems(node: JNode, what: string, diagnostics: Diagnostic[]): { value: string; span: Span; index: number }[] {
  if (node.kind !== 'seq') {
    diagnostics.push(diag('native/type', 'warning', `\`${what}\` is not a list of strings; it is not read`, node.span));
    return [];
  }
  const out: { value: string; span: Span; index: number }[] = [];
  node.items.forEach((item, i) => {
    if (item.kind === 'scalar' && typeof item.value === 'string') out.push({ value: item.value, span: item.span, index: i });
    else diagnostics.push(diag('native/type', 'warning', `item ${i} of \`${what}\` is not a string; it is not read`, item.span));
  });
  return out;
}
