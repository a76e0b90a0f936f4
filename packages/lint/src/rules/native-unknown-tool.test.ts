import { runNativeRuleTests } from '../../test/support/rule-tester.ts';
import rule from './native-unknown-tool.ts';

runNativeRuleTests(rule, {
  valid: [
    { name: 'Gemini CLI: its tools, `*`, MCP names and a server tool', filename: '.gemini/policies/p.toml', code: '[[rule]]\ntoolName = ["read_file", "run_shell_command", "*", "mcp_github_list"]\ndecision = "allow"\npriority = 1\n\n[[rule]]\nmcpName = "linear"\ntoolName = "get_issue"\ndecision = "allow"\npriority = 1\n' },
    { name: 'Claude Code: its tools and MCP tools', filename: '.claude/settings.json', code: '{ "permissions": { "allow": ["Read", "Bash(ls)", "mcp__github", "WebFetch(domain:x.org)", "Skill(x)"] } }' },
    { name: 'Cursor: its rule types', filename: '.cursor/cli.json', code: '{ "permissions": { "allow": ["Shell(ls)", "Read(**)", "Write(src/**)", "WebFetch(x.org)", "Mcp(s:t)"] } }' },
  ],
  invalid: [
    {
      name: 'Gemini CLI: `run_command`, and a regular expression for a tool name',
      filename: '.gemini/policies/p.toml',
      code: '[[rule]]\ntoolName = "run_command"\ndecision = "ask_user"\npriority = 1\n\n[[rule]]\ntoolName = ".*"\ndecision = "deny"\npriority = 1\n',
      errors: [
        { messageId: 'unknown', line: 2, column: 12, message: 'Gemini CLI has no tool `run_command`: this ask_user rule never matches', help: 'did you mean `run_shell_command`?' },
        { messageId: 'pattern', line: 7, column: 12, message: '`.*` is compared as a tool name, not a pattern: this deny rule never matches' },
      ],
    },
    {
      name: 'Claude Code: a misspelt tool',
      filename: '.claude/settings.json',
      code: '{ "permissions": { "deny": ["Bahs(rm *)"] } }',
      errors: [{ messageId: 'unknown', line: 1, column: 29, message: 'Claude Code has no tool `Bahs`: this deny rule never matches', help: 'did you mean `Bash`?' }],
    },
    {
      name: 'Cursor: a rule type it does not have',
      filename: '.cursor/cli.json',
      code: '{ "permissions": { "deny": ["Bash(rm)"] } }',
      errors: [{ messageId: 'unknown', line: 1, column: 29 }],
    },
  ],
});
