import type { ClaudeRule, GeminiPolicyFile, GeminiRule } from '@verdict/native';
import { commandPrefixPattern } from '@verdict/native';
import { createNativeRule } from '../create-rule.ts';
import { claudeMatches, GEMINI_SHELL_TOOLS, geminiToolNames, showCommand } from '../support/native-commands.ts';
import { geminiLoaded, geminiRuleMatches } from '../support/native-model.ts';
import { AGENT_NAME, shellRules, type ShellRule } from '../support/native-rules.ts';

export default createNativeRule({
  id: 'native/scope-conflict',
  meta: {
    description: "a rule of an agent's own permission file that never decides, because a broader rule of a stricter list always wins over it (Claude Code: deny, then ask, then allow; Codex: the strictest match) or a broader rule of another decision comes first (Gemini CLI: the higher priority)",
    severity: 'warning',
    category: 'native',
    messages: {
      voided: 'this {{agent}} {{decision}} `{{rule}}` never decides: the {{other}} `{{by}}` on line {{line}} matches everything it matches, and {{why}}',
      shadowed: 'this Gemini CLI {{decision}} rule never decides: the {{other}} rule on line {{line}} (priority {{high}}) matches every call it matches and comes first (priority {{low}})',
    },
    help: {
      voided: 'narrow the {{other}} rule, or drop this one: it only misleads a reader',
      shadowed: 'give this rule a higher priority than the rule on line {{line}}, or narrow that rule (in Gemini CLI a higher priority wins whatever the decision)',
    },
    docs: { recommended: true },
  },
  check(ctx) {
    const file = ctx.native;
    const agent = AGENT_NAME[file.agent];
    if (file.format === 'claude-settings' || file.format === 'codex-rules' || file.format === 'codex-requirements') {
      const rank = { deny: 2, ask: 1, allow: 0 } as const;
      const rules = shellRules(file);
      for (const r of rules) {
        const by = rules.find((o) => rank[o.decision] > rank[r.decision] && covers(file.format, o, r));
        if (by === undefined) continue;
        ctx.report({
          span: r.span,
          messageId: 'voided',
          data: { agent, decision: r.written, rule: r.text, other: by.written, by: by.text, line: by.span.start.line, why: file.format === 'claude-settings' ? `Claude Code applies ${by.written} rules before ${r.written} rules` : 'Codex takes the strictest decision of every rule that matches' },
        });
      }
      if (file.format === 'claude-settings') claudeTools(file.rules);
    }
    if (file.format === 'gemini-policy') {
      const rules = file.rules.filter((g) => g.decision !== undefined && g.priority !== undefined);
      for (const low of rules) {
        const high = rules.find((h) => h !== low && (h.priority?.value ?? 0) > (low.priority?.value ?? 0) && h.decision?.value !== low.decision?.value && geminiCovers(file, h, low));
        if (high === undefined) continue;
        ctx.report({ span: low.span, messageId: 'shadowed', data: { decision: low.decision?.value ?? '', other: high.decision?.value ?? '', line: high.span.start.line, high: high.priority?.value ?? 0, low: low.priority?.value ?? 0 } });
      }
    }

    /** Claude Code rules on other tools: a bare tool name in a stricter list voids every rule of that tool below it. */
    function claudeTools(all: readonly ClaudeRule[]): void {
      const rank = { deny: 2, ask: 1, allow: 0 } as const;
      for (const r of all) {
        if (r.tool === 'Bash' || r.specifier === undefined) continue;
        const by = all.find((o) => o.tool === r.tool && o.specifier === undefined && rank[o.list] > rank[r.list]);
        if (by !== undefined) ctx.report({ span: r.span, messageId: 'voided', data: { agent, decision: r.list, rule: r.text, other: by.list, by: by.text, line: by.span.start.line, why: `Claude Code applies ${by.list} rules before ${r.list} rules` } });
      }
    }
  },
});

