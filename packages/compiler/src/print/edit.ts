/**
 * Edits of a policy file's source for `verdict lint --fix`: a value written again in the file's own
 * syntax and style, and a set of edits applied and checked with the same lossless checks as
 * `verdict fmt` (the same comments, anchors, tags and document markers; the same tree of values but
 * for the edited ones). An edit is data, as ESLint's fixes are: replace the UTF-16 code units
 * `[range[0], range[1])` of the text (after a byte order mark, if any, is removed) with `text`.
 */
import { CST, Parser, parseDocument, visit } from 'yaml';
import { type Diagnostic, eachRule, type PolicyFileIR, type RuleIR } from '@verdict/engine';
import { parseVerdictSource } from '../dsl/index.ts';
import type { JNode } from '../tree.ts';
import type { Syntax } from '../types.ts';
import { readPolicySource } from './format.ts';
import { keptTokens } from './source.ts';
import { matchText, stringText } from './words.ts';

export interface SourceEdit {
  /** UTF-16 code-unit offsets into the text: `[start, end)`. */
  range: [number, number];
  text: string;
}

/**
 * The edit that makes the pattern written at `at` (a rule's `matchSpan` offsets) read `pattern`,
 * written in the style it had: a YAML scalar keeps its quoting where yaml can write the new value
 * in it (through yaml's own scalar writer, on the concrete syntax tree, so nothing around it
 * moves), a JSON string stays a JSON string, a `.verdict` regex literal stays a literal (or becomes
 * `match "…"` when it cannot hold the value). `undefined` when it cannot be written safely: an
 * anchored YAML value (its aliases would change too), a tagged one, or a position that holds no
 * scalar.
 */
export function patternEdit(text: string, syntax: Syntax, at: { start: number; end: number }, pattern: string): SourceEdit | undefined {
  return new SourceEditor(text, syntax).patternEdit(at, pattern);
}

/** A scalar value that can be written again: its token, and where it stands. */
interface ScalarSlot {
  token: CST.FlowScalar | CST.BlockScalar;
  afterKey: boolean;
  inFlow: boolean;
}

/**
 * `patternEdit` for many values of one text: the YAML document and its concrete syntax tree are
 * read once, on the first YAML edit, so a file with many fixable findings costs one parse.
 */
export class SourceEditor {
  private slots: Map<number, ScalarSlot> | undefined;
  constructor(
    readonly text: string,
    readonly syntax: Syntax,
  ) {}

  patternEdit(at: { start: number; end: number }, pattern: string): SourceEdit | undefined {
    const text = this.text;
    let edit: SourceEdit | undefined;
    if (this.syntax === 'verdict') edit = verdictPatternEdit(text, at, pattern);
    else if (this.syntax === 'yaml') return this.yamlScalarEdit(at, pattern);
    else if (text[at.start] === '"' && text[at.end - 1] === '"') edit = { range: [at.start, at.end], text: JSON.stringify(pattern) };
    if (edit === undefined) return undefined;
    // Only the characters that change: an editor applying it moves as little as possible.
    const [start, end] = edit.range;
    return narrowEdit(text.slice(start, end), edit.text, start, at);
  }

  private yamlScalarEdit(at: { start: number; end: number }, value: string): SourceEdit | undefined {
    const slot = this.yamlSlots().get(at.start);
    if (slot === undefined) return undefined;
    const original = CST.stringify(slot.token);
    if (!this.text.startsWith(original, at.start)) return undefined;
    // yaml's own scalar writer, on a copy of the token: the quoting kept where the value fits it.
    const copy = structuredClone(slot.token);
    CST.setScalarValue(copy, value, { afterKey: slot.afterKey, inFlow: slot.inFlow });
    return narrowEdit(original, CST.stringify(copy), at.start, at);
  }

