/**
 * Source-level facts the IR does not keep: where a document path sits and how a YAML scalar was
 * quoted. The YAML document is parsed lazily, once per file, and only for YAML and JSON sources.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit } from 'yaml';
import type { Document, Node as YamlNode } from 'yaml';
import type { Span } from '@verdict/engine';
import type { ScalarStyle } from '../types.ts';
import { LineIndex, spanOf } from './positions.ts';

export class SourceInfo {
  readonly file: string;
  readonly text: string;
  readonly syntax: 'yaml' | 'json' | 'verdict' | undefined;
  readonly lines: LineIndex;
  private doc: Document | null | undefined;
  private scalars: ScalarRange[] | null | undefined;

  constructor(file: string, text: string, syntax: 'yaml' | 'json' | 'verdict' | undefined) {
    this.file = file;
    this.text = text;
    this.syntax = syntax;
    this.lines = new LineIndex(text);
  }

  span(start: number, end: number): Span {
    return spanOf(this.file, this.lines, start, end);
  }

  /** The first character of the file (where file-level findings go). */
  fileStart(): Span {
    return this.span(0, 0);
  }

  private document(): Document | null {
    if (this.doc !== undefined) return this.doc;
    this.doc = null;
    if (this.syntax === 'verdict') return null;
    try {
      const doc = parseDocument(this.text, { lineCounter: new LineCounter(), keepSourceTokens: false, uniqueKeys: false });
      this.doc = doc;
    } catch {
      this.doc = null;
    }
    return this.doc;
  }

  /**
   * The span of the node at `path`, or of its deepest existing ancestor; a string last step that
   * names a missing key of an existing map points at the map. `undefined` without a YAML tree.
   */
  pathSpan(path: readonly (string | number)[], atKey = false): Span | undefined {
    const doc = this.document();
    if (doc === null) return undefined;
    let node: unknown = doc.contents;
    let best: YamlNode | undefined = isNodeWithRange(node) ? node : undefined;
    for (const [i, step] of path.entries()) {
      let next: unknown;
      if (isMap(node)) {
        const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(step));
        const last = i === path.length - 1;
        next = last && atKey ? pair?.key : (pair?.value ?? pair?.key);
      } else if (isSeq(node) && typeof step === 'number') {
        next = node.items[step];
      }
      if (!isNodeWithRange(next)) break;
      node = next;
      best = next;
    }
    const range = best?.range;
    if (!range) return undefined;
    return this.span(range[0], range[1]);
  }

  /** The style of the YAML scalar whose text contains the start of `span`. */
  scalarStyleAt(span: Span | undefined): ScalarStyle | undefined {
    if (span === undefined) return undefined;
    const scalars = this.scalarIndex();
    if (scalars === null) return undefined;
    const at = span.start.offset;
    let found: ScalarStyle | undefined;
    let width = Infinity;
    // The narrowest scalar containing `at`; the first one visited wins a tie.
    for (const s of scalars) {
      if (at < s.start || at > s.end) continue;
      if (s.end - s.start < width) {
        width = s.end - s.start;
        found = s.style;
      }
    }
    return found;
  }

  /** Every scalar's range and style, in visit order, collected once per file. */
  private scalarIndex(): ScalarRange[] | null {
    if (this.scalars !== undefined) return this.scalars;
    const doc = this.document();
    if (doc === null) {
      this.scalars = null;
      return null;
    }
    const out: ScalarRange[] = [];
    visit(doc, {
      Scalar(_key, node) {
        const r = node.range;
        if (!r) return;
        out.push({ start: r[0], end: r[1], style: (node.type as ScalarStyle | undefined) ?? 'PLAIN' });
      },
    });
    this.scalars = out;
    return out;
  }
}

interface ScalarRange {
  start: number;
  end: number;
  style: ScalarStyle;
}

function isNodeWithRange(n: unknown): n is YamlNode {
  return typeof n === 'object' && n !== null && 'range' in n && Array.isArray((n as { range: unknown }).range);
}
