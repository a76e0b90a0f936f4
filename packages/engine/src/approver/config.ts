/**
 * Approver configuration semantics (semantics.md A2), shared by the runtime and the compiler:
 * mode and default normalisation, the exact Go load-error texts, and building the approver.
 */
import { eachRule, rulesOf } from '../ir.ts';
import type { ApproverIR, Decision, RuleIR, RuleList } from '../ir.ts';
import type { CompiledRegex } from '../regex/regex.ts';
import { withAudit } from './audit.ts';
import { normalizeApproverDefault, normalizeApproverMode } from './modes.ts';
import type { ApproverMode } from './modes.ts';
import { DEFAULT_DENY_ALL_REASON, internalErrorReason } from './builtins.ts';
import { createCompileErrorApprover, createModeApprover, createPatternApprover } from './pattern.ts';
import type { PatternApprover, PatternRule } from './pattern.ts';
import { buildCommandJudges, isCommandRule, shellToolsOf, withCommandRules } from './shell.ts';
import type { CommandJudgeFactory } from './shell.ts';
import { compileRuleRegex, compileShared } from './rule-regex.ts';
import type { ApprovalRequest, AuditLogger, CompiledApprover } from './types.ts';
import { caseFold } from '../canonical/casefold.ts';
import { ruleLabel } from '../rule-ref.ts';

export { goTrimSpace, normalizeApproverDefault, normalizeApproverMode } from './modes.ts';
export type { ApproverMode } from './modes.ts';

export interface ApproverConfigIssue {
  code:
    | 'approver/unknown-mode'
    | 'approver/unknown-default'
    | 'regex/invalid'
    | 'command/invalid-rule'
    | 'command/not-shell-tool'
    | 'command/unknown-decision'
    | 'command/no-judge'
    | 'command/invalid-environment'
    | 'command/invalid-shells';
  /** The exact Go load-error text (for command rules, a Verdict extension: the diagnostic's sentence). */
  message: string;
  field: 'mode' | 'default' | 'match' | 'command' | 'args' | 'redirect' | 'tool' | 'unknown' | 'environment' | 'shells';
  list?: RuleList;
  index?: number;
  /** Go's regexp error text alone (for `regex/invalid`). */
  regexError?: string;
}

export interface CompileApproverOptions {
  /** Load a configuration whose only errors are invalid regexes, denying every call (A3.6). */
  compat?: boolean;
  /** Report every decision as an audit event. */
  logger?: AuditLogger;
  /**
   * Judges the command rules of shell tools (`@verdict/shell`'s `commandJudgeFactory`). Without it a
   * configuration with command rules does not load (`command/no-judge`): they are never ignored.
   */
  commandJudge?: CommandJudgeFactory;
}

export interface CompileApproverResult {
  /** `undefined` when the configuration cannot load. */
  approver: CompiledApprover | undefined;
  issues: ApproverConfigIssue[];
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** Go `strconv.Quote` (lone surrogates, which UTF-8 cannot hold, are written as `\ufffd`). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (cp >= 0xd800 && cp <= 0xdfff) out += '\\ufffd';
    else if (PRINTABLE.test(ch)) out += ch;
    else if (cp === 0x07) out += '\\a';
    else if (cp === 0x08) out += '\\b';
    else if (cp === 0x0c) out += '\\f';
    else if (cp === 0x0a) out += '\\n';
    else if (cp === 0x0d) out += '\\r';
    else if (cp === 0x09) out += '\\t';
    else if (cp === 0x0b) out += '\\v';
    else if (cp < 0x80) out += '\\x' + cp.toString(16).padStart(2, '0');
    else if (cp <= 0xffff) out += '\\u' + cp.toString(16).padStart(4, '0');
    else out += '\\U' + cp.toString(16).padStart(8, '0');
  }
  return out + '"';
}

/** A configuration read: its issues, its mode, and in pattern mode its default and compiled rules. */
export interface Analysis {
  issues: ApproverConfigIssue[];
  mode: ApproverMode | undefined;
  defaultDecision: Decision | undefined;
  rules: PatternRule[];
}

