/**
 * The canonical layout of a `.verdict` file, from the IR of any syntax.
 *
 * Given the comments of the source (and its text), comments are put back: each is attached to
 * the statement it precedes, or trails on the line it shared with one, so they travel with
 * their statement even when the canonical order moves it. Blank lines inside blocks and between
 * tests are kept (one at most) when the source had them.
 */
import { policyFieldsIn } from '@verdict/engine';
import type { ApprovalsIR, ApproverIR, PolicyFileIR, PolicyIR, RuleIR, RuleList, Span, TestCaseIR } from '@verdict/engine';
import {
  inputText,
  matchText,
  modeText,
  nameText,
  ruleRefText,
  scalarText,
  stringText,
  toolText,
  wordText,
} from './words.ts';

export interface SourceComment {
  /** 0-based offset of the `#`. */
  offset: number;
  /** 1-based line. */
  line: number;
  /** The comment text, from `#` to the end of the line. */
  text: string;
}

export interface PrintVerdictOptions {
  /** Comments of the source the IR was parsed from (its spans must point into the same text). */
  comments?: readonly SourceComment[];
  /** The source text, to keep the blank lines that separate groups of rules or tests. */
  source?: string;
}

interface Line {
  depth: number;
  text: string;
  /** Where the printed line's statement starts in the source. */
  start?: number;
  /** The source line its header ends on (trailing comments on that line belong to it). */
  endLine?: number;
  /** A closing brace: comments before it are printed one level deeper. */
  closer?: boolean;
  /** Print a blank line before this one (top-level separation). */
  blank?: boolean;
  leading: { text: string; offset: number; blankBefore: boolean }[];
  trailing?: string;
  /** The source had a blank line before this statement itself. */
  sourceBlank?: boolean;
}

const INDENT = '  ';

export function printVerdict(ir: PolicyFileIR, options: PrintVerdictOptions = {}): string {
  const lines: Line[] = [];
  const push = (depth: number, text: string, span?: Span, extra: Partial<Line> = {}): Line => {
    const line: Line = { depth, text, leading: [], ...extra };
    if (span && line.start === undefined) {
      line.start = span.start.offset;
      line.endLine = span.end.line;
    }
    lines.push(line);
    return line;
  };

  if (ir.driver) push(0, `driver ${nameText(ir.driver.ref)}`, ir.driver.span);
  if (ir.policy) printPolicy(ir.policy, push, lines.length > 0);
  if (ir.approver) printApprover(ir.approver, push, lines.length > 0);
  ir.tests.forEach((t, i) => {
    push(0, testText(t), t.span, i === 0 && lines.length > 0 ? { blank: true } : {});
  });

  const header: string[] = [];
  const trailer = attachComments(lines, options, header);
  const body = render(lines, trailer);
  if (header.length === 0) return body;
  return header.join('\n') + '\n' + (body === '' ? '' : '\n' + body);
}

type Push = (depth: number, text: string, span?: Span, extra?: Partial<Line>) => Line;

function opener(span: Span | undefined, headerEnd?: Span): Partial<Line> {
  if (!span) return {};
  return { start: span.start.offset, endLine: (headerEnd ?? span).start.line };
}

function closer(span: Span | undefined): Partial<Line> {
  if (!span) return { closer: true };
  return { closer: true, start: Math.max(span.start.offset, span.end.offset - 1), endLine: span.end.line };
}

function printPolicy(p: PolicyIR, push: Push, blank: boolean): void {
  const entries: { key: string; value: string; span?: Span }[] = [];
  const add = (key: string, l: { value: string; span?: Span } | undefined): void => {
    if (l) entries.push(l.span ? { key, value: scalarText(l.value), span: l.span } : { key, value: scalarText(l.value) });
  };
  for (const f of policyFieldsIn('policy')) add(f.name, p[f.prop]);
  if (entries.length === 0 && !p.approvals) {
    push(0, 'policy {}', undefined, { ...opener(p.span), blank });
    return;
  }
  push(0, 'policy {', undefined, { ...opener(p.span), blank });
  for (const e of entries) push(1, `${e.key} ${e.value}`, undefined, e.span ? { start: keyStart(e.span), endLine: e.span.end.line } : {});
  if (p.approvals) printApprovals(p.approvals, push);
  push(0, '}', undefined, closer(p.span));
}

