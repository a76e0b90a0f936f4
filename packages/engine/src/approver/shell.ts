/**
 * Command rules on shell tools: the engine's side of them. The engine does not parse shell text; a
 * `CommandJudge` does (the CLI and the compiler pass `@verdict/shell`'s in). An embedder without
 * command rules needs none.
 *
 * For a call to a tool named in the approver's `shell:` table (absent: `DEFAULT_SHELL_TOOLS`), the
 * command text is read from the tool's field and judged by the command rules written for that tool
 * (or for every tool). The judgement is one more answer of the call beside the regex rules' (`answers`);
 * `call.ts` `precedence` combines them (semantics.md A8). Text the judge cannot read (input that is
 * not a JSON object with a string field) gets the `unknown` decision, never an allow.
 */
import { parseStrictJson, topLevelMember } from '../canonical/canonical.ts';
import { caseFold } from '../canonical/casefold.ts';
import type { Span } from '../diagnostics.ts';
import { eachRule } from '../ir.ts';
import type { ApproverIR, RuleIR, RuleList, RuledDecision } from '../ir.ts';
import { internalErrorReason, toApproval } from './builtins.ts';
import { decideCall, precedence } from './call.ts';
import type { Answer, AskedAnswer } from './call.ts';
import type { PatternApprover } from './pattern.ts';
import type { ApprovalRequest, ApprovalResult, CompiledApprover, Explanation, RuleRef, RuledResult } from './types.ts';

/** One command rule as the judge gets it: its place in the policy and what it says. */
export interface CommandRuleSpec {
  readonly list: RuleList;
  readonly index: number;
  readonly command?: readonly (string | readonly string[])[];
  readonly args?: string;
  readonly redirect?: string;
}

export interface WrapperSpecIR {
  readonly flags?: readonly string[];
  readonly options?: readonly string[];
  readonly positionals?: number;
  readonly noCommand?: readonly string[];
  readonly refuse?: readonly string[];
}

/** The command rules of one shell tool. */
export interface CommandRuleSet {
  readonly rules: readonly CommandRuleSpec[];
  readonly unknown: 'ask' | 'deny';
  readonly wrappers: Readonly<Record<string, WrapperSpecIR>>;
  /** Variables the policy calls harmless to assign (the IR's `environment`). */
  readonly environment?: readonly string[];
  /** The shells that may run the text (`bash`, `zsh`, `sh`, `any`; absent: any): the tool's own, else the approver's. */
  readonly shells?: readonly string[];
}

/** What the judge decided about one command text. */
export interface CommandJudgement {
  /** `null`: no command rule decides (the regex rules or the default do). */
  readonly decision: RuledDecision | null;
  /** One sentence naming the command (or the construct that could not be modelled) and the rule. */
  readonly reason: string;
  /** The rule that decided (its list and index in the policy). */
  readonly rule?: { readonly list: RuleList; readonly index: number };
  /** The executed command that decided, as a person would type it back. */
  readonly command?: string;
  /** Where in the command text the deciding command (or construct) is: UTF-16 offsets. */
  readonly span?: { readonly start: number; readonly end: number };
}

export interface CommandJudge {
  /** Pure and total: never throws for any text. */
  judge(text: string): CommandJudgement;
}

/** Builds a judge from a tool's command rules; `error` when a rule cannot be compiled. */
export type CommandJudgeFactory = (rules: CommandRuleSet) => CommandJudge | { error: string; rule?: { list: RuleList; index: number } };

/** A tool that carries shell text, and the input field holding it. */
export interface ShellTool {
  readonly tool: string;
  readonly field: string;
  /** The shells that may run this tool's text, over the approver's `shells`. */
  readonly shells?: readonly string[];
}

/**
 * The agents' shell tools (Claude Code and Codex `Bash`, Gemini CLI `run_shell_command`, Cursor
 * `Shell` and its `beforeShellExecution` event), each with its text in `command`. PowerShell is not
 * here: its text is not a POSIX shell's.
 */
export const DEFAULT_SHELL_TOOLS: readonly ShellTool[] = [
  { tool: 'Bash', field: 'command' },
  { tool: 'run_shell_command', field: 'command' },
  { tool: 'Shell', field: 'command' },
];

/** Whether a rule is a command rule (judged over executed commands, not as a regex). */
export function isCommandRule(rule: RuleIR): boolean {
  return rule.command !== undefined || rule.redirect !== undefined || rule.args !== undefined;
}

/** A command rule's argv prefix as a policy writes it: each word a string or a list of alternatives. */
export type CommandPrefix = readonly (string | readonly string[])[];

