/**
 * Audit events (semantics.md A5): `tool.execute` (info) for an allowed call, `tool.denied` (warn,
 * with tool name and reason) for a denied one, `tool.error` (warn) for a call that ran and failed.
 * Logging never changes a decision: a logger that throws is ignored.
 */
import { failClosed, toApproval } from './builtins.ts';
import type {
  ApprovalRequest,
  ApprovalResult,
  Approver,
  AuditEvent,
  AuditLogger,
  CompiledApprover,
  RuleRef,
  RuledResult,
} from './types.ts';

/** The event for one decision; `rule` (when known) names the deciding rule, `null` the default. */
export function auditEventFor(request: ApprovalRequest, result: ApprovalResult, rule?: RuleRef | null): AuditEvent {
  const base = { toolName: String(request?.toolName) };
  const session = typeof request?.sessionId === 'string' ? { sessionId: request.sessionId } : {};
  const ruleField = rule === undefined ? {} : { rule };
  return result.decision === 'allow'
    ? { event: 'tool.execute', level: 'info', ...base, ...session, ...ruleField }
    : { event: 'tool.denied', level: 'warn', ...base, ...session, reason: result.reason, ...ruleField };
}

/**
 * Sends `event` to `logger` at its level; never throws. The level is the method called, not a field
 * of the logged object: pino writes its own numeric `level` and appends the object's keys without
 * removing duplicates, so a `level` field would give every audit line two `level` keys.
 */
export function emitAudit(logger: AuditLogger, event: AuditEvent): void {
  try {
    const { level, ...fields } = event;
    if (level === 'info') logger.info(fields, event.event);
    else logger.warn(fields, event.event);
  } catch {
    // An audit sink failure must not turn into a different decision.
  }
}

/** Wraps `approver` so every decision is reported to `logger`. `explain` (when present) is kept and not logged. */
export function withAudit(approver: CompiledApprover, logger: AuditLogger): CompiledApprover;
export function withAudit(approver: Approver, logger: AuditLogger): Approver;
export function withAudit(approver: Approver, logger: AuditLogger): Approver {
  const compiled = approver as Partial<CompiledApprover>;
  const decideFn = compiled.decide;
  const explain = compiled.explain;
  const answersFn = compiled.answers;
  /** Decides (fail closed), logs, and names the rule when the approver can. */
  const decideAndLog = (request: ApprovalRequest): RuledResult => {
    let rule: RuleRef | null = null;
    let result: ApprovalResult;
    let asked = false;
    if (typeof decideFn === 'function') {
      let ruled: RuledResult | undefined;
      // An `ask` is logged as what `approve` answers: a deny with the ask reason.
      result = failClosed(() => toApproval((ruled = decideFn.call(approver, request))));
      // A result that failClosed had to replace keeps no rule: the rule must explain the decision.
      if (ruled !== undefined && toApproval(ruled).decision === result.decision && ruled.reason === result.reason) {
        rule = ruled.rule;
        asked = ruled.decision === 'ask';
      }
    } else {
      result = failClosed(() => approver.approve(request));
    }
    try {
      emitAudit(logger, auditEventFor(request, result, typeof decideFn === 'function' ? rule : undefined));
    } catch {
      // As above: the decision stands.
    }
    return { decision: asked ? 'ask' : result.decision, reason: result.reason, rule };
  };
  const approve = (request: ApprovalRequest): ApprovalResult => toApproval(decideAndLog(request));
  if (typeof decideFn === 'function' && typeof explain === 'function' && typeof answersFn === 'function') {
    // `answers` is not logged: it is what `decideCall` combines, not a decision.
    const audited: CompiledApprover = { approve, decide: decideAndLog, explain: (request) => explain.call(approver, request), answers: (request) => answersFn.call(approver, request) };
    return audited;
  }
  return { approve };
}

/** Reports a call that was approved, ran, and failed (`tool.error`, warn). Never throws. */
export function auditToolError(logger: AuditLogger, toolName: string, error: unknown, sessionId?: string): void {
  let message: string;
  try {
    message = error instanceof Error ? error.message : String(error);
  } catch {
    message = 'unprintable error';
  }
  const event: AuditEvent = {
    event: 'tool.error',
    level: 'warn',
    toolName,
    ...(sessionId === undefined ? {} : { sessionId }),
    error: message,
  };
  emitAudit(logger, event);
}
