/**
 * One decision entry point over every native format: given the files of one agent (as read), answer a call in
 * that agent's own vocabulary with `allow | ask | deny | none` (`none`: no rule decides, the agent's own
 * fallback does: Claude Code's mode, Codex's heuristics and approval policy, Gemini CLI's default, Cursor's
 * approval mode), the deciding rule and where it is written, and what the model cannot decide.
 *
 * Codex and Gemini CLI delegate to their exact models (`codex/decide.ts`, `gemini/decide.ts`, proven against the
 * agents' engines by e2e/native-diff); Claude Code and Cursor follow their documentation (`claude/decide.ts`,
 * `cursor/decide.ts`).
 */
import type { Span } from '@verdict/engine';
import type { BashParser } from './bash-tree.ts';
import { loadBashParser } from './bash-tree.ts';
import type { ClaudeSettingsFile } from './claude.ts';
import { claudeModel } from './claude/decide.ts';
import type { ClaudeContext } from './claude/decide.ts';
import type { CodexRulesFile } from './codex-rules.ts';
import { codexRulesInput, compileCodexRules, decideCodexExec } from './codex/decide.ts';
import type { CursorCliFile } from './cursor.ts';
import { cursorModel } from './cursor/decide.ts';
import type { NativeFile } from './discover.ts';
import type { GeminiPolicyFile } from './gemini-policy.ts';
import { GEMINI_TIERS, geminiPolicy, geminiPolicyFileInput, loadGeminiPolicies } from './gemini/decide.ts';
import type { GeminiLoadedRule, GeminiMode, GeminiRunFacts } from './gemini/decide.ts';
import type { NativeAgent } from './types.ts';

export type NativeDecision = 'allow' | 'ask' | 'deny' | 'none';

/**
 * A call in the agent's vocabulary: a tool name and its input. The agent's shell tool (`NATIVE_SHELL_TOOL`) takes
 * `{command: text}`; for Codex an exec argv may be given as `{argv: [...]}` instead (a text is run as
 * `bash -lc text`, as Codex's shell tool runs it).
 */
