import { type ApprovalRequest, type ApproverIR, type AuditLogger, compileApprover, withAudit } from '@verdict/engine';

/** A default-deny approver for a coding agent; files load the same IR through @verdict/compiler. */
const ir: ApproverIR = {
  mode: 'pattern',
  default: 'deny',
  reason: 'denied — reads and `git status` only; ask the operator',
  input: 'canonical', // decode escapes and refuse repeated keys before matching
  allow: [{ tool: 'read', match: '' }, { tool: 'bash', field: 'command', match: 'git status' }],
  deny: [{ tool: 'bash', match: 'rm\\s+-rf|sudo' }],
};

export function createGate(logger: AuditLogger): (call: ApprovalRequest) => boolean {
  const { approver, issues } = compileApprover(ir);
  if (!approver) throw new Error(issues.map((i) => i.message).join('\n')); // Go's load-error text
  const audited = withAudit(approver, logger); // tool.execute / tool.denied events (pino fits)
  return (call) => audited.approve(call).decision === 'allow'; // never throws: errors deny
}
