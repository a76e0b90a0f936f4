/**
 * The decision of the pattern approver, written from the semantics alone (docs/semantics.md A3, A4,
 * A6): slow and obvious, with no shortcut. It is what `explain` runs, and what every property test
 * of the fast path (`decide.ts` and the `fast*.ts` files under it) compares against.
 *
 * - A rule applies to a call when its tool is empty or equal to the call's tool under simple case
 *   folding (A3.2), and its pattern matches (`matches`).
 * - The lists are tried in `LIST_ORDER`: deny, then ask, then allow, each in list order; the first
 *   rule that applies decides, else the default (A3.3, A6.1). `decisionOf` says what each answer
 *   decides; nothing else in the engine writes that order out.
 * - The input is read per A3.5 (raw: the text as sent, lone surrogates read as U+FFFD) or A4.1
 *   (canonical: refused, or the canonical text). A field rule reads a top-level string member
 *   (A4.3); on raw input that cannot be read as JSON, deny and ask field rules match and allow field
 *   rules do not (A6.3: fail closed).
 */
import { CANONICAL_REJECT_REASON, parseCanonical, parseStrictJson, topLevelMember } from '../canonical/canonical.ts';
import { DEFAULT_DENY_ALL_REASON } from './builtins.ts';
import type { JsonValue } from '../canonical/canonical.ts';
import { caseFold } from '../canonical/casefold.ts';
import type { ApproverIR, Decision, InputMode, RuleIR, RuleList, RuledDecision } from '../ir.ts';
import { wellFormed } from '../regex/regex.ts';
import type { CompiledRegex } from '../regex/regex.ts';
import { compileRuleRegex } from './rule-regex.ts';
import type { ApprovalRequest, RuleRef, RuledDecisionResult } from './types.ts';
import type { CallDecision, CallRequest, DecidedBy, Protect } from './call.ts';
import { normalizeApproverDefault, normalizeApproverMode } from './modes.ts';
import type { CommandJudgeFactory, CommandRuleSpec, WrapperSpecIR } from './shell.ts';
import { shellsOf } from './shell.ts';

/** A compiled rule: what deciding a call looks at. */
export interface Rule {
  readonly list: RuleList;
  /** Position in its list as written. */
  readonly index: number;
  /** `caseFold(tool)`; `""` matches every tool. */
  readonly foldedTool: string;
  /**
   * Non-field rules: searched (unanchored) in `subject.text`; `null` (empty match) matches anything.
   * Field rules: must match the whole field value (`^(?:match)$`); never `null` for field rules.
   */
  readonly regex: CompiledRegex | null;
  /** `caseFold(field)` for a field rule, else `undefined`. */
  readonly field: string | undefined;
}

/** What a decision looks at. */
export interface Subject {
  /** The text non-field rules search: the raw input or the canonical text, already well-formed. */
  readonly text: string;
  /**
   * The top-level field whose key case-folds to `foldedKey`: its decoded string value; `undefined`
   * when the key is missing, its value is not a string, or the input is not an object; `null` when
   * the input cannot be read as JSON at all (raw mode only).
   */
  field(foldedKey: string): string | undefined | null;
}

/** A read input: the subject, which text spans index, and the canonical text in canonical mode. */
export interface InputSubject extends Subject {
  readonly subjectKind: 'raw' | 'canonical';
  /** The text match spans index (the raw input, or the canonical text). */
  readonly original: string;
  readonly canonical: string | undefined;
}

/** The order the lists are tried in (A3.3, A6.1): the first rule that applies decides. */
export const LIST_ORDER: readonly RuleList[] = ['deny', 'ask', 'allow'];

/** The field lookup of a parsed input (`null`: it could not be parsed). */
export function fieldLookup(value: JsonValue | null): (foldedKey: string) => string | undefined | null {
  return (foldedKey) => {
    if (value === null) return null;
    const member = topLevelMember(value, foldedKey);
    return member?.kind === 'string' ? member.value : undefined;
  };
}

/**
 * The input as rules see it (A3.5, A4.1, A4.2), or `null` when canonical mode refuses it. In raw
 * mode the input is parsed for field rules only, on the first field looked up.
 */
