import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './hook-default-allow.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    { name: 'no agent named: the rule does not apply', code: y('approver:', '  mode: pattern', '  default: allow') },
    y('# verdict-hook-agent: claude', 'approver:', '  mode: pattern', '  default: deny', '  allow:', '    - {tool: Read}'),
    { name: 'default deny under --hook-agent', hookAgent: 'codex', code: y('approver: {mode: pattern}') },
  ],
  invalid: [
    {
      code: y('# verdict-hook-agent: codex', 'approver:', '  mode: pattern', '  default: allow', '  deny:', '    - {tool: Bash, match: sudo}'),
      errors: [
        {
          messageId: 'defaultAllow',
          line: 4,
          column: 12,
          message:
            '`default: allow` under Codex’s hook: every call no rule matches runs, including tools added in later versions, and Codex runs the tool on every hook failure (timeout, crash, invalid or unsupported output)',
        },
      ],
    },
    {
      name: 'allow_all under the configured agent',
      hookAgent: 'cursor',
      code: y('approver:', '  mode: allow_all'),
      errors: [{ messageId: 'allowAll', line: 2, column: 9 }],
    },
    {
      name: 'JSON, agent from the option',
      filename: 'p.json',
      hookAgent: 'gemini',
      code: '{"approver": {"mode": "pattern", "default": "allow"}}',
      errors: [{ messageId: 'defaultAllow', line: 1, column: 45 }],
    },
  ],
});
