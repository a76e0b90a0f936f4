import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './hook-unknown-tool.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    { name: 'no agent named', code: y('approver:', '  mode: pattern', '  allow:', '    - {tool: frobnicate}') },
    {
      name: "the agent's own names, any case, neutral names and MCP names",
      code: y('# verdict-hook-agent: claude', 'approver:', '  mode: pattern', '  allow:', '    - {tool: Read}', '    - {tool: bash}', '    - {tool: file.read}', '    - {tool: mcp__github__list_issues}', '    - {tool: mcp__github}', '    - {tool: mcp}', '    - {match: x}'),
    },
    { name: 'Gemini and Cursor MCP names', hookAgent: 'gemini', code: y('approver:', '  mode: pattern', '  deny:', '    - {tool: mcp_github_delete_repo}') },
    { hookAgent: 'cursor', code: y('approver:', '  mode: pattern', '  deny:', '    - {tool: "MCP:delete_repo"}', '    - {tool: Shell}') },
  ],
  invalid: [
    {
      name: 'a Claude Code tool name under Gemini CLI, with the near name',
      code: y('# verdict-hook-agent: gemini', 'approver:', '  mode: pattern', '  allow:', '    - {tool: read_files, field: file_path, match: ".*"}'),
      errors: [{ messageId: 'unknown', line: 5, column: 14, help: 'did you mean `read_file`?' }],
    },
    {
      name: 'the workspace.yaml names are not Claude Code tools: `edit` is, `read` is, `web_fetch` is not',
      hookAgent: 'claude',
      code: y('approver:', '  mode: pattern', '  deny:', '    - {tool: web_fetch}'),
      errors: [
        {
          messageId: 'unknown',
          line: 4,
          column: 14,
          message: '`web_fetch` is not a tool Claude Code sends its hook, so this deny rule never matches',
          help: 'did you mean `WebFetch`?',
        },
      ],
    },
    {
      name: 'a neutral name the agent has no tool for',
      hookAgent: 'codex',
      code: y('approver:', '  mode: pattern', '  allow:', '    - {tool: web.fetch}'),
      errors: [{ messageId: 'emptyNeutral', line: 4, column: 14, help: 'Codex does not hook that kind of tool; its tools are `Bash`, `apply_patch`, `spawn_agent`, `view_image`, `get_goal`, `create_goal`, `update_goal`, `request_user_input`' }],
    },
    {
      name: 'a DSL policy',
      filename: 'p.verdict',
      code: y('# verdict-hook-agent: cursor', 'approver pattern default deny {', '  allow Terminal field command /ls/', '}'),
      errors: [{ messageId: 'unknown', line: 3, column: 9 }],
    },
  ],
});
