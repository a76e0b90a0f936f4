import type { ClaudeModel, NativeFile } from '@verdict/native';
import { claudeModel } from '@verdict/native';
import { createNativeRule } from '../create-rule.ts';
import { respellings, showCommand, type Respelling } from '../support/native-commands.ts';
import { nativeModel, RANK } from '../support/native-model.ts';
import { AGENT_NAME, shellRules, type ShellRule } from '../support/native-rules.ts';

/** What to write instead, in each agent's format (`%p`: the rule's program). */
const INSTEAD: Readonly<Record<string, string>> = {
  'Claude Code': 'add the respelling as a rule too, or deny the program itself (`Bash(%p:*)`): a deny has no exceptions',
  Codex: 'prompt for the program and the wrappers that run it (`[["%p", "env", "command"]]`); Codex has no exceptions, so its safe forms prompt too',
  'Gemini CLI': 'add a rule for the respelling, or deny the program itself at a higher priority',
  Cursor: 'add the respelling as a rule too (Cursor matches the first word)',
};

/**
 * Which respellings to try on agents without an exact model (Codex and Gemini CLI decide every one
 * through their engines' models): those their documented matching is known to miss.
 */
function applies(agent: NativeFile['agent'], how: string): boolean {
  // Claude Code: its glob over the text is documented; how it treats a global option (`git -C`) changed across versions and is not verified.
  if (agent === 'claude') return /order|apart|after an operand|`\.\//.test(how);
  if (agent === 'cursor') return /`env`|`command`|by its path|quoted|escaped/.test(how);
  return true;
}

export default createNativeRule({
  id: 'native/deny-walked-around',
  meta: {
    description: 'a deny or ask in an agent\'s own permission file that the same command written another way walks around, under that agent\'s own matching (option order, a global option, a wrapper, a path, quoting), with the respelling',
    severity: 'warning',
    category: 'native',
    messages: {
      walked: '`{{witness}}` ({{how}}) runs what this {{agent}} {{decision}} rule `{{rule}}` stops, but the rule does not match it{{then}}',
      walkedUndecided: "`{{witness}}` ({{how}}) runs what this {{agent}} {{decision}} rule `{{rule}}` stops, but the rule does not match it{{then}}, and Gemini CLI's built-in shell heuristics, which read the workspace and the folder's trust (not modelled here), may allow it",
    },
    help: {
      walked: '{{instead}}; or decide in Verdict\'s hook, whose command rules read the command as the shell runs it (docs/shell.md)',
      walkedUndecided: '{{instead}}; or decide in Verdict\'s hook, whose command rules read the command as the shell runs it (docs/shell.md)',
    },
    docs: { recommended: true },
  },
  check(ctx) {
    const file = ctx.native;
    const agent = AGENT_NAME[file.agent];
    const rules = shellRules(file);
    for (const r of rules) {
      if (r.decision === 'allow' || r.whole || r.words.length === 0) continue;
      const words = r.words.map((alts) => alts[0] ?? '');
      for (const s of respellings(words)) {
        if (!applies(file.agent, s.how)) continue;
        const outcome = walksAround(file, rules, r, s);
        if (outcome === undefined) continue;
        ctx.report({ span: r.span, messageId: outcome.undecided ? 'walkedUndecided' : 'walked', data: { witness: s.text ?? showCommand(s.words), how: s.how, agent, decision: r.written, rule: r.text, then: outcome.then, instead: (INSTEAD[agent] ?? '').replace('%p', words[0] ?? '') } });
        break;
      }
    }
  },
});

const claudeModels = new WeakMap<NativeFile, ClaudeModel>();

function claudeModelOf(file: Extract<NativeFile, { format: 'claude-settings' }>): ClaudeModel {
  let model = claudeModels.get(file);
  if (model === undefined) {
    model = claudeModel([file]);
    claudeModels.set(file, model);
  }
  return model;
}

/**
 * `undefined` when the file still stops the respelling as strictly; else what then decides it, and
 * whether the agent's heuristics (not modelled) may decide it otherwise.
 */
function walksAround(file: NativeFile, rules: readonly ShellRule[], rule: ShellRule, s: Respelling): { then: string; undecided?: boolean } | undefined {
  const text = s.text ?? showCommand(s.words);
  const model = nativeModel(file);
  if (model !== undefined) {
    // The agent's own engine decides the respelling; what its model leaves open counts as the looser outcome.
    const v = model.decide({ words: s.words, text }, rule.run);
    const stops = v.decision !== undefined && RANK[v.decision] >= RANK[rule.decision];
    if (stops && v.bound === undefined) return undefined;
    const what = v.line !== undefined ? `the rule on line ${v.line} decides \`${v.written ?? v.decision}\`` : v.decision === undefined ? "no rule matches it, so Codex's own heuristics decide" : 'no rule matches it, so Gemini CLI asks';
    return v.bound !== undefined ? { then: `: ${what}`, undecided: true } : { then: `: ${what}` };
  }
  switch (file.format) {
    case 'claude-settings': {
      // Claude Code's model (`@verdict/native`, to its documentation) decides the respelling: a deny or ask
      // as strict as the rule's stops it.
      const decision = claudeModelOf(file).decide({ tool: 'Bash', input: { command: text } }).decision;
      if (decision === 'deny' || (rule.decision === 'ask' && decision === 'ask')) return undefined;
      return { then: ' (by its documented matching)' };
    }
    case 'cursor-cli': {
      const first = s.words[0];
      if (rules.some((o) => o.decision === 'deny' && (o.whole || o.words[0]?.[0] === first))) return undefined;
      return { then: ' (by its documentation: the first word is matched)' };
    }
    default:
      return undefined;
  }
}
