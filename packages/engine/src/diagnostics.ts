/**
 * The one diagnostic vocabulary shared by every package.
 * Positions: `offset` is 0-based (UTF-16 code units of the source text, as JS strings index it),
 * `line` and `column` are 1-based; `end` is exclusive.
 */
export interface Position {
  offset: number;
  line: number;
  column: number;
}

export interface Span {
  file: string;
  start: Position;
  end: Position;
}

export type Severity = 'error' | 'warning' | 'info';

export interface RelatedInformation {
  message: string;
  span?: Span;
}

export interface Diagnostic {
  /** Stable machine code, e.g. `approver/unknown-mode`, `schema/type`, `regex/invalid`. */
  code: string;
  severity: Severity;
  /** One lowercase sentence, no final period, user text in backticks. */
  message: string;
  /** Advice, shown apart from the message ("did you mean …"). */
  help?: string;
  span?: Span;
  /** JSON path of the offending node, e.g. `["approver","allow",0,"match"]`. */
  path?: (string | number)[];
  related?: RelatedInformation[];
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** Sort by file, then offset, then code: the order every tool prints in. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort((a, b) => {
    const fa = a.span?.file ?? '';
    const fb = b.span?.file ?? '';
    if (fa !== fb) return fa < fb ? -1 : 1;
    const oa = a.span?.start.offset ?? -1;
    const ob = b.span?.start.offset ?? -1;
    if (oa !== ob) return oa - ob;
    return a.code < b.code ? -1 : a.code > b.code ? 1 : 0;
  });
}
