import { it } from 'vitest';
import { analyzeApprover, diffPolicies } from './index.ts';
function big(n: number) {
  const tools = ['bash', 'read', 'write', 'edit', 'grep', 'glob', 'web_fetch', 'task', 'notebook', 'todo'];
  const cmds = ['ls', 'cat', 'git status', 'git diff', 'go test', 'npm test', 'make', 'rg', 'find', 'echo', 'pwd', 'head', 'tail', 'wc'];
  const allow: any[] = [], deny: any[] = [];
  for (let i = 0; i < n; i++) {
    const tool = tools[i % tools.length]!;
    if (i % 3 === 2) deny.push({ tool: i % 7 === 0 ? '' : tool, match: ['rm\\s+-rf', 'sudo', '"path":"/(etc|root|usr)/', 'curl .*\\|\\s*sh', `secret${i}`, '(?i)password', '\\.\\./'][i % 7] });
    else allow.push({ tool, match: tool === 'bash' ? `"command":\\s*"${cmds[i % cmds.length]}( |")` : `"path":"/workspace/${i}/[^"]*"` });
  }
  return { mode: 'pattern', default: 'deny', reason: '', input: 'raw' as const, allow, deny };
}
it('scratch', () => {
  const ir = big(100);
  let t = performance.now();
  const f = analyzeApprover(ir);
  console.log('analyze ms', performance.now() - t, f.length, f.filter(x => x.kind === 'unknown').length, f.map((x) => x.kind).join(','));
  t = performance.now();
  const ir2 = { ...ir, deny: [...ir.deny, { tool: 'bash', match: 'curl' }] };
  console.log(diffPolicies(ir, ir2).verdict, 'ms', performance.now() - t);
  t = performance.now();
  console.log(diffPolicies(ir, ir).verdict, 'ms', performance.now() - t);
  const c = { ...ir, input: 'canonical' as const };
  t = performance.now();
  const fc = analyzeApprover(c);
  console.log('canon analyze ms', performance.now() - t, fc.length, fc.filter(x => x.kind === 'unknown').map(x => (x as any).reason).slice(0,3));
});