/** A setting's statement starts at its key, before the value's span; comments before the key lead it. */
function keyStart(valueSpan: Span): number {
  return valueSpan.start.offset;
}

function printApprovals(a: ApprovalsIR, push: Push): void {
  const entries: { key: string; value: string; span?: Span }[] = [];
  const add = (key: string, l: { value: string; span?: Span } | undefined): void => {
    if (l) entries.push(l.span ? { key, value: scalarText(l.value), span: l.span } : { key, value: scalarText(l.value) });
  };
  for (const f of policyFieldsIn('approvals')) if (f.prop !== 'maxRetries') add(f.name, a[f.prop]);
  if (a.maxRetries) {
    const e: { key: string; value: string; span?: Span } = { key: 'max_retries', value: Object.is(a.maxRetries.value, -0) ? '-0' : String(a.maxRetries.value) };
    if (a.maxRetries.span) e.span = a.maxRetries.span;
    entries.push(e);
  }
  if (entries.length === 0) {
    push(1, 'approvals {}', undefined, opener(a.span));
    return;
  }
  push(1, 'approvals {', undefined, opener(a.span));
  for (const e of entries) push(2, `${e.key} ${e.value}`, undefined, e.span ? { start: keyStart(e.span), endLine: e.span.end.line } : {});
  push(1, '}', undefined, closer(a.span));
}

function approverHeader(a: ApproverIR): { text: string; headerEnd?: Span } {
  let text = 'approver';
  let headerEnd: Span | undefined;
  const later = (s: Span | undefined): void => {
    if (s && (!headerEnd || s.start.offset > headerEnd.start.offset)) headerEnd = s;
  };
  if (a.mode !== '') {
    text += ` ${modeText(a.mode)}`;
    later(a.modeSpan);
  }
  if (a.default !== '') {
    text += ` default ${wordText(a.default)}`;
    later(a.defaultSpan);
  }
  if (a.reason !== '') {
    text += ` reason ${stringText(a.reason)}`;
    later(a.reasonSpan);
  }
  if (a.input === 'canonical') {
    text += ' input canonical';
    later(a.inputSpan);
  }
  if (a.unknown !== undefined) {
    text += ` unknown ${wordText(a.unknown)}`;
    later(a.unknownSpan);
  }
  if (a.environment !== undefined) {
    text += ` environment [${a.environment.map((x) => JSON.stringify(x)).join(', ')}]`;
    later(a.environmentSpan);
  }
  if (a.shells !== undefined) {
    text += ` shells [${a.shells.map((x) => JSON.stringify(x)).join(', ')}]`;
    later(a.shellsSpan);
  }
  return headerEnd ? { text, headerEnd } : { text };
}

/**
 * Rules in source order when every rule knows where it came from; otherwise in the order they are
 * checked: deny, then ask, then allow rules.
 */
function orderedRules(a: ApproverIR): { list: RuleList; rule: RuleIR }[] {
  const all = [
    ...a.deny.map((rule) => ({ list: 'deny' as const, rule })),
    ...(a.ask ?? []).map((rule) => ({ list: 'ask' as const, rule })),
    ...a.allow.map((rule) => ({ list: 'allow' as const, rule })),
  ];
  if (all.every((r) => r.rule.span)) {
    return all
      .map((r, i) => ({ r, i }))
      .sort((x, y) => x.r.rule.span!.start.offset - y.r.rule.span!.start.offset || x.i - y.i)
      .map((x) => x.r);
  }
  return all;
}

export function ruleText(list: RuleList, r: RuleIR): string {
  let text = `${list} ${toolText(r.tool)}`;
  if (r.field !== undefined && r.field !== '') text += ` field ${nameText(r.field)}`;
  if (r.command !== undefined) {
    const list = (words: readonly string[]) => `[${words.map((w) => JSON.stringify(w)).join(', ')}]`;
    text += ` command [${r.command.map((w) => (typeof w === 'string' ? JSON.stringify(w) : list(w))).join(', ')}]`;
  }
  if (r.args !== undefined) text += ` args ${stringText(r.args)}`;
  if (r.redirect !== undefined) text += ` redirect ${stringText(r.redirect)}`;
  if (r.match !== '') text += ` ${matchText(r.match)}`;
  return text;
}

