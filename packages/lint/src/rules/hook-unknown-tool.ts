import { didYouMean } from '@verdict/compiler';
import { AGENT_CATALOGUES } from '@verdict/engine';
import { createRule } from '../create-rule.ts';
import { knownToolNames, readToolName } from '../support/hook-catalogue.ts';

export default createRule({
  id: 'hook/unknown-tool',
  meta: {
    description: 'a rule names a tool the agent whose hook runs the policy never sends',
    severity: 'warning',
    category: 'hook',
    messages: {
      unknown: '`{{tool}}` is not a tool {{title}} sends its hook, so this {{list}} rule never matches',
      emptyNeutral: '`{{tool}}` names no tool {{title}} sends its hook, so this {{list}} rule never matches',
    },
    help: {
      unknown: '{{suggestion}}',
      emptyNeutral: '{{title}} does not hook that kind of tool; its tools are {{tools}}',
    },
    docs: { recommended: true },
  },
  create(ctx) {
    const agent = ctx.hookAgent;
    if (agent === undefined) return;
    const { title, tools } = AGENT_CATALOGUES[agent];
    const names = knownToolNames(agent);
    const list = tools.map((t) => `\`${t.name}\``).join(', ');
    const main = tools.filter((t) => t.neutral !== undefined).map((t) => `\`${t.name}\``).join(', ');
    return {
      rule(rule, ruleList) {
        if (rule.tool === '') return;
        const reading = readToolName(agent, rule.tool);
        const at = rule.toolSpan !== undefined ? { span: rule.toolSpan } : { node: rule };
        if (reading.kind === 'unknown') {
          // `read` for `read_file`: another host's name inside this agent's.
          const word = rule.tool.toLowerCase();
          const near = didYouMean(rule.tool, names) ?? names.find((n) => word.length >= 3 && n.toLowerCase().split(/[_.]/).includes(word));
          const suggestion = near !== undefined ? `did you mean \`${near}\`?` : `${title}’s main tools are ${main}; a neutral name (\`shell\`, \`file.read\`, …) covers the same kind of tool in every agent`;
          ctx.report({ ...at, messageId: 'unknown', data: { tool: rule.tool, title, list: ruleList, suggestion } });
        } else if (reading.kind === 'tools' && reading.neutral && reading.tools.length === 0) {
          ctx.report({ ...at, messageId: 'emptyNeutral', data: { tool: rule.tool, title, list: ruleList, tools: list } });
        }
      },
    };
  },
});