/** Whether every command `inner` matches, `outer` matches too. */
function covers(format: string, outer: ShellRule, inner: ShellRule): boolean {
  if (outer.whole) return true;
  if (inner.whole) return false;
  if (format === 'claude-settings') {
    // `outer` is a prefix glob (`X *`, `X:*`, `X*`); `inner`'s fixed text starts with it.
    const text = inner.words.map((w) => w[0]).join(' ');
    if (!outer.open) return !inner.open && outer.words.map((w) => w[0]).join(' ') === text;
    const spec = outer.text.slice(outer.text.indexOf('(') + 1, -1);
    if (spec.indexOf('*') !== spec.length - 1 && !spec.endsWith(':*')) return false;
    const innerSpec = inner.text.slice(inner.text.indexOf('(') + 1, -1).trim();
    const runsOn = inner.open && !innerSpec.endsWith(' *') && !innerSpec.endsWith(':*');
    return claudeMatches(spec, text) && (inner.open ? claudeMatches(spec, `${text} x`) : true) && (!runsOn || claudeMatches(spec, `${text}x`));
  }
  // Codex: prefix matching, so `outer` matches every command `inner` does iff it matches each of the
  // shortest ones (one per choice of `inner`'s alternatives), by Codex's own matching (native-model.ts).
  if (outer.matches === undefined) return false;
  const shortest = inner.words.reduce<string[][] | undefined>((acc, alts) => (acc === undefined || acc.length * alts.length > 256 ? undefined : acc.flatMap((w) => alts.map((a) => [...w, a]))), [[]]);
  return shortest !== undefined && shortest.length > 0 && shortest.every((words) => outer.matches!({ words, text: showCommand(words) }));
}

/**
 * Gemini CLI: `high` has no pattern, or a shell prefix that matches every command each prefix of `low`
 * matches, on the same tools, as Gemini CLI's loader compiles both (`native-model.ts`). A prefix rule
 * matches exactly the commands that start with its text and then a space, a quote or the end, so
 * `high` matches all of them iff it matches the prefix alone and the prefix followed by a word.
 */
function geminiCovers(file: GeminiPolicyFile, high: GeminiRule, low: GeminiRule): boolean {
  const ht = geminiToolNames(high);
  const lt = geminiToolNames(low);
  if (ht.length === 0 || lt.length === 0) return false;
  if (high.mcpName?.value !== low.mcpName?.value && high.mcpName !== undefined) return false;
  if (!(ht.includes('*') || lt.every((t) => ht.includes(t)))) return false;
  if (high.modes !== undefined && (low.modes === undefined || !low.modes.value.every((m) => high.modes?.value.includes(m)))) return false;
  if (high.interactive !== undefined && high.interactive.value !== low.interactive?.value) return false;
  if (high.subagent !== undefined && high.subagent.value !== low.subagent?.value) return false;
  if (high.toolAnnotations !== undefined) return false;
  // What the loader makes of each table: `commandPrefix = []` loads no rule, so it neither shadows nor is shadowed.
  const highLoaded = geminiLoaded(file, high.span);
  const lowLoaded = geminiLoaded(file, low.span);
  if (highLoaded.length === 0 || lowLoaded.length === 0) return false;
  if (highLoaded.some((h) => h.argsPattern === undefined)) return true;
  if (!lt.every((t) => GEMINI_SHELL_TOOLS.includes(t)) || high.commandRegex !== undefined || high.argsPattern !== undefined) return false;
  const lp = low.commandPrefix?.value;
  if (lp === undefined || lp === '') return false;
  const los = (typeof lp === 'string' ? [lp] : lp).filter((l) => lowLoaded.some((r) => r.argsPattern === commandPrefixPattern(l)));
  return los.length > 0 && los.every((l) => highLoaded.some((h) => geminiRuleMatches(h, l) && geminiRuleMatches(h, `${l} x`)));
}
