/**
 * A small syntax-free document tree built by walking yaml's nodes (never `toJS`): mappings keep
 * their keys in order as plain strings, so `__proto__` and `constructor` are ordinary keys, and
 * every node keeps its span. Aliases share the anchored subtree; an expansion budget stops alias
 * bombs, and a depth limit stops stack exhaustion.
 */
import { isAlias, isCollection, isMap, isPair, isScalar, isSeq } from 'yaml';
import type { Alias, Document, Node as YamlNode } from 'yaml';
import type { Diagnostic, Span } from '@verdict/engine';
import { spanFromYamlRange, spanOf } from './positions.ts';
import type { LineIndex } from './positions.ts';

export type JScalar = string | number | boolean | null;

/** How a YAML scalar is written (yaml's `Scalar.type`); JSON strings are `QUOTE_DOUBLE`. */
export type ScalarStyle = 'PLAIN' | 'QUOTE_SINGLE' | 'QUOTE_DOUBLE' | 'BLOCK_LITERAL' | 'BLOCK_FOLDED';

export interface JMapEntry {
  key: string;
  keySpan: Span;
  /** How the key is written, when it is a scalar. */
  keyStyle?: ScalarStyle;
  value: JNode;
  /**
   * Where the value is written, when that is not `value.span`: the alias (`*name`) that stands for
   * it, or the key itself when the entry has no value node (`{a, b: 1}`). `locate` stops here.
   */
  valueAt?: Span;
}

interface JBase {
  span: Span;
  /** Number of nodes once every alias is expanded (the alias-bomb measure). */
  size: number;
}
export interface JMap extends JBase {
  kind: 'map';
  entries: JMapEntry[];
}
export interface JSeq extends JBase {
  kind: 'seq';
  items: JNode[];
  /** Items written as an alias (`- *name`): the alias's span, by index. `locate` stops there. */
  itemsAt?: Map<number, Span>;
}
export interface JScalarNode extends JBase {
  kind: 'scalar';
  value: JScalar;
  /** The scalar as written (`-0`, `0x10`, `"a"` without quotes), when yaml keeps it. */
  source?: string;
  /** How the scalar is written (quoted, block…); absent for a value no scalar was written for. */
  style?: ScalarStyle;
}
export type JNode = JMap | JSeq | JScalarNode;

/** Expanded nodes allowed beyond the ones written: legitimate anchors stay far below it. */
export const ALIAS_EXPANSION_LIMIT = 100_000;
export const MAX_DEPTH = 256;

export function entryOf(map: JMap, key: string): JMapEntry | undefined {
  return map.entries.find((e) => e.key === key);
}

/** How a node's type reads in a message: `a string`, `a number`, `a mapping`… */
export function describeType(node: JNode): string {
  if (node.kind === 'map') return 'a mapping';
  if (node.kind === 'seq') return 'a list';
  const v = node.value;
  if (v === null) return 'null';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'an integer' : 'a number';
  return 'a boolean';
}

/** The JSON type name ajv would report for a node. */
export function jsonTypeOf(node: JNode): string {
  if (node.kind === 'map') return 'object';
  if (node.kind === 'seq') return 'array';
  const v = node.value;
  if (v === null) return 'null';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

interface BuildContext {
  doc: Document;
  /** Each alias's target: the last node anchored with its name before it (`undefined`: none). */
  aliases: Map<Alias, YamlNode | undefined>;
  file: string;
  index: LineIndex;
  diagnostics: Diagnostic[];
  memo: Map<YamlNode, JNode>;
  /** Levels below each built node (0 for a scalar): a reused node must still fit under `MAX_DEPTH`. */
  heights: WeakMap<JNode, number>;
  active: Set<YamlNode>;
  written: number;
  failed: boolean;
  /** A mapping repeats a key: every one is reported, then the tree is refused. */
  duplicates: boolean;
}

/** The tree of a parsed yaml document; `undefined` (with a diagnostic) when it cannot be built safely. */
export function treeFromYaml(
  doc: Document,
  file: string,
  index: LineIndex,
  diagnostics: Diagnostic[],
): JNode | undefined {
  const ctx: BuildContext = {
    doc,
    aliases: resolveAliases(doc),
    file,
    index,
    diagnostics,
    memo: new Map(),
    heights: new WeakMap(),
    active: new Set(),
    written: 0,
    failed: false,
    duplicates: false,
  };
  const contents = doc.contents;
  if (contents === null || contents === undefined) {
    return { kind: 'map', entries: [], span: spanOf(file, index, 0, 0), size: 1 };
  }
  const root = build(ctx, contents as YamlNode, 0);
  if (ctx.failed || ctx.duplicates || root === undefined) return undefined;
  if (root.size > ctx.written + ALIAS_EXPANSION_LIMIT) {
    diagnostics.push({
      code: 'yaml/alias-limit',
      severity: 'error',
      message: 'aliases expand this document to more than ' + `${ALIAS_EXPANSION_LIMIT} extra nodes`,
      help: 'this looks like a resource exhaustion attack (an alias bomb); write the values out or reuse fewer anchors',
      span: root.span,
    });
    return undefined;
  }
  return root;
}

/**
 * Every alias's target, found in one pass. yaml's `Alias.resolve` walks the whole document for each
 * alias (quadratic: 20000 aliases took minutes); this walks it once, in the same order (pre-order,
 * keys before values), so an alias names the last node anchored with its name before it, as there.
 * Iterative: the walk costs no stack however deep the document.
 */
function resolveAliases(doc: Document): Map<Alias, YamlNode | undefined> {
  const targets = new Map<Alias, YamlNode | undefined>();
  const anchors = new Map<string, YamlNode>();
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const item = stack.pop();
    if (isPair(item)) {
      stack.push(item.value, item.key);
      continue;
    }
    if (isAlias(item)) {
      targets.set(item, anchors.get(item.source));
      continue;
    }
    if (isScalar(item) || isCollection(item)) {
      if (typeof item.anchor === 'string' && item.anchor !== '') anchors.set(item.anchor, item);
      if (isCollection(item)) for (let i = item.items.length - 1; i >= 0; i--) stack.push(item.items[i]);
    }
  }
  return targets;
}

