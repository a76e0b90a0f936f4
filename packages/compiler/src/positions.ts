/**
 * The one place where source positions are converted: yaml ranges, chevrotain token locations,
 * ajv instance paths and raw offsets all become the engine's `Span` here.
 * Offsets are UTF-16 code units (JS string indices); lines and columns are 1-based; ends exclusive.
 */
import type { Position, Span } from '@verdict/engine';
import type { JMapEntry, JNode } from './tree.ts';

/** Offset → 1-based line/column for one source text. Line breaks: `\n`, `\r\n` and lone `\r`. */
export class LineIndex {
  /** Offset of the first character of each line. */
  private readonly lineStarts: number[];
  readonly length: number;

  constructor(text: string) {
    this.length = text.length;
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) {
        starts.push(i + 1);
      } else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      }
    }
    this.lineStarts = starts;
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** The position of `offset`, clamped into `[0, length]`. */
  position(offset: number): Position {
    const o = Number.isFinite(offset) ? Math.min(Math.max(0, Math.trunc(offset)), this.length) : 0;
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.lineStarts[mid] ?? 0) <= o) lo = mid;
      else hi = mid - 1;
    }
    return { offset: o, line: lo + 1, column: o - (this.lineStarts[lo] ?? 0) + 1 };
  }

  /** The offset of a 1-based line/column (clamped), the inverse of `position`. */
  offsetAt(line: number, column: number): number {
    const l = Math.min(Math.max(1, line), this.lineStarts.length);
    const start = this.lineStarts[l - 1] ?? 0;
    return Math.min(start + Math.max(1, column) - 1, this.length);
  }
}

/** A span from a start offset and an exclusive end offset. */
export function spanOf(file: string, index: LineIndex, start: number, endExclusive: number): Span {
  const s = index.position(start);
  const e = index.position(Math.max(start, endExclusive));
  return { file, start: s, end: e };
}

/**
 * A span from a yaml node range `[start, valueEnd, nodeEnd]` (valueEnd is exclusive and excludes
 * trailing comments, so it is the one used). `undefined` when the node has no range.
 */
export function spanFromYamlRange(
  file: string,
  index: LineIndex,
  range: readonly [number, number, number] | readonly number[] | null | undefined,
): Span | undefined {
  if (!range || range.length < 2) return undefined;
  const start = range[0];
  const end = range[1];
  if (start === undefined || end === undefined) return undefined;
  return spanOf(file, index, start, end);
}

/**
 * A span from a chevrotain token or CST location. Chevrotain's `endOffset` is inclusive: it is
 * converted here, once. A missing or NaN end (an empty or recovered node) gives an empty span.
 */
export function spanFromChevrotain(
  file: string,
  index: LineIndex,
  loc: { startOffset: number; endOffset?: number | undefined },
): Span {
  const start = Number.isFinite(loc.startOffset) ? loc.startOffset : 0;
  const endIncl = loc.endOffset;
  const end = endIncl !== undefined && Number.isFinite(endIncl) ? endIncl + 1 : start;
  return spanOf(file, index, start, end);
}

/** A span covering both spans (they must be in the same file). */
export function joinSpans(a: Span, b: Span): Span {
  return {
    file: a.file,
    start: a.start.offset <= b.start.offset ? a.start : b.start,
    end: a.end.offset >= b.end.offset ? a.end : b.end,
  };
}

/** An ajv `instancePath` (a JSON Pointer, `/approver/allow/0/match`) as path segments. */
export function pathFromJsonPointer(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return pointer === '/' ? [''] : [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Path segments as a JSON Pointer. */
export function jsonPointer(path: readonly (string | number)[]): string {
  return path.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** Where a value of the plain JSON view came from: its value span and, for object members, its key span. */
export interface SourceEntry {
  value?: Span;
  key?: Span;
}

/**
 * JSON Pointer → source spans, read from the document tree (the one the parse stage built, which
 * `CompileResult.locate` reads too), so an ajv error's `instancePath` leads straight back to the
 * line and column of the node. A path through an alias leads to the anchored node, as the plain
 * JSON view that ajv validates holds the anchored value there.
 */
export class SourceMap {
  constructor(private readonly root: JNode | undefined) {}

  get(path: readonly (string | number)[]): SourceEntry | undefined {
    let node = this.root;
    if (node === undefined) return undefined;
    let entry: SourceEntry = { value: node.span };
    for (const step of path) {
      if (node.kind === 'map') {
        const e: JMapEntry | undefined = node.entries.find((x) => x.key === String(step));
        if (e === undefined) return undefined;
        entry = { key: e.keySpan, value: e.value.span };
        node = e.value;
      } else if (node.kind === 'seq') {
        const i = typeof step === 'number' ? step : /^(?:0|[1-9]\d*)$/.test(step) ? Number(step) : -1;
        const item: JNode | undefined = node.items[i];
        if (item === undefined) return undefined;
        entry = { value: item.span };
        node = item;
      } else {
        return undefined;
      }
    }
    return entry;
  }

  /** The entry for an ajv `instancePath`, or the nearest ancestor that has one. */
  lookup(pointer: string): { entry: SourceEntry; path: string[]; exact: boolean } | undefined {
    const path = pathFromJsonPointer(pointer);
    for (let n = path.length; n >= 0; n--) {
      const e = this.get(path.slice(0, n));
      if (e) return { entry: e, path: path.slice(0, n), exact: n === path.length };
    }
    return undefined;
  }
}
