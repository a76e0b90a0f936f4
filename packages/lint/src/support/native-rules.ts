/**
 * The shell rules of any native file in one shape, for the `native/*` rules that judge commands:
 * which words a rule fixes, whether more may follow, its decision as the agent names it, and where
 * it is written.
 */
import { AGENT_CATALOGUES, HOOK_AGENTS, type Span } from '@verdict/engine';
import type { NativeFile } from '@verdict/native';
import { commandPrefixPattern } from '@verdict/native';
import { claudeShape, GEMINI_SHELL_TOOLS, geminiToolNames, wordsOf, type NativeAgentName } from './native-commands.ts';
import { codexRuleMatches, geminiLoaded, geminiRuleMatches, geminiRunOf, type ModelRun, type Witness } from './native-model.ts';

export type ShellDecision = 'allow' | 'ask' | 'deny';

export interface ShellRule {
  decision: ShellDecision;
  /** The decision as the format writes it (`forbidden`, `ask_user`…). */
  written: string;
  words: string[][];
  open: boolean;
  span: Span;
  /** The rule covers every command of the shell tool. */
  whole: boolean;
  /** What the rule is, as written (`Bash(git log:*)`, `prefix_rule(["git", "-C"])`, `commandPrefix = "env"`). */
  text: string;
  /** The index of the rule in the file's own list (Codex prefix rules, Gemini rules). */
  index: number;
  /**
   * Whether the rule matches a command, by the agent's own engine (`native-model.ts`): set for Codex and
   * Gemini CLI policy files, whose matching `@verdict/native` models exactly.
   */
  matches?: (w: Witness) => boolean;
  /** The run the rule applies in (Gemini CLI `modes`, `interactive`): questions about it are asked there. */
  run?: ModelRun;
}

export const AGENT_NAME: Readonly<Record<NativeFile['agent'], NativeAgentName>> = Object.fromEntries(HOOK_AGENTS.map((a) => [a, AGENT_CATALOGUES[a].title])) as Record<NativeFile['agent'], NativeAgentName>;

const quoteList = (words: readonly (readonly string[])[]): string =>
  `[${words.map((alts) => (alts.length === 1 ? JSON.stringify(alts[0]) : `[${alts.map((a) => JSON.stringify(a)).join(', ')}]`)).join(', ')}]`;

