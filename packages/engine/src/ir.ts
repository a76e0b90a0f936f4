/**
 * The intermediate representation every syntax (YAML, JSON, `.verdict`) lowers to.
 * After `parse`, no stage knows which syntax a policy came from. Values are kept as written
 * (mode not yet trimmed, default not yet lowercased) so validation can quote the original;
 * every node keeps the span it came from.
 */
import type { Span } from './diagnostics.ts';

/** The reference approver's two decisions (what `Approver.approve` returns). */
export type Decision = 'allow' | 'deny';
/**
 * A pattern approver's decision, with `ask` (a Verdict extension): the call needs a person's
 * confirmation. Only `decide`, `explain` and tests see `ask`; `approve` answers it with a deny.
 */
export type RuledDecision = Decision | 'ask';
export type RuleList = 'allow' | 'deny' | 'ask';
export type InputMode = 'raw' | 'canonical';

/** A value as written in the source, with where it was written. */
export interface Located<T> {
  value: T;
  span?: Span;
}

export interface RuleIR {
  /** Tool name as written; `""` when absent (matches every tool). */
  tool: string;
  /** RE2 pattern as compiled (after the source syntax's own unescaping); `""` when absent. */
  match: string;
  /** Optional top-level field the pattern is anchored against (A4.3). */
  field?: string;
  /** Span of the whole rule. */
  span?: Span;
  toolSpan?: Span;
  /** Span of the pattern text in the source (for regex diagnostics). */
  matchSpan?: Span;
  /** Span of the `field` value; also set when it was written empty (`field: ""`, `field:`), which is no field. */
  fieldSpan?: Span;
  /**
   * A command rule (for a tool named in the approver's `shell:` table): an argv prefix, each element
   * a word or a list of alternatives. A rule with `command` or `redirect` is judged over the executed
   * commands of the shell text, never as a regex over the input.
   */
  command?: (string | string[])[];
  commandSpan?: Span;
  /** RE2 over the words after the `command` prefix, joined by single spaces, matched whole. */
  args?: string;
  argsSpan?: Span;
  /** RE2 over a write redirection's target, matched whole. */
  redirect?: string;
  redirectSpan?: Span;
}

/** A tool that carries shell command text, and the top-level input field holding it. */
export interface ShellToolIR {
  tool: string;
  field: string;
  /** The shells that may run this tool's text (`bash`, `zsh`, `sh`, `any`), over the approver's `shells`. */
  shells?: string[];
  span?: Span;
}

/** A wrapper entry added to the command rules' wrapper table (see `@verdict/shell`). */
export interface WrapperIR {
  flags?: string[];
  options?: string[];
  positionals?: number;
  noCommand?: string[];
  refuse?: string[];
  span?: Span;
}

export interface ApproverIR {
  /** Mode as written (`" Pattern "`), `""` when absent. */
  mode: string;
  /** Default as written, `""` when absent. */
  default: string;
  reason: string;
  input: InputMode;
  allow: RuleIR[];
  deny: RuleIR[];
  /**
   * Rules whose calls need a person's confirmation (a Verdict extension): deny > ask > allow.
   * Absent (or empty): the approver decides exactly as the reference does.
   */
  ask?: RuleIR[];
  /** The tools whose input carries shell text (absent: the agents' shell tools, `DEFAULT_SHELL_TOOLS`). */
  shell?: ShellToolIR[];
  shellSpan?: Span;
  /** The decision for shell text command rules cannot model, as written (`ask` or `deny`; absent: `deny`). */
  unknown?: string;
  unknownSpan?: Span;
  /** Wrappers added to the command rules' table, by program name. */
  wrappers?: Record<string, WrapperIR>;
  wrappersSpan?: Span;
  /** Variables the policy calls harmless to assign before a command, by name (docs/shell.md "Environment"). */
  environment?: string[];
  environmentSpan?: Span;
  /** The shells that may run the shell tools' text (`bash`, `zsh`, `sh`, `any`; absent: any), as written (docs/shell.md "Which shell"). */
  shells?: string[];
  shellsSpan?: Span;
  /** Built-in protected paths the policy lifts, by name (docs/protections.md; `PROTECTION_NAMES`). */
  protections?: { lift: string[] };
  protectionsSpan?: Span;
  span?: Span;
  modeSpan?: Span;
  defaultSpan?: Span;
  reasonSpan?: Span;
  inputSpan?: Span;
}

/**
 * Every rule list, each once, in the order a file's rules are read and reported (Go's load order:
 * allow, then deny; the ask list, which the reference does not have, last). The one closed list of
 * rule kinds: walk rules with `eachRule`, never by naming the lists.
 */
export const RULE_LISTS: readonly RuleList[] = ['allow', 'deny', 'ask'];

/** The rules of one list (`ask`: `[]` when absent). */
export function rulesOf(ir: Pick<ApproverIR, 'allow' | 'deny' | 'ask'>, list: RuleList): readonly RuleIR[] {
  return list === 'allow' ? ir.allow : list === 'deny' ? ir.deny : (ir.ask ?? []);
}

/** One rule with its list and its position in that list. */
export interface RuleAt {
  readonly rule: RuleIR;
  readonly list: RuleList;
  readonly index: number;
}

/** Every rule of an approver, list by list in `order` (default `RULE_LISTS`), each list in written order. */
export function eachRule(ir: Pick<ApproverIR, 'allow' | 'deny' | 'ask'>, order: readonly RuleList[] = RULE_LISTS): RuleAt[] {
  const out: RuleAt[] = [];
  for (const list of order) rulesOf(ir, list).forEach((rule, index) => out.push({ rule, list, index }));
  return out;
}

/** Run Policy as written in a file (semantics.md B1); `undefined` fields are absent (inherit/zero). */
export interface PolicyIR {
  sandbox?: Located<string>;
  webSearch?: Located<string>;
  browser?: Located<string>;
  approvals?: ApprovalsIR;
  span?: Span;
}

export interface ApprovalsIR {
  permission?: Located<string>;
  planReview?: Located<string>;
  question?: Located<string>;
  /** Go duration string as written (`"30s"`). */
  timeout?: Located<string>;
  onTimeout?: Located<string>;
  onReject?: Located<string>;
  maxRetries?: Located<number>;
  span?: Span;
}

/** `driver:` as written: a built-in name or a descriptor file path. */
export interface DriverRefIR {
  ref: string;
  span?: Span;
}

export interface TestCaseIR {
  name?: string;
  tool: string;
  /** Raw JSON text of the tool input, exactly as the approver will see it. */
  input: string;
  expect: RuledDecision;
  /** Expected reason, when given. */
  reason?: string;
  /** Expected deciding rule, when given: `deny[0]`, `ask[1]`, `allow[2]` or `default`. */
  rule?: string;
  span?: Span;
}

export interface PolicyFileIR {
  file: string;
  driver?: DriverRefIR;
  policy?: PolicyIR;
  approver?: ApproverIR;
  tests: TestCaseIR[];
  /** Where the approver block sat in the source (for messages only). */
  approverPlacement?: 'bare' | 'approver' | 'agent.approver';
}