  /** String scalars that carry no anchor (its aliases would change too) and no tag, by offset. */
  private yamlSlots(): Map<number, ScalarSlot> {
    if (this.slots !== undefined) return this.slots;
    const slots = new Map<number, ScalarSlot>();
    this.slots = slots;
    const free = new Set<number>();
    visit(parseDocument(this.text, { keepSourceTokens: false, uniqueKeys: false }), {
      Scalar(_, node) {
        const start = node.range?.[0];
        if (start !== undefined && typeof node.value === 'string' && !node.anchor && !node.tag) free.add(start);
      },
    });
    for (const token of new Parser().parse(this.text)) {
      if (token.type !== 'document') continue;
      CST.visit(token, (item, path) => {
        const v = item.value;
        if (v === undefined || !('offset' in v) || !free.has(v.offset)) return;
        if (v.type !== 'scalar' && v.type !== 'single-quoted-scalar' && v.type !== 'double-quoted-scalar' && v.type !== 'block-scalar') return;
        const parent = CST.visit.parentCollection(token, path);
        slots.set(v.offset, { token: v, afterKey: item.key !== undefined && item.key !== null, inFlow: parent.type === 'flow-collection' });
      });
    }
    return slots;
  }
}

function verdictPatternEdit(text: string, at: { start: number; end: number }, pattern: string): SourceEdit | undefined {
  const before = text[at.start - 1];
  const written = matchText(pattern);
  if (before === '/' && text[at.end] === '/') {
    // A regex literal: its body, or the whole literal when the value needs `match "…"`.
    return written.startsWith('/') ? { range: [at.start, at.end], text: written.slice(1, -1) } : { range: [at.start - 1, at.end + 1], text: written };
  }
  if (before === '"' && text[at.end] === '"') return { range: [at.start, at.end], text: stringText(pattern).slice(1, -1) };
  return undefined;
}

/**
 * The one edit that turns the text `before` (at `offset` in the file) into `after`, trimmed to the
 * characters that differ; `undefined` when it would reach outside `at`.
 */
function narrowEdit(before: string, after: string, offset: number, at: { start: number; end: number }): SourceEdit | undefined {
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  // Keep the edit on whole characters: never split a surrogate pair.
  if (start > 0 && isHigh(before.charCodeAt(start - 1))) start--;
  if (end > 0 && isLow(before.charCodeAt(before.length - end))) end--;
  const range: [number, number] = [offset + start, offset + before.length - end];
  if (range[0] < at.start - 1 || range[1] > at.end + 1) return undefined;
  return { range, text: after.slice(start, after.length - end) };
}

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

export interface EditResult {
  /** The text with the edits applied; absent when none could be applied without loss. */
  text?: string;
  /** The edits applied (in order); an edit that overlaps an earlier one waits for a later pass. */
  applied: SourceEdit[];
  diagnostics: Diagnostic[];
}

/**
 * Applies edits the way ESLint applies fixes in one pass (sorted by position; one that overlaps an
 * edit already taken is left for the next pass), then checks the result as `verdict fmt` checks a
 * layout: it must still load without errors, keep every comment, anchor, tag and document marker,
 * and hold the same tree of values (for `.verdict`: the same IR) except the values the edits
 * replaced. A result that fails a check is refused as a whole, with a diagnostic; a text that does
 * not load as it is gets no edits (and no diagnostic: its errors are the finding to fix first).
 */