/** The alternatives of each word of a prefix: `[git, [status, diff]]` → `[[git], [status, diff]]`. */
export function commandAlternatives(command: CommandPrefix): string[][] {
  return command.map((w) => (typeof w === 'string' ? [w] : [...w]));
}

/**
 * Every argv a prefix stands for, one alternative per position (`[git, [status, diff]]` → `git
 * status`, `git diff`); `null` when there are more than `max`, or a word has no alternative.
 */
export function commandCombinations(command: CommandPrefix, max: number): string[][] | null {
  const alts = commandAlternatives(command);
  let count = 1;
  for (const a of alts) {
    count *= a.length;
    if (count > max || a.length === 0) return null;
  }
  let out: string[][] = [[]];
  for (const a of alts) out = out.flatMap((prefix) => a.map((w) => [...prefix, w]));
  return out;
}

/** The shell table an approver uses. */
export function shellToolsOf(ir: ApproverIR): readonly ShellTool[] {
  return ir.shell ?? DEFAULT_SHELL_TOOLS;
}

/** The shells that may run a shell tool's text as the policy writes them: the tool's own `shells`, else the approver's (absent: any). */
export function shellsOf(ir: ApproverIR, tool: ShellTool): readonly string[] | undefined {
  return tool.shells ?? ir.shells;
}

/** What the command-rule layer of an approver explains (`Explanation.shell`). */
export interface ShellExplanation {
  /** The field the text was read from. */
  readonly field: string;
  readonly decision: RuledDecision | null;
  readonly reason: string;
  readonly rule: RuleRef | null;
  readonly command?: string;
  /** UTF-16 offsets into the field's text, and the text there. */
  readonly span?: { readonly start: number; readonly end: number; readonly text: string };
}

interface ToolJudge {
  /** The field as the policy writes it (messages), and folded (lookup). */
  readonly fieldName: string;
  readonly field: string;
  readonly judge: CommandJudge;
}

export interface CommandLayerOptions {
  /** Judges by folded tool name. */
  readonly judges: ReadonlyMap<string, ToolJudge>;
  readonly unknown: 'ask' | 'deny';
  /** Rule spans, for rule references. */
  readonly spanOf: (list: RuleList, index: number) => Span | undefined;
}

/** Builds the per-tool judges; an error names the rule or says why. */
export function buildCommandJudges(
  ir: ApproverIR,
  unknown: 'ask' | 'deny',
  factory: CommandJudgeFactory,
): { judges: Map<string, ToolJudge> } | { error: string; rule?: { list: RuleList; index: number } } {
  const commandRules: (CommandRuleSpec & { tool: string })[] = [];
  for (const { rule: r, list, index } of eachRule(ir, ['deny', 'ask', 'allow'])) {
    if (!isCommandRule(r)) continue;
    commandRules.push({
      list,
      index,
      tool: caseFold(r.tool),
      ...(r.command !== undefined ? { command: r.command } : {}),
      ...(r.args !== undefined ? { args: r.args } : {}),
      ...(r.redirect !== undefined ? { redirect: r.redirect } : {}),
    });
  }
  const wrappers: Record<string, WrapperSpecIR> = {};
  for (const [name, w] of Object.entries(ir.wrappers ?? {})) {
    const { span: _span, ...spec } = w;
    wrappers[name] = spec;
  }
  const judges = new Map<string, ToolJudge>();
  if (commandRules.length === 0) return { judges };
  for (const t of shellToolsOf(ir)) {
    const folded = caseFold(t.tool);
    if (judges.has(folded)) continue;
    const rules = commandRules.filter((r) => r.tool === '' || r.tool === folded).map(({ tool: _t, ...r }) => r);
    const shells = shellsOf(ir, t);
    const judge = factory({ rules, unknown, wrappers, ...(ir.environment !== undefined ? { environment: ir.environment } : {}), ...(shells !== undefined ? { shells } : {}) });
    if ('error' in judge) return judge;
    judges.set(folded, { fieldName: t.field, field: caseFold(t.field), judge });
  }
  return { judges };
}

/** The command text of a call, or `null` when it cannot be read. */
function commandText(input: string, foldedField: string): string | null {
  const parsed = parseStrictJson(input);
  if (!parsed.ok) return null;
  const member = topLevelMember(parsed.value, foldedField);
  return member?.kind === 'string' ? member.value : null;
}