function fallbackSpan(ctx: BuildContext): Span {
  return spanOf(ctx.file, ctx.index, 0, 0);
}

function build(ctx: BuildContext, node: YamlNode, depth: number): JNode | undefined {
  if (ctx.failed) return undefined;
  const span = spanFromYamlRange(ctx.file, ctx.index, node.range) ?? fallbackSpan(ctx);
  if (depth > MAX_DEPTH) {
    ctx.failed = true;
    ctx.diagnostics.push({
      code: 'yaml/too-deep',
      severity: 'error',
      message: `the document nests deeper than ${MAX_DEPTH} levels`,
      span,
    });
    return undefined;
  }
  if (isAlias(node)) {
    const target = ctx.aliases.get(node);
    if (target === undefined) {
      ctx.diagnostics.push({
        code: 'yaml/unknown-alias',
        severity: 'error',
        message: `alias \`*${node.source}\` has no anchor before it`,
        span,
      });
      return { kind: 'scalar', value: null, span, size: 1 };
    }
    if (ctx.active.has(target)) {
      ctx.failed = true;
      ctx.diagnostics.push({
        code: 'yaml/alias-cycle',
        severity: 'error',
        message: `alias \`*${node.source}\` refers to a node that contains it`,
        span,
      });
      return undefined;
    }
    return build(ctx, target, depth);
  }
  const memo = ctx.memo.get(node);
  if (memo) {
    // An alias puts the whole anchored subtree here: its depth counts from this level.
    if (depth + (ctx.heights.get(memo) ?? 0) > MAX_DEPTH) {
      ctx.failed = true;
      ctx.diagnostics.push({
        code: 'yaml/too-deep',
        severity: 'error',
        message: `the document nests deeper than ${MAX_DEPTH} levels once its aliases are expanded`,
        help: 'an anchor that nests another anchor, again and again, builds a deeper document than it shows',
        span,
      });
      return undefined;
    }
    return memo;
  }
  ctx.written++;
  let out: JNode | undefined;
  if (isScalar(node)) {
    out = scalarNode(ctx, node.value, span, (node as { source?: unknown }).source);
    out.style = (node.type as ScalarStyle | undefined) ?? 'PLAIN';
  } else if (isMap(node)) {
    ctx.active.add(node);
    const entries: JMapEntry[] = [];
    const seen = new Set<string>();
    let size = 1;
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      const keyNode = pair.key as YamlNode | null;
      const keySpan = keyNode ? spanFromYamlRange(ctx.file, ctx.index, keyNode.range) : undefined;
      const key = keyString(ctx, keyNode, keySpan ?? span);
      if (key === undefined) continue;
      const identity = keyIdentity(ctx, keyNode);
      if (seen.has(identity)) {
        ctx.duplicates = true;
        ctx.diagnostics.push({
          code: 'yaml/duplicate-key',
          severity: 'error',
          message: `duplicate key \`${key}\``,
          help: 'the later value would silently replace the earlier one: keep only one',
          span: keySpan ?? span,
        });
      }
      seen.add(identity);
      const valueNode = pair.value as YamlNode | null;
      let value: JNode | undefined;
      let valueAt: Span | undefined;
      if (valueNode === null || valueNode === undefined) {
        const at = keySpan ? keySpan.end.offset : span.start.offset;
        value = { kind: 'scalar', value: null, span: spanOf(ctx.file, ctx.index, at, at), size: 1 };
        valueAt = keySpan;
      } else {
        value = build(ctx, valueNode, depth + 1);
        if (isAlias(valueNode)) valueAt = spanFromYamlRange(ctx.file, ctx.index, valueNode.range);
      }
      if (value === undefined) {
        ctx.active.delete(node);
        return undefined;
      }
      size += value.size;
      const entry: JMapEntry = { key, keySpan: keySpan ?? span, value };
      if (isScalar(keyNode)) entry.keyStyle = (keyNode.type as ScalarStyle | undefined) ?? 'PLAIN';
      if (valueAt !== undefined) entry.valueAt = valueAt;
      entries.push(entry);
    }
    ctx.active.delete(node);
    out = { kind: 'map', entries, span, size };
  } else if (isSeq(node)) {
    ctx.active.add(node);
    const items: JNode[] = [];
    let itemsAt: Map<number, Span> | undefined;
    let size = 1;
    for (const item of node.items) {
      let value: JNode | undefined;
      if (item === null || item === undefined) {
        value = { kind: 'scalar', value: null, span, size: 1 };
      } else {
        value = build(ctx, item as YamlNode, depth + 1);
        const at = isAlias(item) ? spanFromYamlRange(ctx.file, ctx.index, item.range) : undefined;
        if (at !== undefined) (itemsAt ??= new Map()).set(items.length, at);
      }
      if (value === undefined) {
        ctx.active.delete(node);
        return undefined;
      }
      size += value.size;
      items.push(value);
    }
    ctx.active.delete(node);
    out = itemsAt !== undefined ? { kind: 'seq', items, span, size, itemsAt } : { kind: 'seq', items, span, size };
  } else {
    out = { kind: 'scalar', value: null, span, size: 1 };
  }
  ctx.memo.set(node, out);
  ctx.heights.set(out, heightOf(ctx, out));
  return out;
}