function printApprover(a: ApproverIR, push: Push, blank: boolean): void {
  const { text, headerEnd } = approverHeader(a);
  const rules = orderedRules(a);
  if (rules.length === 0) {
    push(0, text, undefined, { ...opener(a.span, headerEnd), blank });
    return;
  }
  push(0, `${text} {`, undefined, { ...opener(a.span, headerEnd), blank });
  for (const { list, rule } of rules) push(1, ruleText(list, rule), rule.span);
  push(0, '}', undefined, closer(a.span));
}

export function testText(t: TestCaseIR): string {
  let text = 'test ';
  if (t.name !== undefined) text += `${stringText(t.name)} `;
  text += `{ ${t.expect} ${nameText(t.tool)} ${inputText(t.input)}`;
  if (t.reason !== undefined) text += ` reason ${stringText(t.reason)}`;
  if (t.rule !== undefined) text += ` rule ${ruleRefText(t.rule)}`;
  return `${text} }`;
}

/** Attaches each comment to a line; returns the comments that follow every statement. */
function attachComments(lines: Line[], options: PrintVerdictOptions, header: string[]): { comments: string[]; blank: boolean } {
  const trailer = { comments: [] as string[], blank: false };
  const comments = [...(options.comments ?? [])].sort((a, b) => a.offset - b.offset);
  const anchored = lines.filter((l) => l.start !== undefined).sort((a, b) => a.start! - b.start!);
  // A file header: the comments before the first statement, up to the last one a blank line
  // separates from what follows. It stays at the top whatever statement comes first.
  const source = options.source;
  const firstStart = anchored[0]?.start ?? Infinity;
  let headerCount = 0;
  if (source !== undefined) {
    for (let i = 0; i < comments.length && comments[i]!.offset < firstStart; i++) {
      const nextOffset = Math.min(comments[i + 1]?.offset ?? Infinity, firstStart);
      if (nextOffset !== Infinity && blankLineBefore(source, nextOffset)) headerCount = i + 1;
    }
  }
  for (const c of comments.splice(0, headerCount)) header.push(c.text);
  for (const c of comments) {
    let trailTo: Line | undefined;
    for (const l of anchored) {
      if (l.start! < c.offset && l.endLine === c.line) trailTo = l;
    }
    if (trailTo && trailTo.trailing === undefined) {
      trailTo.trailing = c.text;
      continue;
    }
    const next = anchored.find((l) => l.start! > c.offset);
    const blankBefore = options.source !== undefined && blankLineBefore(options.source, c.offset);
    if (next) {
      next.leading.push({ text: c.text, offset: c.offset, blankBefore });
    } else {
      if (trailer.comments.length === 0) trailer.blank = blankBefore;
      trailer.comments.push(c.text);
    }
  }
  if (options.source !== undefined) {
    for (const l of anchored) l.sourceBlank = blankLineBefore(options.source, l.start!);
  }
  return trailer;
}

/** Whether the line before the one holding `offset` is blank. */
function blankLineBefore(source: string, offset: number): boolean {
  let i = Math.min(offset, source.length);
  while (i > 0 && source[i - 1] !== '\n' && source[i - 1] !== '\r') i--;
  if (i === 0) return false;
  // i is the start of the line; step back over its line break.
  let j = i - 1;
  if (source[j] === '\n' && source[j - 1] === '\r') j--;
  let k = j;
  while (k > 0 && (source[k - 1] === ' ' || source[k - 1] === '\t')) k--;
  return k > 0 && (source[k - 1] === '\n' || source[k - 1] === '\r');
}

function render(lines: Line[], trailer: { comments: string[]; blank: boolean }): string {
  const out: string[] = [];
  let afterOpener = false;
  const blank = (): void => {
    if (out.length > 0 && out[out.length - 1] !== '' && !afterOpener) out.push('');
  };
  for (const l of lines) {
    const commentDepth = l.closer ? l.depth + 1 : l.depth;
    if (l.blank) blank();
    for (const c of l.leading) {
      if (c.blankBefore) blank();
      out.push(INDENT.repeat(commentDepth) + c.text);
      afterOpener = false;
    }
    if (l.sourceBlank && !l.closer) blank();
    out.push(INDENT.repeat(l.depth) + l.text + (l.trailing !== undefined ? ` ${l.trailing}` : ''));
    afterOpener = l.text.endsWith('{');
  }
  if (trailer.comments.length > 0) {
    afterOpener = false;
    if (trailer.blank) blank();
    for (const c of trailer.comments) out.push(c);
  }
  return out.length === 0 ? '' : out.join('\n') + '\n';
}