/** Wraps a compiled regex approver with the command rules of its shell tools. */
export function withCommandRules(inner: PatternApprover, options: CommandLayerOptions): CompiledApprover {
  const { judges, unknown, spanOf } = options;
  const ref = (rule: { list: RuleList; index: number } | undefined): RuleRef | null => {
    if (rule === undefined) return null;
    const span = spanOf(rule.list, rule.index);
    return span === undefined ? { list: rule.list, index: rule.index } : { list: rule.list, index: rule.index, span };
  };
  // The shell tool a tool name (as sent) stands for, remembered per name: folding the name on every
  // call cost other tools' calls about 9 % (bench/src/shell-policy.ts).
  const byName = new Map<string, ToolJudge | null>();
  const judgeFor = (name: string): ToolJudge | null => {
    let v = byName.get(name);
    if (v === undefined) {
      v = judges.get(caseFold(name)) ?? null;
      if (byName.size >= 1024) byName.clear();
      byName.set(name, v);
    }
    return v;
  };
  /** The command side of a call, or `undefined` when the tool is not a shell tool with command rules. */
  const judgeCall = (request: ApprovalRequest): ShellExplanation | undefined => {
    const tj = judgeFor(request.toolName);
    if (tj === null) return undefined;
    const text = commandText(request.input, tj.field);
    if (text === null) {
      return {
        field: tj.fieldName,
        decision: unknown,
        reason: `the input has no string \`${tj.fieldName}\` holding a command: the call cannot be judged`,
        rule: null,
      };
    }
    const j = tj.judge.judge(text);
    return {
      field: tj.fieldName,
      decision: j.decision,
      reason: j.reason,
      rule: ref(j.rule),
      ...(j.command !== undefined ? { command: j.command } : {}),
      ...(j.span !== undefined ? { span: { start: j.span.start, end: j.span.end, text: text.slice(j.span.start, j.span.end) } } : {}),
    };
  };
  /** The command side's answer (`undefined`: no command rule decides, the regex side does). */
  const commandAnswer = (shell: ShellExplanation): Answer | undefined => {
    if (shell.decision === null) return undefined;
    // A deny or ask the judge gives without a rule is its `unknown`.
    const by = shell.rule === null && shell.decision !== 'allow' ? 'unknown' : 'rule';
    return { decision: shell.decision, reason: shell.decision === 'allow' ? '' : shell.reason, rule: shell.rule, by };
  };
  const answers = (request: ApprovalRequest): Answer[] => {
    const regex = inner.answers(request);
    try {
      const shell = judgeCall(request);
      const c = shell === undefined ? undefined : commandAnswer(shell);
      return c === undefined ? regex : [...regex, c];
    } catch (e) {
      return [{ decision: 'deny', reason: internalErrorReason(e), rule: null, by: 'refused' }];
    }
  };
  const self = { answers };
  const decide = (request: ApprovalRequest): RuledResult => {
    const d = decideCall(self, { names: [request.toolName], input: request.input, sessionId: request.sessionId });
    return { decision: d.decision, reason: d.reason, rule: d.rule };
  };
  const approve = (request: ApprovalRequest): ApprovalResult => {
    let shellTool: boolean;
    try {
      shellTool = judgeFor(request.toolName) !== null;
    } catch {
      return inner.approve(request);
    }
    // Other tools take the regex approver's own path, untouched.
    if (!shellTool) return inner.approve(request);
    return toApproval(decide(request));
  };
  /** `explain` decides as `decideCall` does (the same `precedence`), the regex side read by the definition. */
  const explain = (request: ApprovalRequest): Explanation => {
    const e = inner.explain(request);
    try {
      const shell = judgeCall(request);
      if (shell === undefined) return e;
      const at = { name: request.toolName, input: request.input, whole: true };
      const regex: AskedAnswer = { decision: e.decision, reason: e.reason, rule: e.rule, by: e.by === 'rule' ? 'rule' : e.by === 'default' || e.by === 'mode' ? 'default' : 'refused', ...at };
      const c = commandAnswer(shell);
      const win = c === undefined ? regex : precedence([regex, { ...c, ...at }]);
      if (win === regex) return { ...e, shell };
      const alsoMatched = e.rule !== null ? [e.rule, ...e.alsoMatched] : e.alsoMatched;
      return { decision: win.decision, reason: win.reason, rule: win.rule, by: 'command', match: null, alsoMatched, shell, ...(e.canonical !== undefined ? { canonical: e.canonical } : {}) };
    } catch (err) {
      return { decision: 'deny', reason: internalErrorReason(err), rule: null, by: 'internal-error', match: null, alsoMatched: [] };
    }
  };
  return { approve, decide, explain, answers };
}
