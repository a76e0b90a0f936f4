/**
 * `rules/prefer-command-rule` says what the engine does: for each finding, the regex rule alone
 * decides the message's example against its intent (an allow allows the joined command, a deny or
 * ask lets the disguised program through), and the command rule its help suggests, judged by
 * `@verdict/shell` through `verdict explain`, does not.
 */
import { describe, expect, it } from 'vitest';
import { lintSource } from '@verdict/lint';
import { runCli } from './harness.ts';

/** A regex rule, its list, and the tool its example is sent to. */
const CASES: [list: 'allow' | 'ask' | 'deny', rule: string, tool: string][] = [
  ['allow', `{tool: Bash, match: '"command":"git (status|diff)'}`, 'Bash'],
  ['allow', '{tool: Bash, field: command, match: "ls .*"}', 'Bash'],
  ['allow', `{tool: Shell, match: '"command"\\s*:\\s*"npm\\s+test'}`, 'Shell'],
  ['allow', `{tool: bash, match: '"command":"ls( [^&]*)?"'}`, 'Bash'],
  ['deny', '{tool: Bash, match: "rm -rf"}', 'Bash'],
  ['deny', `{tool: Bash, match: '"command":"rm\\s'}`, 'Bash'],
  ['deny', '{tool: Bash, field: command, match: "curl .*"}', 'Bash'],
  ['deny', '{tool: Bash, match: "/usr/bin/sudo -i"}', 'Bash'],
  ['ask', '{tool: run_shell_command, field: command, match: "(git|hg) push( .*)?"}', 'run_shell_command'],
];

const policy = (list: string, rule: string): string =>
  [
    'approver:',
    '  mode: pattern',
    // The rule alone decides: the default is the other side of it.
    `  default: ${list === 'allow' ? 'deny' : 'allow'}`,
    `  ${list}:`,
    `    - ${rule}`,
    '',
  ].join('\n');

async function decide(policyText: string, tool: string, command: string): Promise<string> {
  const run = await runCli(['explain', '--policy', '-', '--tool', tool, '--input', JSON.stringify({ command }), '--format', 'json'], policyText);
  expect(run.stderr).toBe('');
  // The rules' own decision (a write the example makes to a protected path is the hook's deny on top).
  const j = JSON.parse(run.stdout) as { decision: string; by: string; rules?: { decision: string } };
  return j.by === 'protection' ? j.rules!.decision : j.decision;
}

describe('rules/prefer-command-rule: every example and suggestion, decided by the engine', () => {
  for (const [list, rule, tool] of CASES) {
    it(`${list} ${rule}`, async () => {
      const text = policy(list, rule);
      const found = lintSource(text, 'p.yaml', { only: ['rules/prefer-command-rule'] }).messages;
      expect(found.map((m) => m.ruleId)).toEqual(['rules/prefer-command-rule']);
      const { message, help } = found[0]!;
      const example = /(?:e\.g\.|written) `(.*?)`(?:, which|$)/.exec(message)?.[1];
      const suggestion = /`([^`]*)`$/.exec(help ?? '')?.[1];
      expect(example, message).toBeDefined();
      expect(suggestion, help).toBeDefined();
      // The regex rule decides the example against its intent: it allows the joined command, or
      // lets the disguised program through to the default…
      expect(await decide(text, tool, example!)).toBe('allow');
      // …and the command rule it suggests does not.
      expect(await decide(policy(list, suggestion!), tool, example!)).toBe(list === 'allow' ? 'deny' : list);
    });
  }
});
