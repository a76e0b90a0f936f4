import type { Span } from '../diagnostics.ts';
import type { Decision, RuleList, RuledDecision } from '../ir.ts';
import type { Answer } from './call.ts';
import type { ShellExplanation } from './shell.ts';

/** A tool call to decide (semantics.md A1). `input` is the raw JSON text, byte for byte. */
export interface ApprovalRequest {
  toolName: string;
  input: string;
  sessionId?: string;
}

export interface ApprovalResult {
  decision: Decision;
  /** `""` for allows from allow-all; non-empty on every deny. */
  reason: string;
}

/** The approver contract: synchronous, total, never throws (fail closed). */
export interface Approver {
  approve(request: ApprovalRequest): ApprovalResult;
}

/** Which rule decided, where it is written, and what it matched. */
export interface RuleRef {
  list: RuleList;
  index: number;
  span?: Span;
}

export interface MatchSpan {
  /** UTF-16 offsets into the text the pattern ran on (raw input, canonical text or field value). */
  start: number;
  end: number;
  /** Which text the span indexes. */
  subject: 'raw' | 'canonical' | 'field';
  /** The matched text itself. */
  text: string;
}

/**
 * A decision that may be `ask` (`decide`, `explain`): `""` reason for allows; on `ask` the ask
 * reason (`DEFAULT_ASK_REASON`), on `deny` the deny reason.
 */
export interface RuledDecisionResult {
  decision: RuledDecision;
  reason: string;
}

export interface Explanation extends RuledDecisionResult {
  /** The deciding rule; `null` when the default, the mode, or an input/compile failure decided. */
  rule: RuleRef | null;
  /** What decided, when no rule did. */
  by: 'rule' | 'default' | 'mode' | 'invalid-input' | 'compile-error' | 'internal-error' | 'command';
  match: MatchSpan | null;
  /** Every other rule that also matched (deny, then ask, then allow, each in list order). */
  alsoMatched: RuleRef[];
  /** The canonical text when `input: canonical` and the input was accepted. */
  canonical?: string;
  /**
   * Set when the deciding rule's span was not looked for: finding it could cost up to `instructions`
   * (the pattern's program) × `characters` (the text) steps, past explain's budget. The decision and
   * the rules are exact either way (they are found as `approve` finds them); only `match` is missing.
   */
  spanOmitted?: { instructions: number; characters: number };
  /** For a shell tool with command rules: what the command rules said, and about which executed command. */
  shell?: ShellExplanation;
}

/** A decision with the rule that made it (`null`: the default, the mode or an input failure decided). */
export interface RuledResult extends RuledDecisionResult {
  rule: RuleRef | null;
}

/**
 * An approver compiled from a configuration, able to explain itself. `approve` keeps the reference
 * contract (allow or deny): a call an `ask` rule decides is denied there, with the ask reason, so a
 * host that cannot ask a person never runs it. `decide` and `explain` report `ask` as it is.
 */
export interface CompiledApprover extends Approver {
  /** The decision and its deciding rule, at the cost of `approve` (the hot path used by `verdict eval`). */
  decide(request: ApprovalRequest): RuledResult;
  /** Everything about the decision (match span, other matching rules): slower, for people. */
  explain(request: ApprovalRequest): Explanation;
  /**
   * The answers of the call on the fast path, each with how it came about: the regex rules' and, for
   * a shell tool with command rules, the command rules' (`call.ts` `decideCall` combines them).
   * Never empty, never throws.
   */
  answers(request: ApprovalRequest): Answer[];
}

/** Audit events (semantics.md A5): a host plugs pino or its own logger in. */
export type AuditEventName = 'tool.execute' | 'tool.denied' | 'tool.error';

export interface AuditEvent {
  event: AuditEventName;
  level: 'info' | 'warn';
  toolName: string;
  sessionId?: string;
  reason?: string;
  rule?: RuleRef | null;
  error?: string;
}

/** The subset of pino's (and console's) interface we call. */
export interface AuditLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}
