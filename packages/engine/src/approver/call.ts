/**
 * The one decision procedure of a call (docs/semantics.md A8): everything a call answers to, decided
 * on the fast path, combined by one truth table.
 *
 * A call (`CallRequest`) is asked of the approver once per name it answers to and input that stands
 * for it, and once per path a patch touches (as `file.write {"file_path":…}`). Each asking gives one
 * or two `Answer`s (`CompiledApprover.answers`): the regex rules' (a rule's, the default's or a
 * refusal) and, for a shell tool with command rules, the command rules' (a rule's or `unknown`). A
 * built-in protection (`protect`) may answer for the whole call. `precedence` picks the answer that
 * decides; nothing else in the project writes that order out (the definition, `definition.ts`
 * `callDefinition`, states it again from the semantics alone, so that property tests can compare).
 */
import type { ProtectHit } from '../protect/protect.ts';
import type { RuledResult } from './types.ts';

/** The tool name each path of a patch is asked under. */
export const PATH_TOOL = 'file.write';

/** One tool call with everything it answers to. */
export interface CallRequest {
  /** Every name a rule may use for this call, the tool as sent first (at least one). */
  readonly names: readonly string[];
  /** The tool input as the exact JSON text sent (`""` when none). */
  readonly input: string;
  /** Other inputs that stand for the whole call, decided under the same names. */
  readonly alsoInputs?: readonly string[] | undefined;
  /**
   * The input as the agent wrote it, when the hook resolved its paths (`input` is then the resolved
   * one): asked under the same names, only its deny and ask rules count, so an allow never holds for
   * a path the rules did not see resolved.
   */
  readonly writtenInputs?: readonly string[] | undefined;
  /** Paths a patch touches, each decided as a `file.write` call with input `{"file_path":…}`. */
  readonly paths?: readonly string[] | undefined;
  readonly sessionId?: string | undefined;
}

/** The built-in protections: the one a call touches, or `null`. Pure and total. */
export type Protect = (request: CallRequest) => ProtectHit | null;

/**
 * How an answer came about: a rule (regex or command; `rule` names it, `null` only for a command
 * allow of writes alone), the default (or a mode), a refusal (input canonical mode refuses, an
 * internal error, a pattern that does not compile), `unknown` (command text the judge cannot read),
 * or a built-in protection.
 */
export type DecidedBy = 'rule' | 'default' | 'refused' | 'unknown' | 'protection';

/** One side's answer to one asking. */
export interface Answer extends RuledResult {
  readonly by: DecidedBy;
}

/** An answer with where it was asked: under which name, and whether for the whole call or one path. */
export interface AskedAnswer extends Answer {
  readonly name: string;
  /** The input it was asked with. */
  readonly input: string;
  /** `false`: the answer is about one path of a patch. */
  readonly whole: boolean;
}

/** The decision of a call: the deciding answer. */
export interface CallDecision extends RuledResult {
  readonly by: DecidedBy;
  /** The name the deciding answer was asked under. */
  readonly decidedAs: string;
  readonly protection?: ProtectHit;
}

/** What `decideCall` asks: the answers of one tool name and input. */
export interface Answering {
  answers(request: { toolName: string; input: string; sessionId?: string }): readonly Answer[];
}

export interface DecideCallOptions {
  readonly protect?: Protect | undefined;
}

/**
 * The rank of an answer (lower decides), `undefined` when it cannot decide on its own (an allow of
 * one path of a patch, which counts only when every path is allowed by a rule):
 *
 * | rank | answer                                         |
 * |------|------------------------------------------------|
 * | 0    | a protection (deny)                            |
 * | 1    | a refusal (deny)                               |
 * | 2    | a deny rule                                    |
 * | 3    | `unknown` (the policy's `unknown:`, ask or deny) |
 * | 4    | an ask rule                                    |
 * | 5    | an allow rule, for the whole call              |
 * | 6    | every path's allow rule (see `precedence`)     |
 * | 7    | the default                                    |
 */