function heightOf(ctx: BuildContext, node: JNode): number {
  if (node.kind === 'scalar') return 0;
  let h = 0;
  for (const child of node.kind === 'map' ? node.entries.map((e) => e.value) : node.items) {
    h = Math.max(h, ctx.heights.get(child) ?? 0);
  }
  return h + 1;
}

function scalarNode(ctx: BuildContext, value: unknown, span: Span, source: unknown): JScalarNode {
  const src = typeof source === 'string' ? source : undefined;
  let v: JScalar;
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number') {
    v = value;
  } else if (typeof value === 'bigint') {
    v = Number(value);
  } else {
    ctx.diagnostics.push({
      code: 'yaml/unsupported-value',
      severity: 'error',
      message: 'this value is not a string, number, boolean or null',
      help: 'policy files hold JSON values only; remove the tag or quote the value',
      span,
    });
    v = null;
  }
  const out: JScalarNode = { kind: 'scalar', value: v, span, size: 1 };
  if (src !== undefined) out.source = src;
  return out;
}

/**
 * What makes two keys the same, as yaml's `uniqueKeys` sees it (equal resolved scalar values:
 * `1` and `0x1` are one key, `1` and `"1"` are two). The parser runs with `uniqueKeys: false`
 * because its check compares each key with every earlier one (40000 keys took a minute); this is
 * the same check with a set.
 */
let uniqueKeyCount = 0;

function keyIdentity(ctx: BuildContext, keyNode: YamlNode | null): string {
  let k: YamlNode | null | undefined = keyNode;
  if (isAlias(k)) k = ctx.aliases.get(k);
  if (k === null || k === undefined) return 'null:';
  // A complex key (refused anyway) and NaN (equal to nothing) never repeat.
  if (!isScalar(k)) return `unique:${++uniqueKeyCount}`;
  const v = k.value;
  if (typeof v === 'string') return `string:${v}`;
  if (typeof v === 'number' && Number.isNaN(v)) return `unique:${++uniqueKeyCount}`;
  if (v === null || v === undefined) return 'null:';
  return `${typeof v}:${String(v)}`;
}

