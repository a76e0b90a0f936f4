/**
 * Stage `compile`: the approver through the engine (compat: invalid regexes leave an approver that
 * denies every call, as the reference does), and the run Policy if `validate` has not lowered it.
 */
import { compileApprover } from '@verdict/engine';
import { lowerPolicy } from './lower.ts';
import type { CompileState } from './types.ts';
import { approverIssueDiagnostic } from './validate.ts';

export function runCompile(state: CompileState): void {
  const ir = state.ir;
  if (!ir) return;
  if (ir.policy && !state.policy) state.policy = lowerPolicy(ir.policy);
  if (!ir.approver) return;
  const compat = state.options.compat === true;
  const { approver, issues } = compileApprover(ir.approver, state.options.commandJudge !== undefined ? { compat, commandJudge: state.options.commandJudge } : { compat });
  const placement: (string | number)[] =
    ir.approverPlacement === 'approver' ? ['approver'] : ir.approverPlacement === 'agent.approver' ? ['agent', 'approver'] : [];
  for (const issue of issues) {
    const d = approverIssueDiagnostic(ir.approver, issue, compat, placement);
    const dup = state.diagnostics.some(
      (x) => x.code === d.code && x.span?.start.offset === d.span?.start.offset && x.message === d.message,
    );
    if (!dup) state.diagnostics.push(d);
  }
  if (approver) state.approver = approver;
  else if (!state.diagnostics.some((d) => d.severity === 'error')) {
    state.diagnostics.push({
      code: 'internal/error',
      severity: 'error',
      message: 'the approver did not compile and no reason was given',
      help: 'this is a bug in verdict; please report it with the file that caused it',
    });
  }
}
