// Plain Node, ES module: import the engine and decide a call.
import { compileApprover } from '@verdict/engine';

const { approver } = compileApprover({
  mode: 'pattern', default: 'allow', reason: 'no', input: 'raw', allow: [],
  deny: [{ tool: 'bash', match: 'rm -rf' }],
});
const r = approver.approve({ toolName: 'Bash', input: '{"command":"rm -rf /"}' });
console.log(JSON.stringify(r));