export function readInput(input: string, mode: InputMode): InputSubject | null {
  if (mode === 'canonical') {
    const parsed = parseCanonical(input);
    if (!parsed.ok) return null;
    return { subjectKind: 'canonical', text: parsed.text, original: parsed.text, canonical: parsed.text, field: fieldLookup(parsed.value) };
  }
  let lookup: ((foldedKey: string) => string | undefined | null) | undefined;
  const field = (foldedKey: string): string | undefined | null => {
    if (lookup === undefined) {
      const parsed = parseStrictJson(input);
      lookup = fieldLookup(parsed.ok ? parsed.value : null);
    }
    return lookup(foldedKey);
  };
  return { subjectKind: 'raw', text: wellFormed(input), original: input, canonical: undefined, field };
}

/** Whether `rule` applies to a tool whose case-folded name is `foldedTool` (A3.2). */
export function appliesToTool(rule: Rule, foldedTool: string): boolean {
  return rule.foldedTool === '' || rule.foldedTool === foldedTool;
}

/** Whether `rule`'s pattern matches `subject` (its tool aside): A3.2, A4.3, A6.3. */
export function matches(rule: Rule, subject: Subject): boolean {
  if (rule.field !== undefined) {
    const value = subject.field(rule.field);
    if (value === null) return rule.list !== 'allow';
    if (value === undefined) return false;
    return rule.regex === null ? value === '' : rule.regex.testWholeWellFormed(value);
  }
  return rule.regex === null || rule.regex.testWellFormed(subject.text);
}

/** Every rule that applies to the call, in the order tried: deny, ask, allow, each in list order. */
export function matchingRules(rules: readonly Rule[], toolName: string, subject: Subject): Rule[] {
  const tool = caseFold(toolName);
  const out: Rule[] = [];
  for (const list of LIST_ORDER) {
    const inList = rules.filter((r) => r.list === list).sort((a, b) => a.index - b.index);
    for (const r of inList) if (appliesToTool(r, tool) && matches(r, subject)) out.push(r);
  }
  return out;
}

/** The deciding rule: the first that applies in `LIST_ORDER`, or `null` (the default decides). */
export function decidingRule(rules: readonly Rule[], toolName: string, subject: Subject): Rule | null {
  return matchingRules(rules, toolName, subject)[0] ?? null;
}

/** The reason of an allow (`""`), and of an ask decision (A6.2). */
export const ALLOW_REASON = '';
export const DEFAULT_ASK_REASON = 'confirmation required by pattern policy';

/**
 * What a deciding rule's list decides (`null`: the default): a deny rule denies with the deny
 * reason, an ask rule asks, an allow rule allows; the default allows or denies with the deny reason.
 */
export function decisionOf(list: RuleList | null, defaultDecision: Decision, denyReason: string): RuledDecisionResult {
  const decision = list ?? defaultDecision;
  if (decision === 'deny') return { decision, reason: denyReason };
  return decision === 'ask' ? { decision, reason: DEFAULT_ASK_REASON } : { decision, reason: ALLOW_REASON };
}

// ---- the public oracle ---------------------------------------------------------------------------

/** A rule with the list it sits in and the input mode of its approver (`raw` when absent). */
export interface RuleInContext extends Pick<RuleIR, 'tool' | 'match' | 'field'> {
  list: RuleList;
  input?: InputMode;
}

/**
 * Whether `rule` applies to `call`, exactly as the pattern approver decides it (semantics.md A3.2,
 * A4, A6.3): its tool, its pattern, its field, its list (a deny or ask field rule matches raw input
 * that is not JSON; an allow one does not). `undefined` when no rule is tried at all: canonical mode
 * refuses the input (A4.1), or the pattern does not compile (A3.6).
 */
export function ruleMatches(rule: RuleInContext, call: Pick<ApprovalRequest, 'toolName' | 'input'>): boolean | undefined {
  const compiled = compileRuleRegex(rule.match, rule.field);
  if (compiled !== null && !compiled.ok) return undefined;
  const subject = readInput(call.input, rule.input ?? 'raw');
  if (subject === null) return undefined;
  const r: Rule = {
    list: rule.list,
    index: 0,
    foldedTool: caseFold(rule.tool),
    regex: compiled === null ? null : compiled.regex,
    field: rule.field === undefined ? undefined : caseFold(rule.field),
  };
  return appliesToTool(r, caseFold(call.toolName)) && matches(r, subject);
}

// ---- the definition of a call ------------------------------------------------------------------

/** What the definition of a call needs besides the configuration. */
export interface CallDefinitionOptions {
  /** The judge of command rules (required when the configuration has any). */
  readonly commandJudge?: CommandJudgeFactory | undefined;
  readonly protect?: Protect | undefined;
}