/** Reads `ir` (A2): what `compileApprover` builds from, and what tests build the definition from. */
export function analyse(ir: ApproverIR): Analysis {
  const mode = normalizeApproverMode(ir.mode);
  if (mode === undefined) {
    return {
      issues: [
        {
          code: 'approver/unknown-mode',
          message: `approver: unknown mode ${goQuote(ir.mode)} (want allow_all / deny_all / pattern)`,
          field: 'mode',
        },
      ],
      mode,
      defaultDecision: undefined,
      rules: [],
    };
  }
  // A2.2: outside pattern mode, default and rules are not looked at.
  if (mode !== 'pattern') return { issues: [], mode, defaultDecision: undefined, rules: [] };
  const issues: ApproverConfigIssue[] = [];
  const defaultDecision = normalizeApproverDefault(ir.default);
  if (defaultDecision === undefined) {
    issues.push({
      code: 'approver/unknown-default',
      message: `approver: unknown default ${goQuote(ir.default)}`,
      field: 'default',
    });
  }
  const rules: PatternRule[] = [];
  // `RULE_LISTS`: allow first, then deny, the order the reference looks for the failing rule in
  // (A3.6); the ask list, which the reference does not have, last.
  const shellTools = new Set(shellToolsOf(ir).map((t) => caseFold(t.tool)));
  for (const { rule, list, index } of eachRule(ir)) {
    if (isCommandRule(rule)) {
      issues.push(...commandRuleIssues(rule, list, index, shellTools));
      continue;
    }
    const compiled = compileRuleRegex(rule.match, rule.field);
    if (compiled !== null && !compiled.ok) {
      issues.push({
        code: 'regex/invalid',
        message: `approver: pattern compile: ${compiled.error}`,
        field: 'match',
        list,
        index,
        regexError: compiled.error,
      });
      continue;
    }
    const regex: CompiledRegex | null = compiled === null ? null : compiled.regex;
    rules.push({ list, index, tool: rule.tool, match: rule.match, field: rule.field, span: rule.span, regex });
  }
  if (ir.unknown !== undefined && ir.unknown !== 'ask' && ir.unknown !== 'deny') {
    issues.push({ code: 'command/unknown-decision', message: `unknown decision \`${ir.unknown}\` for commands that cannot be judged`, field: 'unknown' });
  }
  return { issues, mode, defaultDecision, rules };
}

/** The load problems of one command rule. */
function commandRuleIssues(rule: RuleIR, list: RuleList, index: number, shellTools: ReadonlySet<string>): ApproverConfigIssue[] {
  const out: ApproverConfigIssue[] = [];
  const at = { list, index };
  const name = ruleLabel(at);
  if (rule.match !== '' || rule.field !== undefined) {
    out.push({ code: 'command/invalid-rule', message: `\`${name}\` has both \`${rule.match !== '' ? 'match' : 'field'}\` (a regex rule) and \`${rule.command !== undefined ? 'command' : rule.redirect !== undefined ? 'redirect' : 'args'}\` (a command rule)`, field: 'command', ...at });
  }
  if (rule.command === undefined && rule.redirect === undefined) {
    out.push({ code: 'command/invalid-rule', message: `\`${name}\` has \`args\` without \`command\``, field: 'args', ...at });
  }
  if (rule.command !== undefined && (rule.command.length === 0 || rule.command.some((w) => typeof w !== 'string' && w.length === 0))) {
    out.push({ code: 'command/invalid-rule', message: `the command of \`${name}\` needs at least one word, and each list of alternatives at least one`, field: 'command', ...at });
  }
  for (const key of ['args', 'redirect'] as const) {
    const p = rule[key];
    if (p === undefined) continue;
    const c = compileShared(p);
    if (!c.ok) out.push({ code: 'regex/invalid', message: `approver: pattern compile: ${c.error}`, field: key, ...at, regexError: c.error });
  }
  if (rule.tool !== '' && !shellTools.has(caseFold(rule.tool))) {
    out.push({ code: 'command/not-shell-tool', message: `command rule \`${name}\` is for \`${rule.tool}\`, which is not a shell tool`, field: 'tool', ...at });
  }
  return out;
}

export { rulesOf } from '../ir.ts';

/** Every load problem of an approver configuration, in Go's order (mode; default; allow, then deny, then ask rules). */
export function checkApproverConfig(ir: ApproverIR): ApproverConfigIssue[] {
  return analyse(ir).issues;
}

/**
 * Builds the approver a configuration describes. Unknown mode or default: no approver. Invalid
 * regexes: no approver, unless `compat` is set and they are the only problems; then every call is
 * denied with the first failing rule's error (allow list first, then deny, then ask). `compat`
 * changes nothing else: ask rules (a Verdict extension, like `field` and `input`) decide as usual.
 */