export interface NativeCall {
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/** A rule as written, and where. */
export interface NativeRuleRef {
  readonly file: string;
  /** The rule's text (`Bash(git -C:*)`, `prefix_rule(["git", "-C"])`, `commandPrefix = "git"`…). */
  readonly text: string;
  /** The decision as the format writes it (`allow`, `forbidden`, `ask_user`…). */
  readonly written: string;
  readonly span: Span;
}

export interface NativeVerdict {
  readonly decision: NativeDecision;
  /** Every decision the agent can give (one element when the model decides it). */
  readonly possible: readonly NativeDecision[];
  readonly rule?: NativeRuleRef;
  /** What the model does not decide for this call (empty: decided by the agent's own or documented matching). */
  readonly cannotDecide: readonly string[];
}

export interface NativeDecider {
  readonly agent: NativeAgent;
  /** The agent's shell tool name in its calls. */
  readonly shellTool: string;
  /** Why the agent refuses the files at load (Codex: one error drops every rules file). */
  readonly loadErrors: readonly string[];
  decide(call: NativeCall): NativeVerdict;
}

/** The shell tool of each agent, as its calls name it (and as Verdict's starter policies do). */
export const NATIVE_SHELL_TOOL: Readonly<Record<NativeAgent, string>> = { claude: 'Bash', codex: 'Bash', gemini: 'run_shell_command', cursor: 'Shell' };

export interface NativeDeciderOptions extends ClaudeContext {
  /** The bash parser (Codex's and Gemini CLI's split); loaded when absent. */
  readonly bash?: BashParser;
  /** Gemini CLI: the run's mode and whether it is interactive (default: `default`, interactive). */
  readonly geminiMode?: GeminiMode;
  readonly nonInteractive?: boolean;
  /** Gemini CLI: the tier the policy files load at (default: user, as with `--policy`). */
  readonly geminiTier?: number;
  /**
   * Gemini CLI: the workspace, home and folder trust its built-in shell heuristics read (they decide for rules
   * without a pattern and for the no-rule default). Without them, a call the heuristics take part in gets every
   * decision they can give.
   */
  readonly geminiFacts?: GeminiRunFacts;
}

const CODEX: Readonly<Record<string, NativeDecision>> = { allow: 'allow', prompt: 'ask', forbidden: 'deny' };
const GEMINI: Readonly<Record<string, NativeDecision>> = { allow: 'allow', ask_user: 'ask', deny: 'deny' };

const sliceOf = (text: string | undefined, span: Span): string => (text ?? '').slice(span.start.offset, span.end.offset).replace(/\s+/g, ' ').trim();

/** The reference of a Claude Code or Cursor rule that decided (both keep `permissions` lists). */
function settingsRef(by: { readonly file: string; readonly rule: { readonly text: string; readonly list: string; readonly span: Span } } | undefined): NativeRuleRef | undefined {
  return by === undefined ? undefined : { file: by.file, text: by.rule.text, written: by.rule.list, span: by.rule.span };
}

/** The decider for the files of one agent (several files: Claude Code scopes, Codex rules files, Gemini policies). */
export async function nativeDecider(files: readonly NativeFile[], options: NativeDeciderOptions = {}): Promise<NativeDecider> {
  const agents = new Set(files.map((f) => f.agent));
  if (agents.size !== 1) throw new Error(agents.size === 0 ? 'no native file to decide with' : `files of several agents (${[...agents].join(', ')}) decide nothing together`);
  const agent = [...agents][0]!;
  const shellTool = NATIVE_SHELL_TOOL[agent];
  const commandOf = (call: NativeCall): string | undefined => (call.tool === shellTool && typeof call.input['command'] === 'string' ? (call.input['command'] as string) : undefined);
  const exact = (decision: NativeDecision, rule?: NativeRuleRef, cannotDecide: readonly string[] = []): NativeVerdict => ({ decision, possible: [decision], ...(rule ? { rule } : {}), cannotDecide });

  switch (agent) {
    case 'claude': {
      const model = claudeModel(files as ClaudeSettingsFile[], options);
      return {
        agent,
        shellTool,
        loadErrors: [],
        decide(call) {
          const o = model.decide(call);
          return { ...exact(o.decision, settingsRef(o.by), o.cannotDecide), ...(o.possible ? { possible: o.possible } : {}) };
        },
      };
    }
    case 'cursor': {
      const model = cursorModel(files as CursorCliFile[], options.cwd !== undefined ? { workspace: options.cwd } : {});
      return {
        agent,
        shellTool,
        loadErrors: [],
        decide(call) {
          const o = model.decide(call);
          return exact(o.decision, settingsRef(o.by), o.cannotDecide);
        },
      };
    }
    case 'codex': {
      const bash = options.bash ?? (await loadBashParser());
      const rulesFiles: CodexRulesFile[] = files.map((f) => (f.format === 'codex-rules' ? f : ({ ...f, format: 'codex-rules', hostExecutables: [], networkRules: [] } as unknown as CodexRulesFile)));
      const read = codexRulesInput(rulesFiles);
      const { policy, errors } = compileCodexRules(read.input);
      const loadErrors = [...read.errors, ...errors].map((e) => (e.at ? `${rulesFiles[Math.floor(e.at.start.offset / 1e9)]?.file ?? ''}:${e.at.start.line}: ${e.message}` : e.message));
      // codexRulesInput orders files by shifting offsets 1e9 per file: undo it to find the rule as written.
      const refOf = (at: Span | undefined, decision: string): NativeRuleRef | undefined => {
        if (at === undefined) return undefined;
        const f = rulesFiles[Math.floor(at.start.offset / 1e9)];
        const offset = at.start.offset % 1e9;
        const r = f?.prefixRules.find((p) => p.span.start.offset === offset);
        if (f === undefined || r === undefined) return undefined;
        return { file: f.file, text: sliceOf(f.text, r.span), written: decision, span: r.span };
      };
      return {
        agent,
        shellTool,
        loadErrors,
        decide(call) {
          if (loadErrors.length > 0) return exact('none', undefined, [`Codex loads none of these rules: ${loadErrors[0]}`]);
          const argv = Array.isArray(call.input['argv']) && call.tool === shellTool ? (call.input['argv'] as string[]) : undefined;
          const command = commandOf(call);
          if (argv === undefined && command === undefined) return exact('none', undefined, call.tool === shellTool ? ['a shell call without a command'] : []);
          const check = decideCodexExec(policy, bash, argv ?? ['bash', '-lc', command!]);
          const d = check.decision ?? check.atLeast;
          if (d === undefined) return exact('none');
          const by = check.perCommand.flatMap((c) => c.matchedRules).find((m) => m.decision === d);
          return exact(CODEX[d]!, refOf(by?.at, d));
        },
      };
    }
    case 'gemini': {
      const bash = options.bash ?? (await loadBashParser());
      const tier = options.geminiTier ?? GEMINI_TIERS.user;
      const policies = files.filter((f): f is GeminiPolicyFile => f.format === 'gemini-policy');
      const settings = files.filter((f) => f.format === 'gemini-settings' && f.entries.length > 0);
      const { rules, issues } = loadGeminiPolicies(policies.map((f) => geminiPolicyFileInput(f, tier)));
      const mode = options.geminiMode ?? 'default';
      const policy = geminiPolicy(rules, bash, { mode, nonInteractive: options.nonInteractive === true, ...(options.geminiFacts !== undefined ? { facts: options.geminiFacts } : {}) });
      const fallback = options.nonInteractive === true ? 'deny' : 'ask_user';
      const refOf = (rule: GeminiLoadedRule | undefined): NativeRuleRef | undefined => {
        if (rule?.at === undefined) return undefined;
        const f = policies.find((p) => p.file === rule.source) ?? policies.find((p) => p.rules.some((r) => r.span.start.offset === rule.at!.start.offset));
        const r = f?.rules.find((x) => x.span.start.offset === rule.at!.start.offset);
        if (f === undefined || r === undefined) return undefined;
        const keys = ['toolName', 'mcpName', 'commandPrefix', 'commandRegex', 'argsPattern', 'decision', 'priority'];
        const text = r.keys.filter((k) => keys.includes(k.key)).map((k) => `${k.key} = ${JSON.stringify(k.value)}`).join(', ');
        return { file: f.file, text, written: rule.decision, span: r.span };
      };
      const settingsNote = settings.length > 0 ? ['the tool lists of Gemini CLI settings files (`tools.allowed`, `tools.core`…) are not modelled here'] : [];
      return {
        agent,
        shellTool,
        loadErrors: issues.filter((i) => i.kind === 'file-dropped').map((i) => `${i.file}: ${i.message}`),
        decide(call) {
          const o = policy.decide({ name: call.tool, args: call.input });
          const possible = [...new Set(o.decisions.map((d) => (o.rule === undefined && d === fallback && o.decisions.length === 1 ? 'none' : GEMINI[d]!)))];
          const cannot = [...(o.decisions.length > 1 ? o.notModelled : []), ...settingsNote];
          const decision: NativeDecision = possible.length === 1 ? possible[0]! : o.rule !== undefined ? GEMINI[o.rule.decision]! : 'none';
          const rule = refOf(o.rule);
          return { decision, possible, ...(rule ? { rule } : {}), cannotDecide: cannot };
        },
      };
    }
  }
}
