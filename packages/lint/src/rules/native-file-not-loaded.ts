import { createNativeRule } from '../create-rule.ts';
import { AGENT_NAME } from '../support/native-rules.ts';

const DECISIONS = ['allow', 'deny', 'ask_user'];

export default createNativeRule({
  id: 'native/file-not-loaded',
  meta: {
    description: "a permission file its agent drops or never loads: a Codex rules file the loader refuses (then no rules file loads), a Gemini CLI policy whose priority is out of range or whose rule fails the schema (the whole file is dropped), a symlinked rules file (Codex and Gemini CLI skip them)",
    severity: 'error',
    category: 'native',
    messages: {
      codexRefused: 'this rules file is refused by Codex ({{reason}}), and then none of its rules files load',
      requirementsRefused: 'this `requirements.toml` entry is refused by Codex ({{reason}})',
      priority: 'a priority of {{priority}} is outside 0–999: Gemini CLI rejects the whole file, so no rule in it applies',
      schema: 'the whole file is rejected by Gemini CLI: `{{key}}` {{why}}, so no rule in it applies',
      symlink: '{{agent}} skips symbolic links among its rules files: none of the rules in this file apply',
    },
    help: {
      codexRefused: 'fix this call: one refused file leaves the agent with the requirements rules only (or, in newer versions, keeps it from starting)',
      requirementsRefused: 'fix this entry',
      priority: 'use priorities from 0 to 999 (a higher one wins; Gemini CLI adds the tier, so a user policy at 999 is 4.999)',
      schema: '{{fix}}',
      symlink: 'copy the file into the rules folder, or for Gemini CLI name it in `policyPaths`',
    },
    docs: { recommended: true },
  },
  check(ctx) {
    const file = ctx.native;
    if (ctx.symlink && (file.format === 'codex-rules' || file.format === 'gemini-policy')) {
      ctx.report({ span: { file: ctx.file, start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } }, messageId: 'symlink', data: { agent: AGENT_NAME[file.agent] } });
    }
    if (file.format === 'codex-rules') for (const e of file.loadErrors) ctx.report({ span: e.span, messageId: 'codexRefused', data: { reason: e.message } });
    if (file.format === 'codex-requirements') for (const e of file.loadErrors) ctx.report({ span: e.span, messageId: 'requirementsRefused', data: { reason: e.message } });
    if (file.format === 'gemini-policy') {
      const count = file.rules.length;
      for (const rule of file.rules) {
        const has = (k: string): boolean => rule.keys.some((x) => x.key === k);
        const at = (k: string) => rule.keys.find((x) => x.key === k)?.valueSpan ?? rule.span;
        if (rule.priority !== undefined && (!Number.isInteger(rule.priority.value) || rule.priority.value < 0 || rule.priority.value > 999)) {
          ctx.report({ span: rule.priority.span, messageId: 'priority', data: { priority: rule.priority.value, count } });
        } else if (has('priority') && rule.priority === undefined) {
          ctx.report({ span: at('priority'), messageId: 'schema', data: { key: 'priority', why: 'is not a number', count, fix: 'write an integer from 0 to 999' } });
        }
        const d = rule.decision?.value;
        if (d !== undefined && !DECISIONS.includes(d)) ctx.report({ span: rule.decision!.span, messageId: 'schema', data: { key: 'decision', why: `is \`${d}\`, not \`allow\`, \`deny\` or \`ask_user\``, count, fix: d === 'ask' ? 'write `ask_user`' : 'write `allow`, `deny` or `ask_user`' } });
        else if (d === undefined && has('decision')) ctx.report({ span: at('decision'), messageId: 'schema', data: { key: 'decision', why: 'is not a string', count, fix: 'write `allow`, `deny` or `ask_user`' } });
        for (const [key, ok] of [['toolName', rule.toolName], ['commandPrefix', rule.commandPrefix], ['commandRegex', rule.commandRegex], ['argsPattern', rule.argsPattern], ['modes', rule.modes], ['mcpName', rule.mcpName]] as const) {
          if (has(key) && ok === undefined) ctx.report({ span: at(key), messageId: 'schema', data: { key, why: 'has the wrong type', count, fix: key === 'modes' ? 'write a list of mode names' : key === 'commandPrefix' || key === 'toolName' ? 'write a string or a list of strings' : 'write a string' } });
        }
      }
    }
  },
});
