// Plain Node, ES module: judge a compound shell command with @verdict/shell's command rules.
import { compileCommandRules, judge } from '@verdict/shell';

const compiled = compileCommandRules({ allow: [{ command: ['git', ['status', 'diff']] }, { command: ['head'] }], deny: [{ command: ['rm'] }] });
if (!compiled.ok) throw new Error('rules');
for (const text of ['git status && git diff --stat | head -20', "git status && bash -c 'timeout 5 \\rm -rf /'"]) {
  const j = judge(compiled.rules, text);
  console.log(`${j.decision} ${j.reason}`);
}
