/**
 * What of a Verdict approver can go into an agent's own permission file without making the agent
 * looser than Verdict (docs/native/README.md "Export"; native-formats.md §7.4): the one reading of the
 * IR every emitter shares.
 *
 * - A deny or ask **command rule** for the agent's shell tool is carried as its argv prefix (its `args`
 *   and `redirect` dropped: the native rule is broader, an over-approximation, so it can only deny or ask
 *   more: a deny of `[git]` with an args regex denies every git command natively). What the native
 *   matcher does not see (the program at another path, behind a wrapper, inside `bash -c`…) is lost; the
 *   hook still enforces it.
 * - A deny or ask **regex rule** carries only when it has no pattern (a whole tool); other patterns are
 *   dropped, and when one could match the shell tool's text, no shell allow is exported at all.
 * - An **allow** carries only as exact commands (the rule's prefix with nothing after it, one argv per
 *   alternative) that Verdict itself allows, spelled as each agent's matcher treats alike (`decideShell`,
 *   which the caller wires to Verdict's own decision procedure); whole-tool allows carry only where no
 *   deny or ask rule could apply to that tool. Everything else is left to the agent's prompt.
 */
import { AGENT_CATALOGUES, caseFold, commandCombinations, eachRule, isCommandRule, isMcpToolName, ruleWhere, shellToolsOf } from '@verdict/engine';
import type { ApproverIR, RuleIR, RuleList, RuledDecision, Span } from '@verdict/engine';
import type { NativeAgent } from '../types.ts';

/** A rule of the source policy, as messages name it. */
export interface ExportRuleRef {
  readonly list: RuleList;
  readonly index: number;
  readonly span?: Span | undefined;
}

/** A rule (or a setting of the approver, `rule` absent) that the native file does not carry, or not whole. */
export interface ExportDropped {
  readonly rule?: ExportRuleRef;
  /** `deny[0] (p.yaml:3:7)`, or the approver setting (`unknown: deny`). */
  readonly where: string;
  /** Why it is not carried, or what of it is not. */
  readonly why: string;
  /** The native rules it became, when it is carried in part (broader, or without what the agent cannot see). */
  readonly carriedAs?: readonly string[];
}

/** One native rule written, and the Verdict rule it comes from. */
export interface ExportCarried {
  readonly rule?: ExportRuleRef;
  readonly where: string;
  readonly native: string;
}

export interface ExportOptions {
  /**
   * Verdict's own decision for one command text on the agent's shell tool (the CLI wires `decideCall`
   * with the shell judge). Without it no shell allow is exported: nothing else can tell what Verdict allows.
   */
  readonly decideShell?: (command: string) => RuledDecision;
  /** The policy file's name, for the generated file's header. */
  readonly source?: string;
}

export interface ExportResult {
  readonly agent: NativeAgent;
  /** Where the agent reads the file (relative to the project, or `~/` for a user file). */
  readonly path: string;
  readonly text: string;
  readonly carried: readonly ExportCarried[];
  readonly dropped: readonly ExportDropped[];
}

/** A deny or ask command prefix to carry (over-approximating its rule). */
export interface PrefixItem {
  readonly rule: ExportRuleRef;
  readonly where: string;
  readonly list: 'deny' | 'ask';
  /** What the native rule decides: the list's own decision, over the whole prefix (an over-approximation). */
  readonly decision: 'deny' | 'ask';
  readonly command: readonly (string | readonly string[])[];
  /** What the native rule does not keep of the Verdict rule (it is broader). */
  readonly broader: readonly string[];
}

/** An exact command candidate of an allow rule. */
export interface ExactItem {
  readonly rule: ExportRuleRef;
  readonly where: string;
  readonly argv: readonly string[];
}

/** A whole tool (a regex rule with no pattern) of the agent's catalogue. */
export interface ToolItem {
  readonly rule: ExportRuleRef;
  readonly where: string;
  readonly list: RuleList;
  /** The agent's own tool names the rule's tool stands for. */
  readonly tools: readonly string[];
}

/** The agent's shell tool, as its calls are named (the hook's own names). */
export const SHELL_TOOL: Readonly<Record<NativeAgent, string>> = {
  claude: 'Bash',
  codex: 'Bash',
  gemini: 'run_shell_command',
  cursor: 'Shell',
};

