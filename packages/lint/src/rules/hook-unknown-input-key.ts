import { didYouMean } from '@verdict/compiler';
import { AGENT_CATALOGUES, caseFold } from '@verdict/engine';
import { createRule } from '../create-rule.ts';
import { inputKeys, readToolName } from '../support/hook-catalogue.ts';

export default createRule({
  id: 'hook/unknown-input-key',
  meta: {
    description: 'a `field` rule reads an input key the agent never sends for that tool',
    severity: 'warning',
    category: 'hook',
    messages: {
      unknownKey: '{{title}} never sends `{{field}}` in the input of `{{tool}}`, so this {{list}} rule never matches',
    },
    help: {
      unknownKey: '{{suggestion}}',
    },
    docs: { recommended: true },
  },
  create(ctx) {
    const agent = ctx.hookAgent;
    if (agent === undefined) return;
    const { title } = AGENT_CATALOGUES[agent];
    return {
      rule(rule, list) {
        if (rule.field === undefined || rule.tool === '') return;
        const reading = readToolName(agent, rule.tool);
        if (reading.kind !== 'tools') return;
        const found = inputKeys(reading.tools);
        if (found === undefined) return;
        // `verdict hook` asks each file a Codex patch touches as `file.write` with `{"file_path": …}`.
        const keys = agent === 'codex' && caseFold(rule.tool) === caseFold('file.write') ? [...found, 'file_path'] : found;
        // The engine compares field names under case folding.
        if (keys.some((k) => caseFold(k) === caseFold(rule.field!))) return;
        // `path` for `file_path`: the key other agents (and older policies) use, inside this agent's.
        const f = caseFold(rule.field);
        const near = didYouMean(rule.field, keys) ?? keys.find((k) => caseFold(k).endsWith(`_${f}`) || caseFold(k).startsWith(`${f}_`));
        const suggestion = `${near !== undefined ? `did you mean \`${near}\`? ` : ''}\`${rule.tool}\` sends ${keys.map((k) => `\`${k}\``).join(', ')}`;
        ctx.report({
          ...(rule.fieldSpan !== undefined ? { span: rule.fieldSpan } : { node: rule }),
          messageId: 'unknownKey',
          data: { title, field: rule.field, tool: rule.tool, list, suggestion },
        });
      },
    };
  },
});