export function compileApprover(ir: ApproverIR, options: CompileApproverOptions = {}): CompileApproverResult {
  const { issues, mode, defaultDecision, rules } = analyse(ir);
  let approver: CompiledApprover | undefined;
  if (mode === 'allow_all') approver = createModeApprover('allow', '');
  else if (mode === 'deny_all') approver = createModeApprover('deny', ir.reason === '' ? DEFAULT_DENY_ALL_REASON : ir.reason);
  else if (mode === 'pattern' && defaultDecision !== undefined) {
    const regexIssue = issues.find((i) => i.code === 'regex/invalid');
    // Command rules that cannot load are never dropped, not even in compatibility mode.
    const commandIssue = issues.some((i) => i.code.startsWith('command/'));
    if (regexIssue === undefined && !commandIssue) {
      approver = commandLayer(ir, createPatternApprover({ rules, defaultDecision, reason: ir.reason, input: ir.input }), options, issues);
    } else if (!commandIssue && regexIssue !== undefined && options.compat === true && issues.every((i) => i.code === 'regex/invalid')) {
      const list = regexIssue.list ?? 'allow';
      const index = regexIssue.index ?? 0;
      const span = rulesOf(ir, list)[index]?.span;
      approver = createCompileErrorApprover(
        regexIssue.message,
        span === undefined ? { list, index } : { list, index, span },
      );
    }
  }
  if (approver !== undefined && options.logger !== undefined) approver = withAudit(approver, options.logger);
  return { approver, issues };
}

/**
 * The approver of `ir` for calls to the tools `names` only (`verdict hook` asks each call under one
 * or two names, and builds its cached policy's approver with this). A regex rule naming another tool
 * cannot decide such a call (A3.2: a rule applies when it names no tool or the call's, case-folded),
 * so it keeps its list and index, and with them every rule reference and every list's order, but
 * loses its pattern and field: its regex is never compiled (re2js compiling every pattern was most of
 * a fresh process's build). Command rules are kept whole (their judge checks them all). A call to
 * one of `names` is decided exactly as `compileApprover(ir, options)` decides it; a call to any other
 * tool is refused (a deny), never decided by the emptied rules.
 */
export function compileApproverFor(ir: ApproverIR, names: readonly string[], options: CompileApproverOptions = {}): CompileApproverResult {
  const asked = new Set(names.map(caseFold));
  const narrow = (rules: readonly RuleIR[]): RuleIR[] =>
    rules.map((r) => {
      if (isCommandRule(r) || caseFold(r.tool) === '' || asked.has(caseFold(r.tool))) return r;
      const { field: _field, fieldSpan: _fieldSpan, matchSpan: _matchSpan, ...rest } = r;
      return { ...rest, match: '' };
    });
  const narrowed: ApproverIR = { ...ir, allow: narrow(ir.allow), deny: narrow(ir.deny), ...(ir.ask !== undefined ? { ask: narrow(ir.ask) } : {}) };
  const { approver, issues } = compileApprover(narrowed, options);
  if (approver === undefined) return { approver, issues };
  const other = (request: ApprovalRequest): boolean => typeof request?.toolName === 'string' && !asked.has(caseFold(request.toolName));
  const reason = internalErrorReason(new Error(`this approver decides calls to ${names.map((n) => `\`${n}\``).join(', ')} only`));
  return {
    issues,
    approver: {
      approve: (request) => (other(request) ? { decision: 'deny', reason } : approver.approve(request)),
      decide: (request) => (other(request) ? { decision: 'deny', reason, rule: null } : approver.decide(request)),
      explain: (request) => (other(request) ? { decision: 'deny', reason, rule: null, by: 'internal-error', match: null, alsoMatched: [] } : approver.explain(request)),
      answers: (request) => (other(request) ? [{ decision: 'deny', reason, rule: null, by: 'refused' }] : approver.answers(request)),
    },
  };
}

/** The pattern approver with its command rules, if it has any (`undefined`, with an issue, when they cannot load). */
function commandLayer(
  ir: ApproverIR,
  approver: PatternApprover,
  options: CompileApproverOptions,
  issues: ApproverConfigIssue[],
): CompiledApprover | undefined {
  const hasCommandRules = eachRule(ir).some((r) => isCommandRule(r.rule));
  if (!hasCommandRules) return approver;
  if (options.commandJudge === undefined) {
    issues.push({ code: 'command/no-judge', message: 'command rules need a command judge, and none was given', field: 'command' });
    return undefined;
  }
  const unknown = ir.unknown === 'ask' ? 'ask' : 'deny';
  const built = buildCommandJudges(ir, unknown, options.commandJudge);
  if ('error' in built) {
    // The judge's `environment:` errors name no rule (packages/shell engine-rules.ts: `environment: …`).
    if (built.rule === undefined && built.error.startsWith('environment: ')) {
      issues.push({ code: 'command/invalid-environment', message: built.error.slice('environment: '.length), field: 'environment' });
      return undefined;
    }
    if (built.rule === undefined && built.error.startsWith('shells: ')) {
      issues.push({ code: 'command/invalid-shells', message: built.error.slice('shells: '.length), field: 'shells' });
      return undefined;
    }
    issues.push({ code: 'command/invalid-rule', message: built.error, field: 'command', ...(built.rule ?? {}) });
    return undefined;
  }
  return withCommandRules(approver, {
    judges: built.judges,
    unknown,
    spanOf: (list, index) => rulesOf(ir, list)[index]?.span,
  });
}