/** The shell rules of a file: Claude Code `Bash(...)`, Codex prefix rules, Gemini CLI shell rules, Cursor `Shell(...)`. */
export function shellRules(file: NativeFile): ShellRule[] {
  const out: ShellRule[] = [];
  switch (file.format) {
    case 'claude-settings':
      for (const r of file.rules) {
        if (r.tool !== 'Bash' || r.malformed !== undefined) continue;
        const decision: ShellDecision = r.list;
        if (r.specifier === undefined || r.specifier.trim() === '*' || r.specifier.trim() === '') {
          out.push({ decision, written: r.list, words: [], open: true, span: r.span, whole: true, text: r.text, index: r.index });
          continue;
        }
        const shape = claudeShape(r.specifier);
        // A `*` before the end (`git * main`) is no prefix: the rules that judge words leave it.
        if (shape === undefined) continue;
        out.push({ decision, written: r.list, words: shape.words.map((w) => [w]), open: shape.open, span: r.span, whole: false, text: r.text, index: r.index });
      }
      break;
    case 'codex-rules':
    case 'codex-requirements':
      file.prefixRules.forEach((r, index) => {
        const decision: ShellDecision = r.decision === 'forbidden' ? 'deny' : r.decision === 'prompt' ? 'ask' : 'allow';
        out.push({ decision, written: r.decision, words: r.pattern.map((t) => t.alternatives), open: true, span: r.patternSpan, whole: false, text: `prefix_rule(${quoteList(r.pattern.map((t) => t.alternatives))})`, index, matches: (w) => codexRuleMatches(file, index, w.words) });
      });
      break;
    case 'gemini-policy':
      for (const r of file.rules) {
        if (!geminiToolNames(r).some((t) => GEMINI_SHELL_TOOLS.includes(t))) continue;
        const d = r.decision?.value;
        const decision: ShellDecision | undefined = d === 'allow' ? 'allow' : d === 'deny' ? 'deny' : d === 'ask_user' ? 'ask' : undefined;
        if (decision === undefined) continue;
        // The rules Gemini CLI loads from the table: none for `commandPrefix = []`, one per prefix otherwise.
        const loaded = geminiLoaded(file, r.span).filter((l) => GEMINI_SHELL_TOOLS.includes(l.toolName));
        if (loaded.length === 0) continue;
        const prefix = r.commandPrefix?.value;
        const whole = loaded.find((l) => l.argsPattern === undefined);
        if (whole !== undefined) {
          out.push({ decision, written: d ?? '', words: [], open: true, span: r.commandPrefix?.span ?? r.decision?.span ?? r.span, whole: true, text: prefix === '' ? 'commandPrefix = ""' : `toolName = ${JSON.stringify(geminiToolNames(r).find((t) => GEMINI_SHELL_TOOLS.includes(t)))}`, index: r.index, matches: () => true, run: geminiRunOf(whole) });
          continue;
        }
        if (prefix === undefined || prefix === '') continue;
        const items = typeof prefix === 'string' ? [{ value: prefix, span: r.commandPrefix?.span ?? r.span }] : (r.commandPrefixItems ?? []);
        for (const item of items) {
          if (item.value.trim() === '') continue;
          const compiled = loaded.find((l) => l.argsPattern === commandPrefixPattern(item.value));
          if (compiled === undefined) continue;
          out.push({ decision, written: d ?? '', words: wordsOf(item.value).map((w) => [w]), open: true, span: item.span, whole: false, text: `commandPrefix ${JSON.stringify(item.value)}`, index: r.index, matches: (w) => geminiRuleMatches(compiled, w.text), run: geminiRunOf(compiled) });
        }
      }
      break;
    case 'cursor-cli':
      for (const r of file.rules) {
        if (r.type !== 'Shell' || r.argument === undefined || r.malformed !== undefined) continue;
        const decision: ShellDecision = r.list;
        const colon = r.argument.indexOf(':');
        const base = colon < 0 ? r.argument : r.argument.slice(0, colon);
        const args = colon < 0 ? undefined : r.argument.slice(colon + 1);
        if (base.trim() === '*' || base.trim() === '') {
          out.push({ decision, written: r.list, words: [], open: true, span: r.span, whole: true, text: r.text, index: r.index });
          continue;
        }
        const argWords = args === undefined || args.trim() === '*' ? [] : wordsOf(args.replace(/\*$/, ''));
        const baseWords = wordsOf(base.replace(/\s*\*$/, ''));
        // A glob inside the command base, or a space (the base is the first word): not a prefix these rules can read.
        if (baseWords.some((w) => w.includes('*')) || baseWords.length > 1) continue;
        out.push({ decision, written: r.list, words: [...baseWords, ...argWords].map((w) => [w]), open: args === undefined || args.endsWith('*') || base.trim().endsWith('*'), span: r.span, whole: false, text: r.text, index: r.index });
      }
      break;
    case 'gemini-settings':
      // `tools.allowed` (and `allowedTools`) skip confirmation for the shell commands they name, by
      // prefix; `tools.core` (`coreTools`) narrows the shell to them. `tools.exclude` is never a match.
      file.entries.forEach((e, index) => {
        if (!['tools.allowed', 'allowedTools', 'tools.core', 'coreTools'].includes(e.setting) || !GEMINI_SHELL_TOOLS.includes(e.tool)) return;
        if (e.argument === undefined || e.argument.trim() === '') {
          if (e.setting === 'tools.allowed' || e.setting === 'allowedTools') out.push({ decision: 'allow', written: 'allow', words: [], open: true, span: e.span, whole: true, text: e.text, index });
          return;
        }
        out.push({ decision: 'allow', written: 'allow', words: wordsOf(e.argument).map((w) => [w]), open: true, span: e.span, whole: false, text: e.text, index });
      });
      break;
  }
  return out;
}