function rank(a: AskedAnswer): number | undefined {
  switch (a.by) {
    case 'protection':
      return 0;
    case 'refused':
      return 1;
    case 'unknown':
      return 3;
    case 'rule':
      if (a.decision === 'deny') return 2;
      if (a.decision === 'ask') return 4;
      return a.whole ? 5 : undefined;
    case 'default':
      return 7;
  }
}

/** Ranks whose ties go to the first-written rule (the lowest index in its list), then the order asked. */
const BY_RULE_INDEX: ReadonlySet<number> = new Set([2, 4, 5, 6]);

/**
 * The answer that decides a call (semantics.md A8): the lowest `rank`; ties go to the first-written
 * rule, then to the first asked. The paths of a patch are allowed (rank 6) only when every path's
 * answers include an allow rule and none decides otherwise. `answers` is never empty.
 */
export function precedence(answers: readonly AskedAnswer[]): AskedAnswer {
  let best: AskedAnswer | undefined;
  let bestRank = Infinity;
  const consider = (a: AskedAnswer, r: number): void => {
    if (r > bestRank) return;
    if (r === bestRank && best !== undefined && !(BY_RULE_INDEX.has(r) && (a.rule?.index ?? 0) < (best.rule?.index ?? 0))) return;
    best = a;
    bestRank = r;
  };
  const parts: AskedAnswer[] = [];
  for (const a of answers) {
    const r = rank(a);
    if (r === undefined) parts.push(a);
    else consider(a, r);
  }
  if (bestRank > 6 && parts.length > 0 && everyPathAllowed(answers, parts)) for (const p of parts) consider(p, 6);
  return best ?? answers[0]!;
}

/** Whether every path asked has an allow rule among its answers (the part answers are its only allows). */
function everyPathAllowed(answers: readonly AskedAnswer[], parts: readonly AskedAnswer[]): boolean {
  const pathCount = new Set(answers.filter((a) => !a.whole).map((a) => a.input)).size;
  return new Set(parts.map((a) => a.input)).size === pathCount;
}

/** The input a path of a patch is asked with. */
export function pathInput(path: string): string {
  return JSON.stringify({ file_path: path });
}

/** Every tool name `decideCall` asks under, for this call. */
export function namesAsked(request: CallRequest): string[] {
  return [...request.names, ...((request.paths ?? []).length > 0 ? [PATH_TOOL] : [])];
}

/**
 * Decides a call: a protection it touches denies; else every name × input (and every path of a
 * patch) is asked of `approver` on its fast path, and `precedence` picks the deciding answer.
 */
export function decideCall(approver: Answering, request: CallRequest, options: DecideCallOptions = {}): CallDecision {
  const hit = options.protect?.(request) ?? null;
  if (hit !== null) return { decision: 'deny', reason: hit.reason, rule: null, by: 'protection', decidedAs: request.names[0] ?? '', protection: hit };
  const asked: AskedAnswer[] = [];
  const session = request.sessionId === undefined ? {} : { sessionId: request.sessionId };
  for (const input of [request.input, ...(request.alsoInputs ?? [])]) {
    for (const name of request.names) {
      for (const a of approver.answers({ toolName: name, input, ...session })) asked.push({ ...a, name, whole: true, input });
    }
  }
  for (const input of request.writtenInputs ?? []) {
    for (const name of request.names) {
      for (const a of approver.answers({ toolName: name, input, ...session })) if (a.by === 'rule' && a.decision !== 'allow') asked.push({ ...a, name, whole: true, input });
    }
  }
  for (const path of request.paths ?? []) {
    const input = pathInput(path);
    for (const a of approver.answers({ toolName: PATH_TOOL, input, ...session })) asked.push({ ...a, name: PATH_TOOL, whole: false, input });
  }
  if (asked.length === 0) return { decision: 'deny', reason: 'the call answers to no tool name', rule: null, by: 'refused', decidedAs: '' };
  const d = precedence(asked);
  return { decision: d.decision, reason: d.reason, rule: d.rule, by: d.by, decidedAs: d.name };
}