export function applySourceEdits(text: string, file: string, syntax: Syntax, edits: readonly SourceEdit[]): EditResult {
  const sorted = [...edits].sort((a, b) => a.range[0] - b.range[0] || a.range[1] - b.range[1]);
  const applied: SourceEdit[] = [];
  let out = '';
  let last = 0;
  for (const e of sorted) {
    const [start, end] = e.range;
    if (!(Number.isInteger(start) && Number.isInteger(end) && start >= last && start <= end && end <= text.length)) continue;
    // The same edit reported twice (two findings, one fix) is applied once.
    if (applied.some((a) => a.range[0] === start && a.range[1] === end && a.text === e.text)) continue;
    out += text.slice(last, start) + e.text;
    last = end;
    applied.push(e);
  }
  if (applied.length === 0) return { applied, diagnostics: [] };
  out += text.slice(last);
  const refused = (why: string): EditResult => ({
    applied: [],
    diagnostics: [
      {
        code: 'fix/lossy',
        severity: 'warning',
        message: `the fixes were not applied: ${why}`,
        help: 'the file is left as it is; please report this as a bug, with the file',
      },
    ],
  });
  // A value is edited when an edit touches its text (an insertion at either end counts).
  const changed = (start: number, end: number): boolean => applied.some((a) => a.range[0] <= end && a.range[1] >= start);
  if (syntax === 'verdict') {
    const a = parseVerdictSource(text, file);
    const b = parseVerdictSource(out, file);
    // A file that does not load as it is gets no fixes (its errors are reported already).
    if (a.ir === undefined || a.diagnostics.some((d) => d.severity === 'error')) return { applied: [], diagnostics: [] };
    if (b.ir === undefined || b.diagnostics.some((d) => d.severity === 'error')) return refused('the fixed file would not load');
    const comments = (p: typeof a): string => (p.comments ?? []).map((c) => c.image.trimEnd()).join('\n');
    if (comments(a) !== comments(b)) return refused('a comment would change');
    const edited = editedRules(a.ir, changed);
    if (irShape(a.ir, edited) !== irShape(b.ir, edited)) return refused('a value other than the fixed patterns would change');
    return { text: out, applied, diagnostics: [] };
  }
  const a = readPolicySource(text, file, syntax);
  if (a === undefined) return { applied: [], diagnostics: [] };
  const b = readPolicySource(out, file, syntax);
  if (b === undefined) return refused('the fixed file would not load');
  if (keptTokens(text).join('\n') !== keptTokens(out).join('\n')) return refused('a comment, anchor, tag or document marker would change');
  // Only rule patterns may change: a string an edit touches that is some rule's `match`.
  const patterns = new Set<number>();
  for (const { rule: r } of a.ir.approver ? eachRule(a.ir.approver) : []) if (r.matchSpan) patterns.add(r.matchSpan.start.offset);
  const edited = editedRules(a.ir, changed);
  if (!sameTree(a.tree, b.tree, (start, end) => patterns.has(start) && changed(start, end)) || irShape(a.ir, edited) !== irShape(b.ir, edited)) {
    return refused('a value other than the fixed patterns would change');
  }
  return { text: out, applied, diagnostics: [] };
}

/** Two trees hold the same keys and values, except string scalars an edit touches. */
function sameTree(a: JNode, b: JNode, changed: (start: number, end: number) => boolean): boolean {
  const stack: [JNode, JNode][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (x.kind !== y.kind) return false;
    if (x.kind === 'scalar' && y.kind === 'scalar') {
      if (x.value !== y.value && !(typeof x.value === 'string' && typeof y.value === 'string' && changed(x.span.start.offset, x.span.end.offset))) return false;
    } else if (x.kind === 'seq' && y.kind === 'seq') {
      if (x.items.length !== y.items.length) return false;
      x.items.forEach((item, i) => stack.push([item, y.items[i]!]));
    } else if (x.kind === 'map' && y.kind === 'map') {
      if (x.entries.length !== y.entries.length) return false;
      for (const [i, e] of x.entries.entries()) {
        const f = y.entries[i]!;
        if (e.key !== f.key) return false;
        stack.push([e.value, f.value]);
      }
    }
  }
  return true;
}

/** The IR without positions, as text, with the patterns of the `edited` rules (`deny:0`) left out. */
function irShape(ir: PolicyFileIR, edited: ReadonlySet<string>): string {
  const rules = new Map<RuleIR, string>();
  for (const { rule, list, index } of ir.approver ? eachRule(ir.approver) : []) rules.set(rule, `${list}:${index}`);
  return JSON.stringify(ir, function (this: unknown, key, value: unknown) {
    if (/span$/i.test(key)) return undefined;
    if (key === 'match' && edited.has(rules.get(this as RuleIR) ?? '')) return undefined;
    return value;
  });
}

/** The rules (`deny:0`) whose pattern an edit touches. */
function editedRules(ir: PolicyFileIR, changed: (start: number, end: number) => boolean): Set<string> {
  const out = new Set<string>();
  for (const { rule, list, index } of ir.approver ? eachRule(ir.approver) : []) {
    const at = rule.matchSpan;
    if (at !== undefined && changed(at.start.offset, at.end.offset)) out.add(`${list}:${index}`);
  }
  return out;
}