/** The names one of the agent's tools answers to in Verdict (its own and its neutral name). */
export function namesOf(agent: NativeAgent, tool: string): string[] {
  const t = AGENT_CATALOGUES[agent].tools.find((x) => x.name === tool);
  return t?.neutral !== undefined ? [tool, t.neutral] : [tool];
}

/** Words that are one shell word as written and that no agent's matcher reads specially. */
const PLAIN_WORD = /^[A-Za-z0-9_./:=@%+,-]+$/;

export function isPlainWord(word: string): boolean {
  return PLAIN_WORD.test(word) && !word.startsWith('~');
}

/** How many exact commands one allow rule may stand for before it is left to the prompt. */
const MAX_EXACT = 64;

export interface Plan {
  readonly agent: NativeAgent;
  readonly shellTool: string;
  readonly prefixes: readonly PrefixItem[];
  /** Exact commands Verdict allows (checked with `decideShell`), in rule order. */
  readonly exact: readonly ExactItem[];
  readonly tools: readonly ToolItem[];
  readonly dropped: ExportDropped[];
}

function refOf(rule: RuleIR, list: RuleList, index: number): ExportRuleRef {
  return { list, index, ...(rule.span !== undefined ? { span: rule.span } : {}) };
}

function commandText(command: readonly (string | readonly string[])[]): string {
  return `[${command.map((w) => (typeof w === 'string' ? w : `[${w.join(', ')}]`)).join(', ')}]`;
}

/** The rule as the dropped list names it: `deny[0] [rm] (p.yaml:40:7)`. */
export function whereOf(rule: RuleIR, list: RuleList, index: number): string {
  const detail = rule.command !== undefined ? commandText(rule.command) : rule.redirect !== undefined ? `redirect` : rule.tool !== '' ? rule.tool : undefined;
  return ruleWhere({ list, index, span: rule.span }, 'parens', detail);
}

/**
 * Reads the approver for one agent: what each emitter can carry, and what none can (dropped here with
 * the reason); each emitter drops more by what its own format cannot say.
 */
