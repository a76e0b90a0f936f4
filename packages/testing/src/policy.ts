/** Policies under test: a compiled approver, with the rules and examples it was compiled from. */
import { type CompileOptions, compileFile, compileSource } from '@verdict/compiler';
import { type ApproverIR, type CompiledApprover, compileApprover, type Diagnostic, type Explanation, hasErrors, type TestCaseIR } from '@verdict/engine';
import type { ToolCall } from './calls.ts';

export interface PolicyUnderTest {
  /** A name for messages: the file, or a label. */
  name: string;
  approver: CompiledApprover;
  /** The configuration, when known: its rules seed the generated calls. */
  config?: ApproverIR;
  /** The file's inline tests, when known: their inputs seed the generated calls too. */
  tests?: readonly TestCaseIR[];
}

export type LoadPolicyResult = { ok: true; policy: PolicyUnderTest; diagnostics: Diagnostic[] } | { ok: false; diagnostics: Diagnostic[] };

function fromCompiled(name: string, result: { ir?: { approver?: ApproverIR; tests: TestCaseIR[] }; diagnostics: Diagnostic[]; approver?: CompiledApprover }): LoadPolicyResult {
  if (hasErrors(result.diagnostics) || !result.approver) {
    const diagnostics = result.approver || hasErrors(result.diagnostics)
      ? result.diagnostics
      : [...result.diagnostics, { code: 'testing/no-approver', severity: 'error' as const, message: `\`${name}\` has no approver block` }];
    return { ok: false, diagnostics };
  }
  const policy: PolicyUnderTest = { name, approver: result.approver };
  if (result.ir?.approver) policy.config = result.ir.approver;
  if (result.ir) policy.tests = result.ir.tests;
  return { ok: true, policy, diagnostics: result.diagnostics };
}

/** Compiles a policy file (YAML, JSON or `.verdict`). */
export function loadPolicy(file: string, options: CompileOptions = {}): LoadPolicyResult {
  return fromCompiled(file, compileFile(file, options));
}

/** Compiles policy text, as if read from `file` (its extension picks the syntax). */
export function policyFromSource(text: string, file = 'policy.yaml', options: CompileOptions = {}): LoadPolicyResult {
  return fromCompiled(file, compileSource(text, file, options));
}

/** The policy of a load result, or an error listing why it cannot load: for test code, where that is a broken test. */
export function mustLoad(result: LoadPolicyResult): PolicyUnderTest {
  if (!result.ok) throw new Error(`policy cannot load: ${result.diagnostics.map((d) => d.message).join('; ')}`);
  return result.policy;
}

/** A policy from an approver configuration. */
export function policyFromConfig(config: ApproverIR, name = 'policy'): PolicyUnderTest {
  const { approver, issues } = compileApprover(config);
  if (!approver) throw new Error(`policy cannot load: ${issues.map((i) => i.message).join('; ')}`);
  return { name, approver, config };
}

/** The engine's explanation of one call (never throws: an internal error denies). */
export function decide(p: PolicyUnderTest, call: ToolCall): Explanation {
  try {
    return p.approver.explain({ toolName: call.tool, input: call.input });
  } catch (err) {
    const reason = `approver: internal error: ${err instanceof Error ? err.message : String(err)}`;
    return { decision: 'deny', reason, rule: null, by: 'internal-error', match: null, alsoMatched: [] };
  }
}
