// TypeScript, CommonJS output under nodenext: require() of the ES module packages type-checks.
import engine = require('@verdict/engine');

const { approver } = engine.compileApprover({
  mode: 'pattern', default: 'deny', reason: 'denied', input: 'raw', allow: [], deny: [],
});
export const decision: 'allow' | 'deny' | undefined = approver?.approve({ toolName: 'read', input: '{}' }).decision;