export function planExport(ir: ApproverIR, agent: NativeAgent, options: ExportOptions = {}): Plan {
  const shellTool = SHELL_TOOL[agent];
  const foldedShell = caseFold(shellTool);
  const shellNames = new Set(namesOf(agent, shellTool).map(caseFold));
  const judged = shellToolsOf(ir).some((t) => caseFold(t.tool) === foldedShell);
  const dropped: ExportDropped[] = [];
  const prefixes: PrefixItem[] = [];
  const tools: ToolItem[] = [];
  const allowRules: { rule: RuleIR; index: number }[] = [];
  const catalogue = AGENT_CATALOGUES[agent].tools;
  // Regex deny/ask rules that could match the shell tool's text: with one, no exact shell allow is provable.
  const shellRegexBlockers: string[] = [];

  for (const { rule, list, index } of eachRule(ir, ['deny', 'ask', 'allow'])) {
    const where = whereOf(rule, list, index);
    const ref = refOf(rule, list, index);
    const tool = caseFold(rule.tool);
    if (isCommandRule(rule)) {
      if (!judged || (tool !== '' && tool !== foldedShell)) {
        dropped.push({ rule: ref, where, why: judged ? `a command rule for \`${rule.tool}\`, which ${AGENT_CATALOGUES[agent].title}'s shell calls (\`${shellTool}\`) do not answer to` : `the policy's \`shell:\` table does not name \`${shellTool}\`: ${AGENT_CATALOGUES[agent].title}'s shell calls are not judged by command rules` });
        continue;
      }
      if (list === 'allow') {
        allowRules.push({ rule, index });
        continue;
      }
      if (rule.command === undefined) {
        dropped.push({ rule: ref, where, why: 'a rule on write redirections only: no native format matches a redirection target' });
        continue;
      }
      const broader: string[] = [];
      if (rule.args !== undefined) broader.push(`its args regex \`${rule.args}\` is not carried`);
      if (rule.redirect !== undefined) broader.push(`its redirect \`${rule.redirect}\` is not carried`);
      if (broader.length > 0) broader.push(`the native rule ${list === 'deny' ? 'denies' : 'asks for'} every command of the prefix, also those Verdict ${list === 'deny' ? 'allows or asks for' : 'allows'}`);
      prefixes.push({ rule: ref, where, list, decision: list, command: rule.command, broader });
      continue;
    }
    // A regex rule.
    const onShell = tool === '' || shellNames.has(tool);
    const whole = rule.match === '' && rule.field === undefined;
    if (list !== 'allow' && onShell && !(whole && tool !== '')) shellRegexBlockers.push(where);
    const named = catalogue.filter((t) => namesOf(agent, t.name).some((n) => caseFold(n) === tool)).map((t) => t.name);
    if (tool !== '' && named.length === 0 && !isMcpToolName(agent, rule.tool)) {
      dropped.push({ rule: ref, where, why: `\`${rule.tool}\` is none of ${AGENT_CATALOGUES[agent].title}'s tools or their neutral names` });
      continue;
    }
    if (!whole) {
      dropped.push({ rule: ref, where, why: `a regex rule (\`${rule.match}\`${rule.field !== undefined ? ` on \`${rule.field}\`` : ''}): no native format carries an RE2 pattern over a tool's input` });
      continue;
    }
    if (tool === '') {
      dropped.push({ rule: ref, where, why: 'a rule for every tool: not carried, so that no native file denies or allows tools the agent has not named' });
      continue;
    }
    if (named.length === 0) {
      dropped.push({ rule: ref, where, why: `a rule on the MCP tool \`${rule.tool}\`: not carried` });
      continue;
    }
    tools.push({ rule: ref, where, list, tools: named });
  }

  // Whole-tool allows: only for tools no deny or ask rule could reach (through its own name, its neutral name or every tool).
  const restricted = new Set<string>();
  for (const { rule } of eachRule(ir, ['deny', 'ask'])) {
    // Command rules reach the shell tool only, whose whole-tool allow is never exported.
    if (isCommandRule(rule)) continue;
    const tool = caseFold(rule.tool);
    for (const t of catalogue) {
      if (tool === '' || namesOf(agent, t.name).some((n) => caseFold(n) === tool)) restricted.add(t.name);
    }
  }
  const keptTools: ToolItem[] = [];
  for (const t of tools) {
    if (t.list !== 'allow') {
      keptTools.push(t);
      continue;
    }
    const shell = t.tools.filter((n) => caseFold(n) === foldedShell || namesOf(agent, n).includes('shell'));
    const blocked = t.tools.filter((n) => restricted.has(n));
    if (shell.length > 0) {
      dropped.push({ rule: t.rule, where: t.where, why: 'an allow of the whole shell tool: the native matcher does not see commands as Verdict does (wrappers, `bash -c`, text it cannot judge)' });
    } else if (blocked.length > 0) {
      dropped.push({ rule: t.rule, where: t.where, why: `a deny or ask rule of the policy could apply to \`${blocked.join('`, `')}\`: a native allow of the whole tool would let through what it stops` });
    } else keptTools.push(t);
  }

  const exact: ExactItem[] = [];
  for (const { rule, index } of allowRules) {
    const ref = refOf(rule, 'allow', index);
    const where = whereOf(rule, 'allow', index);
    if (rule.command === undefined) {
      dropped.push({ rule: ref, where, why: 'an allow of write redirections only: no native format matches a redirection target' });
      continue;
    }
    if (options.decideShell === undefined) {
      dropped.push({ rule: ref, where, why: "no shell allow is exported without Verdict's own decision to check it against" });
      continue;
    }
    if (shellRegexBlockers.length > 0) {
      dropped.push({ rule: ref, where, why: `a regex rule over the shell text (${shellRegexBlockers.join(', ')}) could stop a command this allow would let through natively` });
      continue;
    }
    if (rule.args !== undefined || rule.redirect !== undefined) {
      dropped.push({ rule: ref, where, why: `its ${rule.args !== undefined ? 'args regex' : 'redirect'} cannot be carried: a native allow of the prefix would allow more than Verdict does` });
      continue;
    }
    const combos = commandCombinations(rule.command, MAX_EXACT);
    if (combos === null) {
      dropped.push({ rule: ref, where, why: `its prefix stands for more than ${MAX_EXACT} commands` });
      continue;
    }
    const notPlain = combos.find((argv) => !argv.every(isPlainWord));
    if (notPlain !== undefined) {
      dropped.push({ rule: ref, where, why: `\`${notPlain.join(' ')}\` holds a word a native matcher reads specially (quoting, globs, \`~\`)` });
      continue;
    }
    for (const argv of combos) exact.push({ rule: ref, where, argv });
  }
  if (allowRules.some((r) => r.rule.command !== undefined && r.rule.args === undefined && r.rule.redirect === undefined)) {
    dropped.push({ where: 'allow rules', why: 'an allow is carried only as the exact commands of its prefix (nothing after them): any further word may be one Verdict does not allow (an option that writes or runs a program), so the agent asks' });
  }
  return { agent, shellTool, prefixes, exact, tools: keptTools, dropped };
}

