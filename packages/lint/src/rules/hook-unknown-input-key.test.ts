import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './hook-unknown-input-key.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    { name: 'no agent named', code: y('approver:', '  mode: pattern', '  allow:', '    - {tool: Read, field: path, match: ".*"}') },
    {
      code: y('# verdict-hook-agent: claude', 'approver:', '  mode: pattern', '  allow:', '    - {tool: Read, field: file_path, match: "/w/.*"}', '    - {tool: Bash, field: COMMAND, match: "ls"}', '    - {tool: shell, field: command, match: "ls"}'),
    },
    { name: 'undocumented inputs are not checked', hookAgent: 'cursor', code: y('approver:', '  mode: pattern', '  allow:', '    - {tool: Write, field: target_path, match: ".*"}') },
    { name: 'unknown tools are another rule’s business', hookAgent: 'claude', code: y('approver:', '  mode: pattern', '  allow:', '    - {tool: frob, field: x, match: ".*"}') },
  ],
  invalid: [
    {
      name: 'Claude Code’s Read takes file_path, not path',
      code: y('# verdict-hook-agent: claude', 'approver:', '  mode: pattern', '  allow:', '    - {tool: read, field: path, match: "/workspace/.*"}'),
      errors: [
        {
          messageId: 'unknownKey',
          line: 5,
          column: 27,
          message: 'Claude Code never sends `path` in the input of `read`, so this allow rule never matches',
          help: 'did you mean `file_path`? `read` sends `file_path`, `offset`, `limit`, `pages`',
        },
      ],
    },
    {
      name: 'a neutral name: the keys of every tool it stands for',
      hookAgent: 'gemini',
      code: y('approver:', '  mode: pattern', '  deny:', '    - {tool: file.write, field: path, match: ".*"}'),
      errors: [{ messageId: 'unknownKey', line: 4, column: 33 }],
    },
    {
      name: 'Codex sends one command string for Bash',
      hookAgent: 'codex',
      code: y('approver:', '  mode: pattern', '  allow:', '    - {tool: Bash, field: cmd, match: "ls"}'),
      errors: [{ messageId: 'unknownKey', line: 4, column: 27 }],
    },
  ],
});
