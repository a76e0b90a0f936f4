// Plain Node, CommonJS: require() of the ES module packages (Node >= 20.19).
const { compileApprover } = require('@verdict/engine');
const { compileFile } = require('@verdict/compiler');

const { approver } = compileApprover({
  mode: 'pattern', default: 'deny', reason: 'denied', input: 'raw',
  allow: [{ tool: 'read', match: '' }], deny: [],
});
console.log(JSON.stringify(approver.approve({ toolName: 'read', input: '{}' })));
console.log(compileFile('policy.yaml').approver?.approve({ toolName: 'bash', input: '{"command":"rm -rf /"}' }).decision);
