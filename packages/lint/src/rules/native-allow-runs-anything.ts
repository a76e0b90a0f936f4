import { shlexSplit } from '@verdict/native';
import { createNativeRule } from '../create-rule.ts';
import { allowHole } from '../support/native-commands.ts';
import { nativeModel } from '../support/native-model.ts';
import { AGENT_NAME, shellRules } from '../support/native-rules.ts';

/** What to write instead, in each agent's format. */
const INSTEAD: Readonly<Record<string, string>> = {
  'Claude Code': 'write the exact commands (`Bash(git log --oneline)`), not a program and `*`, or move the rule to `ask`',
  Codex: 'write the whole commands (`["git", ["status", "diff"]]`), or `decision = "prompt"`: a Codex allow also skips the sandbox',
  'Gemini CLI': 'name the whole command (`commandPrefix = "git status"`), never a wrapper or runner alone, or use `ask_user`',
  Cursor: 'allow the exact commands (`Shell(git:status)`), not the program with any arguments',
};

export default createNativeRule({
  id: 'native/allow-runs-anything',
  meta: {
    description: "an allow in an agent's own permission file that lets any program run or any file be written: a shell, interpreter, wrapper or runner with its command open, or a program whose open options run code (`git -c`, `find -exec`, `sed e`, `rsync -e`, `gh api`…, the capability table of `@verdict/shell`)",
    severity: 'warning',
    category: 'native',
    messages: {
      hole: 'this {{agent}} allow `{{rule}}` also allows `{{witness}}`, which can {{what}} ({{why}})',
      holeUndecided: "this {{agent}} allow `{{rule}}` may also allow `{{witness}}`, which can {{what}} ({{why}}): the file asks for it, but Gemini CLI's built-in shell heuristics, which read the workspace and the folder's trust (not modelled here), may allow it",
      everything: 'this {{agent}} allow `{{rule}}` allows every shell command',
      tool: 'this {{agent}} allow `{{rule}}` allows every call of `{{tool}}`{{note}}',
      bypassMode: '`defaultMode: bypassPermissions` runs every call without a prompt; only deny rules still apply',
    },
    help: {
      holeUndecided: '{{instead}}; or let Verdict decide in the hook: its command rules let a capability through only when the rule names it (docs/shell.md "Capabilities")',
      hole: '{{instead}}; or let Verdict decide in the hook: its command rules let a capability through only when the rule names it (docs/shell.md "Capabilities")',
      everything: 'list the commands the agent may run instead; everything else then waits for a person',
      tool: 'scope it (`{{tool}}(…)`) to what the agent needs',
      bypassMode: 'use `acceptEdits` or `default`, and allow the commands the agent needs',
    },
    docs: { recommended: true },
  },
  check(ctx) {
    const file = ctx.native;
    const agent = AGENT_NAME[file.agent];
    for (const r of shellRules(file)) {
      if (r.decision !== 'allow') continue;
      if (r.whole) {
        ctx.report({ span: r.span, messageId: 'everything', data: { agent, rule: r.text } });
        continue;
      }
      // A witness counts when the agent's own engine (Codex, Gemini CLI) lets it through under this rule:
      // the rule matches it (a `commandPrefix = "git "` matches only `git  status`) and the file allows it.
      const model = nativeModel(file);
      const undecided = new Set<string>();
      const admits = r.matches === undefined ? undefined : (witness: string): boolean => {
        const words = shlexSplit(witness);
        if (words === undefined || !r.matches!({ words, text: witness })) return false;
        const v = model?.decide({ words, text: witness }, r.run);
        if (v === undefined || v.decision === 'allow') return true;
        // Undecided (Gemini CLI's heuristics): counted, and said.
        if (v.bound !== undefined) undecided.add(witness);
        return v.bound !== undefined;
      };
      const hole = allowHole({ words: r.words, open: r.open, agent, ...(admits !== undefined ? { admits } : {}) });
      if (hole === undefined) continue;
      ctx.report({ span: r.span, messageId: undecided.has(hole.witness) ? 'holeUndecided' : 'hole', data: { agent, rule: r.text, witness: hole.witness, what: hole.what, why: hole.why, instead: INSTEAD[agent] ?? '' } });
    }
    if (file.format === 'claude-settings') {
      for (const r of file.rules) {
        if (r.list !== 'allow' || r.specifier !== undefined || r.malformed !== undefined) continue;
        const note = r.tool === 'Edit' || r.tool === 'Write' ? ': any file in the working directories' : r.tool === 'WebFetch' ? ': any URL' : undefined;
        if (note !== undefined) ctx.report({ span: r.span, messageId: 'tool', data: { agent, rule: r.text, tool: r.tool, note } });
      }
      if (file.defaultMode?.value === 'bypassPermissions') ctx.report({ span: file.defaultMode.span, messageId: 'bypassMode' });
    }
  },
});