/** One asking of the definition: a name, an input, and whether it stands for the whole call. */
interface Asking {
  readonly name: string;
  readonly input: string;
  readonly whole: boolean;
  /** The input as the agent wrote it, before its paths were resolved (A8.1a): only its deny and ask rules count. */
  readonly written?: boolean;
}

/** A side's answer to one asking, as the definition finds it. */
interface Said {
  readonly at: Asking;
  readonly decision: RuledDecision;
  readonly reason: string;
  readonly rule: RuleRef | null;
  readonly by: DecidedBy;
}

/**
 * The decision of a call written from the semantics alone (A2, A3, A4, A6, A7, A8), slow and obvious:
 * what `decideCall` over a compiled approver must equal, for a configuration that loads (without
 * `--compat`). Every rule is tried one by one with `ruleMatches`; the command rules of a shell tool
 * are judged by `commandJudge` over its field's text; the answers are then read in the order A8
 * states, one clause after the other (never through `call.ts` `precedence`, which it checks).
 */
export function callDefinition(ir: ApproverIR, request: CallRequest, options: CallDefinitionOptions = {}): CallDecision {
  const firstName = request.names[0] ?? '';
  // A8.1: a protection denies, whatever the rules say.
  const hit = options.protect?.(request) ?? null;
  if (hit !== null) return { decision: 'deny', reason: hit.reason, rule: null, by: 'protection', decidedAs: firstName, protection: hit };
  const mode = normalizeApproverMode(ir.mode);
  // A2.2: a mode decides every call as a default would.
  if (mode === 'allow_all') return { decision: 'allow', reason: '', rule: null, by: 'default', decidedAs: firstName };
  if (mode === 'deny_all') return { decision: 'deny', reason: ir.reason === '' ? DEFAULT_DENY_ALL_REASON : ir.reason, rule: null, by: 'default', decidedAs: firstName };
  const defaultDecision = normalizeApproverDefault(ir.default);
  if (mode === undefined || defaultDecision === undefined) throw new Error('callDefinition: the configuration does not load');
  // A3.4 (`DEFAULT_PATTERN_REASON`, which lives with the approver this defines).
  const denyReason = ir.reason === '' ? 'denied by pattern policy' : ir.reason;
  const ref = (list: RuleList, index: number): RuleRef => {
    const span = (list === 'allow' ? ir.allow : list === 'deny' ? ir.deny : (ir.ask ?? []))[index]?.span;
    return span === undefined ? { list, index } : { list, index, span };
  };
  const lists: [RuleList, readonly RuleIR[]][] = [
    ['deny', ir.deny],
    ['ask', ir.ask ?? []],
    ['allow', ir.allow],
  ];
  const isCommand = (r: RuleIR): boolean => r.command !== undefined || r.redirect !== undefined || r.args !== undefined;
  const hasCommandRules = lists.some(([, rules]) => rules.some(isCommand));
  const shellTools = ir.shell ?? [
    { tool: 'Bash', field: 'command' },
    { tool: 'run_shell_command', field: 'command' },
    { tool: 'Shell', field: 'command' },
  ];

  const askings: Asking[] = [];
  for (const input of [request.input, ...(request.alsoInputs ?? [])]) for (const name of request.names) askings.push({ name, input, whole: true });
  for (const input of request.writtenInputs ?? []) for (const name of request.names) askings.push({ name, input, whole: true, written: true });
  for (const path of request.paths ?? []) askings.push({ name: 'file.write', input: JSON.stringify({ file_path: path }), whole: false });

  const answered: Said[] = [];
  for (const at of askings) {
    // A4.1: canonical mode refuses the input before any rule is tried.
    if (ir.input === 'canonical' && !parseCanonical(at.input).ok) {
      answered.push({ at, decision: 'deny', reason: CANONICAL_REJECT_REASON, rule: null, by: 'refused' });
      continue;
    }
    // A3.3, A6.1: the regex side, the first list with a rule that applies, the first such rule in it.
    let regex: Said | undefined;
    for (const [list, rules] of lists) {
      const index = rules.findIndex((r) => !isCommand(r) && ruleMatches({ ...r, list, input: ir.input }, { toolName: at.name, input: at.input }) === true);
      if (index < 0) continue;
      regex = { at, decision: list, reason: list === 'deny' ? denyReason : list === 'ask' ? DEFAULT_ASK_REASON : '', rule: ref(list, index), by: 'rule' };
      break;
    }
    answered.push(regex ?? { at, decision: defaultDecision, reason: defaultDecision === 'deny' ? denyReason : '', rule: null, by: 'default' });
    // A7.2: the command side, for a shell tool of a policy with command rules.
    const tool = hasCommandRules ? shellTools.find((t) => caseFold(t.tool) === caseFold(at.name)) : undefined;
    if (tool === undefined) continue;
    if (options.commandJudge === undefined) throw new Error('callDefinition: command rules need a command judge');
    const unknown = ir.unknown === 'ask' ? 'ask' : 'deny';
    const parsed = parseStrictJson(at.input);
    const member = parsed.ok ? topLevelMember(parsed.value, caseFold(tool.field)) : undefined;
    if (member?.kind !== 'string') {
      answered.push({ at, decision: unknown, reason: `the input has no string \`${tool.field}\` holding a command: the call cannot be judged`, rule: null, by: 'unknown' });
      continue;
    }
    const rules: CommandRuleSpec[] = [];
    for (const [list, all] of lists) {
      all.forEach((r, index) => {
        if (!isCommand(r) || (r.tool !== '' && caseFold(r.tool) !== caseFold(tool.tool))) return;
        rules.push({ list, index, ...(r.command !== undefined ? { command: r.command } : {}), ...(r.args !== undefined ? { args: r.args } : {}), ...(r.redirect !== undefined ? { redirect: r.redirect } : {}) });
      });
    }
    const wrappers: Record<string, WrapperSpecIR> = {};
    for (const [name, w] of Object.entries(ir.wrappers ?? {})) {
      const { span: _span, ...spec } = w;
      wrappers[name] = spec;
    }
    const shells = shellsOf(ir, tool);
    const judge = options.commandJudge({ rules, unknown, wrappers, ...(ir.environment !== undefined ? { environment: ir.environment } : {}), ...(shells !== undefined ? { shells } : {}) });
    if ('error' in judge) throw new Error(`callDefinition: ${judge.error}`);
    const j = judge.judge(member.value);
    if (j.decision === null) continue;
    const rule = j.rule === undefined ? null : ref(j.rule.list, j.rule.index);
    answered.push({ at, decision: j.decision, reason: j.decision === 'allow' ? '' : j.reason, rule, by: rule === null && j.decision !== 'allow' ? 'unknown' : 'rule' });
  }

  // A8.1a: of the input as written, only a deny or ask rule counts (an allow holds only for the path resolved).
  const said = answered.filter((s) => s.at.written !== true || (s.by === 'rule' && s.decision !== 'allow'));
  const out = (s: Said): CallDecision => ({ decision: s.decision, reason: s.reason, rule: s.rule, by: s.by, decidedAs: s.at.name });
  /** The first-written rule among `these` (lowest index), the first asked on a tie. */
  const firstWritten = (these: Said[]): Said | undefined =>
    these.reduce<Said | undefined>((best, s) => (best === undefined || (s.rule?.index ?? 0) < (best.rule?.index ?? 0) ? s : best), undefined);
  const byRule = (d: RuledDecision, s: Said): boolean => s.by === 'rule' && s.decision === d;
  // A8.2: a refusal stands.
  const refused = said.find((s) => s.by === 'refused');
  if (refused) return out(refused);
  // A8.3: a deny rule of any side, under any name, input or path: the first written.
  const deny = firstWritten(said.filter((s) => byRule('deny', s)));
  if (deny) return out(deny);
  // A8.4: `unknown` (the policy's `unknown:` decision), above every ask rule.
  const unknown = said.find((s) => s.by === 'unknown');
  if (unknown) return out(unknown);
  // A8.5: an ask rule: the first written.
  const ask = firstWritten(said.filter((s) => byRule('ask', s)));
  if (ask) return out(ask);
  // A8.6: an allow rule for the whole call; else, for a patch, an allow rule for every one of its paths.
  const allow = firstWritten(said.filter((s) => s.at.whole && byRule('allow', s)));
  if (allow) return out(allow);
  const paths = askings.filter((a) => !a.whole);
  const pathAllows = said.filter((s) => !s.at.whole && byRule('allow', s));
  if (paths.length > 0 && paths.every((p) => pathAllows.some((s) => s.at === p))) return out(firstWritten(pathAllows)!);
  // A8.7: the default (the same under every name).
  return out(said[0]!);
}
