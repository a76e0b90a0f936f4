import { compileApprover, type ApproverIR } from '@verdict/engine';
import { compileFile } from '@verdict/compiler';

// An approver from rules held in code: the engine alone.
const ir: ApproverIR = {
  mode: 'pattern',
  default: 'deny',
  reason: 'denied: reads and `git status` only',
  input: 'canonical', // decode JSON escapes before matching
  allow: [{ tool: 'read', match: '' }, { tool: 'bash', field: 'command', match: 'git status' }],
  deny: [{ tool: 'bash', match: 'rm\\s+-rf|sudo' }],
};
const { approver, issues } = compileApprover(ir);
if (!approver) throw new Error(issues.map((i) => i.message).join('\n'));
const call = { toolName: 'bash', input: '{"command":"rm -rf /"}' };
console.log(approver.approve(call).decision); // deny

// The same from a policy file (YAML, JSON or .verdict): @verdict/compiler.
const result = compileFile('policy.yaml');
for (const d of result.diagnostics) console.error(`${d.span?.file}:${d.span?.start.line}: ${d.message}`);
console.log(result.approver?.approve({ toolName: 'read', input: '{"path":"README.md"}' }).decision); // allow
