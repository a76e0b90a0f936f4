import { AGENT_CATALOGUES, didYouMean } from '@verdict/engine';
import { CURSOR_RULE_TYPES } from '@verdict/native';
import { createNativeRule } from '../create-rule.ts';
import { geminiToolNames } from '../support/native-commands.ts';

/** Claude Code tools a permission rule may name beyond those its hook sees. */
const CLAUDE_EXTRA = ['Cd', 'KillShell', 'KillBash', 'BashOutput', 'SlashCommand', 'EnterPlanMode', 'ExitPlanMode', 'Skill', 'WebSearch', 'NotebookRead', 'LS'];
/** Gemini CLI names a policy rule may use for every tool, or as an alias. */
const GEMINI_EXTRA = ['*', 'ShellTool', 'codebase_investigator', 'save_memory', 'delegate_to_agent', 'get_internal_docs'];

export default createNativeRule({
  id: 'native/unknown-tool',
  meta: {
    description: "a rule in an agent's own permission file on a tool that agent does not have (Gemini CLI `run_command`, a regular expression written as a tool name, a Claude Code or Cursor tool misspelt): it never matches",
    severity: 'warning',
    category: 'native',
    messages: {
      unknown: '{{agent}} has no tool `{{tool}}`: this {{decision}} rule never matches',
      pattern: '`{{tool}}` is compared as a tool name, not a pattern: this {{decision}} rule never matches',
    },
    help: {
      unknown: '{{fix}}',
      pattern: 'name the tools (`toolName = ["read_file", "write_file"]`), or `"*"` for every tool',
    },
    docs: { recommended: true },
  },
  check(ctx) {
    const file = ctx.native;
    if (file.format === 'gemini-policy') {
      const known = [...AGENT_CATALOGUES.gemini.tools.map((t) => t.name), ...GEMINI_EXTRA];
      for (const rule of file.rules) {
        // With `mcpName`, `toolName` is the server's own tool name.
        if (rule.mcpName !== undefined) continue;
        for (const tool of geminiToolNames(rule)) {
          if (known.includes(tool) || (/^mcp_/.test(tool) && !/[.+?^$()[\]|\\]/.test(tool)) || /^[A-Za-z0-9_-]+__[A-Za-z0-9_-]+$/.test(tool)) continue;
          const decision = rule.decision?.value ?? '';
          if (/[.*+?^$()[\]|\\]/.test(tool)) ctx.report({ span: rule.toolName!.span, messageId: 'pattern', data: { tool, decision } });
          else ctx.report({ span: rule.toolName!.span, messageId: 'unknown', data: { agent: 'Gemini CLI', tool, decision, fix: hint(tool, known) } });
        }
      }
    }
    if (file.format === 'claude-settings') {
      const known = [...AGENT_CATALOGUES.claude.tools.map((t) => t.name), ...CLAUDE_EXTRA];
      for (const r of file.rules) {
        if (r.malformed !== undefined || known.includes(r.tool) || r.tool.startsWith('mcp__') || r.tool === '*') continue;
        ctx.report({ span: r.span, messageId: 'unknown', data: { agent: 'Claude Code', tool: r.tool, decision: r.list, fix: hint(r.tool, known) } });
      }
    }
    if (file.format === 'cursor-cli') {
      for (const r of file.rules) {
        if (r.malformed !== undefined || CURSOR_RULE_TYPES.includes(r.type)) continue;
        ctx.report({ span: r.span, messageId: 'unknown', data: { agent: 'Cursor', tool: r.type, decision: r.list, fix: hint(r.type, CURSOR_RULE_TYPES) } });
      }
    }
  },
});

function hint(tool: string, known: readonly string[]): string {
  const near = didYouMean(tool, known) ?? (tool === 'run_command' ? 'run_shell_command' : undefined);
  return near !== undefined ? `did you mean \`${near}\`?` : `its tools are ${known.filter((k) => k !== '*').slice(0, 12).map((k) => `\`${k}\``).join(', ')}…`;
}