function keyString(ctx: BuildContext, keyNode: YamlNode | null, span: Span): string | undefined {
  if (keyNode === null || keyNode === undefined) return '';
  let k: YamlNode | undefined = keyNode;
  if (isAlias(k)) k = ctx.aliases.get(k);
  if (k && isScalar(k)) {
    const v = k.value;
    if (typeof v === 'string') return v;
    const src = (k as { source?: unknown }).source;
    if (typeof src === 'string' && src !== '') return src;
    return v === null || v === undefined ? '' : String(v);
  }
  ctx.diagnostics.push({
    code: 'yaml/complex-key',
    severity: 'error',
    message: 'mapping keys must be plain strings, not lists or mappings',
    span,
  });
  return undefined;
}

/**
 * The span of the node at `path` (object keys and list indices from the root), or of its deepest
 * ancestor that exists; with `atKey`, the span of the last step's key. A path through an alias
 * stops at the alias, where it is written.
 */
export function locateIn(root: JNode, path: readonly (string | number)[], atKey = false): Span {
  let node: JNode = root;
  let best = root.span;
  for (const [i, step] of path.entries()) {
    if (node.kind === 'map') {
      const entry = node.entries.find((e) => e.key === String(step));
      if (entry === undefined) break;
      if (atKey && i === path.length - 1) return entry.keySpan;
      if (entry.valueAt !== undefined) return entry.valueAt;
      node = entry.value;
    } else if (node.kind === 'seq' && typeof step === 'number') {
      const item = node.items[step];
      if (item === undefined) break;
      const at = node.itemsAt?.get(step);
      if (at !== undefined) return at;
      node = item;
    } else {
      break;
    }
    best = node.span;
  }
  return best;
}

/**
 * The style of the narrowest scalar whose text contains `offset` (ends included); the first one in
 * document order wins a tie. `undefined` when none does.
 */
export function scalarStyleIn(root: JNode, offset: number): ScalarStyle | undefined {
  let found: ScalarStyle | undefined;
  let width = Infinity;
  const consider = (span: Span, style: ScalarStyle | undefined): void => {
    if (style === undefined || offset < span.start.offset || offset > span.end.offset) return;
    if (span.end.offset - span.start.offset < width) {
      width = span.end.offset - span.start.offset;
      found = style;
    }
  };
  // Document order (keys before their values); a subtree an alias repeats is looked at once.
  const seen = new Set<JNode>();
  const stack: (JNode | JMapEntry)[] = [root];
  while (stack.length > 0) {
    const item = stack.pop() as JNode | JMapEntry;
    if ('key' in item) {
      consider(item.keySpan, item.keyStyle);
      stack.push(item.value);
      continue;
    }
    if (seen.has(item)) continue;
    seen.add(item);
    if (item.kind === 'scalar') consider(item.span, item.style);
    else {
      const children = item.kind === 'map' ? item.entries : item.items;
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as JNode | JMapEntry);
    }
  }
  return found;
}

/**
 * The plain JSON view of a tree, for JSON Schema validation (`SourceMap` leads its paths back to
 * the tree's spans). Objects have no prototype: `__proto__` is an own, ordinary key here.
 */
export function toPlain(node: JNode): unknown {
  if (node.kind === 'scalar') return node.value;
  if (node.kind === 'seq') return node.items.map((item) => toPlain(item));
  const obj = Object.create(null) as Record<string, unknown>;
  for (const e of node.entries) {
    if (Object.prototype.hasOwnProperty.call(obj, e.key)) continue;
    Object.defineProperty(obj, e.key, {
      value: toPlain(e.value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return obj;
}

/**
 * Compact JSON text of a tree, keys in source order (`JSON.stringify` would move integer-like keys
 * first). Non-finite numbers have no JSON form: `undefined`.
 */
const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

export function toJsonText(node: JNode): string | undefined {
  if (node.kind === 'scalar') {
    // A number written as JSON writes it (`1.0`, `-0`, `1E5`, 500 digits) is kept as written, as the
    // approver sees number literals; other YAML numbers (`0x10`, `.5`) are written as JSON would.
    if (typeof node.value === 'number' && node.source !== undefined && JSON_NUMBER.test(node.source)) return node.source;
    if (typeof node.value === 'number' && !Number.isFinite(node.value)) return undefined;
    return JSON.stringify(node.value);
  }
  const parts: string[] = [];
  if (node.kind === 'seq') {
    for (const item of node.items) {
      const t = toJsonText(item);
      if (t === undefined) return undefined;
      parts.push(t);
    }
    return '[' + parts.join(',') + ']';
  }
  for (const e of node.entries) {
    const t = toJsonText(e.value);
    if (t === undefined) return undefined;
    parts.push(JSON.stringify(e.key) + ':' + t);
  }
  return '{' + parts.join(',') + '}';
}