/**
 * The texts of the longest prefix of `command` whose alternatives expand to at most `max` texts, each one
 * `ok` (a word a format cannot say cuts the prefix before it): a shorter prefix is broader, which is what a
 * carried deny or ask may be. `cut` says the prefix was shortened.
 */
export function prefixTexts(command: readonly (string | readonly string[])[], max: number, ok: (text: string) => boolean = () => true): { texts: string[]; cut: boolean } {
  for (let n = command.length; n > 0; n--) {
    const combos = commandCombinations(command.slice(0, n), max);
    if (combos !== null && combos.every((a) => ok(a.join(' ')))) return { texts: combos.map((a) => a.join(' ')), cut: n < command.length };
  }
  return { texts: [], cut: true };
}

/** The approver settings no native file carries, one entry each (the hook still applies them). */
export function settingsDropped(ir: ApproverIR): ExportDropped[] {
  const out: ExportDropped[] = [];
  const unknown = ir.unknown === undefined || ir.unknown.trim() === '' ? 'deny' : ir.unknown.trim();
  out.push({ where: `unknown: ${unknown}`, why: "shell text Verdict cannot judge is not known to the agent's matcher: the agent decides it by its own reading, or asks" });
  const def = ir.default.trim().toLowerCase() || 'deny';
  out.push({ where: `default: ${def}`, why: def === 'allow' ? 'a call no rule names asks in the native file (never looser): the hook allows it' : 'a call no rule names asks in the native file: the hook denies it' });
  if (ir.input === 'canonical') out.push({ where: 'input: canonical', why: "the native matcher reads the agent's own input; Verdict's canonical form (and its refusal of input it cannot make canonical) stays the hook's" });
  return out;
}

/** Backticked texts, a few of them, then how many more. */
export function someOf(texts: readonly string[], max = 4): string {
  const shown = texts.slice(0, max).map((t) => `\`${t}\``).join(', ');
  return texts.length > max ? `${shown} and ${texts.length - max} more` : shown;
}

/** Items grouped by the rule they come from, in order. */
export function byRule<T extends { where: string }>(items: readonly T[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const i of items) groups.set(i.where, [...(groups.get(i.where) ?? []), i]);
  return [...groups.values()];
}

/** The exact commands Verdict allows in every spelling the native matcher treats alike; the others dropped, one entry per rule. */
export function checkExact(
  plan: Plan,
  options: ExportOptions,
  spellings: (argv: readonly string[]) => readonly string[],
  why: string,
): { kept: ExactItem[]; dropped: ExportDropped[] } {
  const kept: ExactItem[] = [];
  const dropped: ExportDropped[] = [];
  const decide = options.decideShell;
  if (decide === undefined) return { kept, dropped };
  for (const group of byRule(plan.exact)) {
    const itself: string[] = [];
    const respelt: string[] = [];
    for (const item of group) {
      const text = item.argv.join(' ');
      const refused = spellings(item.argv).find((s) => decide(s) !== 'allow');
      if (refused === undefined) kept.push(item);
      else if (refused === text) itself.push(text);
      else respelt.push(`${text}\` (Verdict does not allow \`${refused}`);
    }
    const { rule, where } = group[0]!;
    if (itself.length > 0) dropped.push({ rule, where, why: `Verdict itself does not allow ${someOf(itself)} (another rule or the capability table decides): not exported` });
    if (respelt.length > 0) dropped.push({ rule, where, why: `not exported: ${someOf(respelt)}; ${why}` });
  }
  return { kept, dropped };
}

/** The header comment lines of a generated file (formats with comments). */
export function headerLines(agent: NativeAgent, options: ExportOptions): string[] {
  return [
    `Generated by \`verdict export --to ${agent}\`${options.source !== undefined ? ` from ${options.source}` : ''}: export again rather than edit.`,
    "Never looser than the policy: denies and asks are carried (broader where the format cannot say more), allows only where",
    "this agent's matcher allows no more than Verdict; the rest asks. Verdict's hook stays the decision point.",
  ];
}
