/**
 * The intermediate representation every syntax (YAML, JSON, `.verdict`) lowers to.
 * After `parse`, no stage knows which syntax a policy came from. Values are kept as written
 * (mode not yet trimmed, default not yet lowercased) so validation can quote the original;
 * every node keeps the span it came from.
 */
import type { Span } from './diagnostics.ts';

/** The reference approver's two decisions (what `Approver.approve` returns). */
export type Decision = 'allow' | 'deny';
/**
 * A pattern approver's decision, with `ask` (a Verdict extension): the call needs a person's
 * confirmation. Only `decide`, `explain` and tests see `ask`; `approve` answers it with a deny.
 */
export type RuledDecision = Decision | 'ask';
export type RuleList = 'allow' | 'deny' | 'ask';
export type InputMode = 'raw' | 'canonical';

/** A value as written in the source, with where it was written. */
export interface Located<T> {
  value: T;
  span?: Span;
}

export interface RuleIR {
  /** Tool name as written; `""` when absent (matches every tool). */
  tool: string;
  /** RE2 pattern as compiled (after the source syntax's own unescaping); `""` when absent. */
  match: string;
  /** Optional top-level field the pattern is anchored against (A4.3). */
  field?: string;
  /** Span of the whole rule. */
  span?: Span;
  toolSpan?: Span;
  /** Span of the pattern text in the source (for regex diagnostics). */
  matchSpan?: Span;
  /** Span of the `field` value; also set when it was written empty (`field: ""`, `field:`), which is no field. */
  fieldSpan?: Span;
}

export interface ApproverIR {
  /** Mode as written (`" Pattern "`), `""` when absent. */
  mode: string;
  /** Default as written, `""` when absent. */
  default: string;
  reason: string;
  input: InputMode;
  allow: RuleIR[];
  deny: RuleIR[];
  /**
   * Rules whose calls need a person's confirmation (a Verdict extension): deny > ask > allow.
   * Absent (or empty): the approver decides exactly as the reference does.
   */
  ask?: RuleIR[];
  span?: Span;
  modeSpan?: Span;
  defaultSpan?: Span;
  reasonSpan?: Span;
  inputSpan?: Span;
}

/** Run Policy as written in a file (semantics.md B1); `undefined` fields are absent (inherit/zero). */
export interface PolicyIR {
  sandbox?: Located<string>;
  webSearch?: Located<string>;
  browser?: Located<string>;
  approvals?: ApprovalsIR;
  span?: Span;
}

export interface ApprovalsIR {
  permission?: Located<string>;
  planReview?: Located<string>;
  question?: Located<string>;
  /** Go duration string as written (`"30s"`). */
  timeout?: Located<string>;
  onTimeout?: Located<string>;
  onReject?: Located<string>;
  maxRetries?: Located<number>;
  span?: Span;
}

/** `driver:` as written: a built-in name or a descriptor file path. */
export interface DriverRefIR {
  ref: string;
  span?: Span;
}

export interface TestCaseIR {
  name?: string;
  tool: string;
  /** Raw JSON text of the tool input, exactly as the approver will see it. */
  input: string;
  expect: RuledDecision;
  /** Expected reason, when given. */
  reason?: string;
  /** Expected deciding rule, when given: `deny[0]`, `ask[1]`, `allow[2]` or `default`. */
  rule?: string;
  span?: Span;
}

export interface PolicyFileIR {
  file: string;
  driver?: DriverRefIR;
  policy?: PolicyIR;
  approver?: ApproverIR;
  tests: TestCaseIR[];
  /** Where the approver block sat in the source (for messages only). */
  approverPlacement?: 'bare' | 'approver' | 'agent.approver';
}
