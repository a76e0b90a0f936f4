/**
 * The runner: compiles a file up to `resolve`, runs every enabled rule over the IR, turns reports
 * into located findings, merges the compiler's diagnostics, applies inline suppressions and counts.
 * It never throws on user input: a rule that throws becomes a `lint/internal-error` finding for
 * that file, and so does a compiler crash.
 */
import { RegexCache } from '@verdict/analysis';
import { createHash } from 'node:crypto';
import { compileSource, isBlocking, SourceEditor } from '@verdict/compiler';
import type { CompileResult } from '@verdict/compiler';
import { codePointCount, compileApprover, eachRule, MAX_PATTERN_CHARS, normalizeApproverMode } from '@verdict/engine';
import type { CompiledApprover, Diagnostic, HookAgent, PolicyFileIR, Severity, Span } from '@verdict/engine';
import { commandJudgeFactory } from '@verdict/shell';
import { readNative } from '@verdict/native';
import type { NativeFile, NativeFormat } from '@verdict/native';
import { hookAgentDirective } from './support/hook-agent.ts';
import { interpolate } from './create-rule.ts';
import { applySuppressions, findSuppressions } from './suppressions.ts';
import { SourceInfo } from './support/source.ts';
import type {
  Category,
  FileResult,
  LintConfig,
  LintMessage,
  NativeRuleContext,
  ReportDescriptor,
  Rule,
  RuleContext,
  RuleServices,
  RuleVisitor,
  SeverityLevel,
} from './types.ts';
import { allRules } from './rules/index.ts';

export interface LintSourceOptions {
  /** Driver override (`--driver`): a built-in name or a descriptor path. */
  driver?: string;
  /** The agent whose hook runs the policy (`--hook-agent`); a `# verdict-hook-agent:` comment in the file wins. */
  hookAgent?: HookAgent;
  config?: LintConfig;
  /** The rule catalogue (default: every rule). */
  rules?: readonly Rule[];
  /** Share one regex cache across files. */
  regexes?: RegexCache;
  /** Run only these rules and drop compiler findings (rule tests). */
  only?: readonly string[];
  /** `text` already compiled by `compileForLint` (with the same `driver`): it is not parsed again. */
  compiled?: CompileResult;
}

/** The compilation a lint run reads: the front end up to `resolve`. */
export function compileForLint(text: string, file: string, driver: string | undefined): CompileResult {
  return compileSource(text, file, { stopAfter: 'resolve', ...(driver !== undefined ? { driver } : {}) });
}

interface ResolvedRule {
  rule: Rule;
  severity: Severity;
  options: Record<string, unknown>;
}

/** The severity a rule runs at under `config`: per rule, else per category, else its default. */
export function ruleSeverity(rule: Rule, config: LintConfig | undefined): SeverityLevel {
  return config?.rules[rule.id]?.severity ?? config?.categories[rule.meta.category] ?? rule.meta.severity;
}

function resolveRules(rules: readonly Rule[], options: LintSourceOptions): ResolvedRule[] {
  const out: ResolvedRule[] = [];
  for (const rule of rules) {
    if (options.only !== undefined && !options.only.includes(rule.id)) continue;
    let severity = ruleSeverity(rule, options.config);
    if (options.only !== undefined && severity === 'off') severity = rule.meta.severity === 'off' ? 'warning' : rule.meta.severity;
    if (severity === 'off') continue;
    const defaults: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(rule.meta.options ?? {})) defaults[k] = v.default;
    out.push({ rule, severity, options: { ...defaults, ...(options.config?.rules[rule.id]?.options ?? {}) } });
  }
  return out;
}

const RUNNER_RULES = new Set(['lint/internal-error', 'lint/unused-suppression']);

/** Lints one source text. `file` is the path shown in findings. */
export function lintSource(text: string, file: string, options: LintSourceOptions = {}): FileResult {
  const catalogue = options.rules ?? allRules;
  const regexes = options.regexes ?? new RegexCache();
  const byId = new Map(catalogue.map((r) => [r.id, r]));
  const resolved = resolveRules(
    catalogue.filter((r) => !RUNNER_RULES.has(r.id)),
    options,
  );
  // Which rules are on under the configuration, even when only some run (rule tests).
  const enabled = new Set(
    options.only === undefined
      ? resolved.map((r) => r.rule.id)
      : catalogue.filter((r) => ruleSeverity(r, options.config) !== 'off' || options.only?.includes(r.id)).map((r) => r.id),
  );
  const messages: LintMessage[] = [];

  let compiled: CompileResult | undefined;
  let source = new SourceInfo(file, text, undefined);
  const internal = (what: string, error: unknown, at?: Span): void => {
    const rule = byId.get('lint/internal-error');
    const detail = error instanceof Error ? error.message : String(error);
    messages.push({
      ruleId: 'lint/internal-error',
      category: 'lint',
      severity: 'error',
      message: interpolate(rule?.meta.messages.crashed ?? '{{what}} crashed on this file: {{detail}}', {
        what,
        detail: detail.split('\n')[0] ?? '',
      }),
      span: at ?? source.fileStart(),
      source: 'linter',
      fingerprint: '',
      messageId: 'crashed',
    });
  };

  try {
    // A compilation handed in is reused only for the very text it read (`--fix` lints new texts).
    compiled = options.compiled !== undefined && options.compiled.text === text ? options.compiled : compileForLint(text, file, options.driver);
    source = new SourceInfo(file, compiled.text ?? text, compiled.syntax);
  } catch (e) {
    internal('the compiler', e);
  }

  const ruleMessages: LintMessage[] = [];
  if (compiled?.ir !== undefined && !hasOverlongPattern(compiled.ir)) {
    const ir = compiled.ir;
    const shared = fileContext(ir, compiled, source, regexes, enabled, hookAgentDirective(text) ?? options.hookAgent ?? options.config?.hookAgent);
    for (const r of resolved) {
      try {
        const visitor = r.rule.create(makeContext(r, ir, compiled, source, regexes, shared, ruleMessages));
        if (visitor) walk(ir, visitor);
      } catch (e) {
        internal(`rule \`${r.rule.id}\``, e, e instanceof ServiceError ? e.span : undefined);
      }
    }
  }

  // A rule that explains a finding of another rule better (its `supersedes`) wins at the same place,
  // or in the whole file for an entry with `scope: 'file'`: the only precedence between findings.
  const explainedBy = new Map<number, Set<string>>();
  const explainedInFile = new Set<string>();
  for (const m of ruleMessages) {
    const offset = m.span?.start.offset;
    for (const entry of byId.get(m.ruleId)?.meta.supersedes ?? []) {
      if (typeof entry !== 'string') {
        if (entry.rule !== m.ruleId) explainedInFile.add(entry.rule);
        continue;
      }
      if (offset === undefined || entry === m.ruleId) continue;
      const set = explainedBy.get(offset) ?? new Set<string>();
      set.add(entry);
      explainedBy.set(offset, set);
    }
  }
  for (let i = ruleMessages.length - 1; i >= 0; i--) {
    const m = ruleMessages[i] as LintMessage;
    const offset = m.span?.start.offset;
    if (explainedInFile.has(m.ruleId) || (offset !== undefined && explainedBy.get(offset)?.has(m.ruleId))) ruleMessages.splice(i, 1);
  }

  // Compiler findings, minus the ones a rule reported better at the same place.
  if (compiled !== undefined && options.only === undefined) {
    const superseding = new Map<number, Set<string>>();
    for (const m of ruleMessages) {
      const offset = m.span?.start.offset;
      if (offset === undefined) continue;
      const codes = superseding.get(offset) ?? new Set<string>();
      codes.add(m.ruleId);
      for (const c of byId.get(m.ruleId)?.meta.supersedes ?? []) if (typeof c === 'string') codes.add(c);
      superseding.set(offset, codes);
    }
    for (const d of compiled.diagnostics) {
      const offset = d.span?.start.offset;
      if (explainedInFile.has(d.code) || (offset !== undefined && superseding.get(offset)?.has(d.code))) continue;
      const m = fromCompilerDiagnostic(d, options.config, source);
      if (m !== undefined) messages.push(m);
    }
  }
  for (const m of ruleMessages) messages.push(m);

  // Suppressions.
  const suppressions = findSuppressions(source);
  const { kept, suppressed } = applySuppressions(messages, suppressions);
  const unusedRule = byId.get('lint/unused-suppression');
  const unusedSeverity = unusedRule ? ruleSeverity(unusedRule, options.config) : 'warning';
  const reportUnused = options.only === undefined || options.only.includes('lint/unused-suppression');
  if (unusedSeverity !== 'off' && reportUnused) {
    for (const s of suppressions) {
      const unused = s.rules.length === 0 ? (s.used.size === 0 ? ['*'] : []) : s.rules.filter((r) => !s.used.has(r));
      for (const id of unused) {
        const data = { rule: id === '*' ? 'any rule' : `\`${id}\`` };
        kept.push({
          ruleId: 'lint/unused-suppression',
          category: 'lint',
          severity: unusedSeverity,
          message: interpolate(unusedRule?.meta.messages.unused ?? 'this comment suppresses {{rule}} but nothing is reported on the next line', data),
          ...(unusedRule?.meta.help?.unused ? { help: interpolate(unusedRule.meta.help.unused, data) } : {}),
          messageId: 'unused',
          span: s.span,
          source: 'linter',
          fingerprint: '',
        });
      }
    }
  }

  const sorted = sortMessages(kept);
  fingerprint(sorted, source);
  fingerprint(suppressed, source);
  return {
    file,
    ...(compiled?.syntax !== undefined ? { syntax: compiled.syntax } : {}),
    messages: sorted,
    suppressed: sortMessages(suppressed),
    errorCount: sorted.filter((m) => m.severity === 'error').length,
    warningCount: sorted.filter((m) => m.severity === 'warning').length,
    infoCount: sorted.filter((m) => m.severity === 'info').length,
    parsed: compiled?.ir !== undefined,
  };
}

/**
 * A pattern over the engine's length limit is refused by the compiler (`regex/invalid`, which is
 * reported); rules read patterns as text and would spend time and memory in proportion to its
 * millions of characters, so none runs on such a file. Every list is looked at (`eachRule`).
 */
export function hasOverlongPattern(ir: PolicyFileIR): boolean {
  const a = ir.approver;
  if (a === undefined) return false;
  return eachRule(a).some(({ rule: r }) => r.match.length > MAX_PATTERN_CHARS && codePointCount(r.match) > MAX_PATTERN_CHARS);
}

/** A service the runner could not give a rule: an internal error, located where the service comes from. */
class ServiceError extends Error {
  constructor(
    message: string,
    readonly span: Span | undefined,
  ) {
    super(message);
  }
}

/**
 * The file's approver, compiled once with the command judge (as `verdict eval` compiles it):
 * `null` when the file has none or it does not load for a reason the compiler reports; a
 * `ServiceError` when it cannot be built for any other reason.
 */
function fileApprover(ir: PolicyFileIR): () => CompiledApprover | null {
  let built: { approver: CompiledApprover | null } | { error: ServiceError } | undefined;
  return () => {
    if (built === undefined) {
      const a = ir.approver;
      try {
        if (a === undefined) built = { approver: null };
        else {
          const r = compileApprover(a, { commandJudge: commandJudgeFactory });
          const internalIssue = r.issues.find((i) => i.code === 'command/no-judge');
          if (internalIssue !== undefined) built = { error: new ServiceError(`the approver service: ${internalIssue.message}`, a.span) };
          else built = { approver: r.issues.length === 0 ? (r.approver ?? null) : null };
        }
      } catch (e) {
        built = { error: new ServiceError(`the approver service: ${e instanceof Error ? e.message : String(e)}`, a?.span) };
      }
    }
    if ('error' in built) throw built.error;
    return built.approver;
  };
}

/** The services of one rule: those it declares in `meta.needs`; any other read is an internal error. */
function servicesFor(rule: Rule, shared: FileContext): RuleServices {
  const needs = rule.meta.needs ?? [];
  return {
    get approver() {
      if (!needs.includes('approver')) throw new ServiceError("read the `approver` service without declaring it in `meta.needs`", undefined);
      return shared.approver();
    },
  };
}

function fromCompilerDiagnostic(d: Diagnostic, config: LintConfig | undefined, source: SourceInfo): LintMessage | undefined {
  const setting = config?.rules[d.code]?.severity;
  // A category setting may quiet the compiler's warnings and notes, never its errors. An error that
  // stops the compiler (`yaml/syntax`, `schema/*`, `load/*`: a file no command can load) stays an
  // error whatever the configuration says, or a CI lint would pass a file every other command refuses.
  const locked = isBlocking(d);
  const category = d.severity === 'error' ? undefined : config?.categories.compiler;
  const severity = locked ? 'error' : (setting ?? category ?? d.severity);
  if (severity === 'off') return undefined;
  const overruled = locked && setting !== undefined && setting !== 'error';
  const help = overruled
    ? `${d.help !== undefined ? `${d.help}; ` : ''}the configuration's \`${setting}\` for \`${d.code}\` does not apply: no command can load a file with this error`
    : d.help;
  return {
    ruleId: d.code,
    category: 'compiler',
    severity,
    message: d.message,
    ...(help !== undefined ? { help } : {}),
    span: d.span ?? source.fileStart(),
    ...(d.path !== undefined ? { path: d.path } : {}),
    ...(d.related !== undefined ? { related: d.related } : {}),
    source: 'compiler',
    fingerprint: '',
  };
}

/** What every rule's context shares for one file: built once per file, not once per rule. */
interface FileContext {
  hookAgent: HookAgent | undefined;
  approverPath: () => (string | number)[];
  locate: (d: {
    span?: Span | undefined;
    node?: { span?: Span | undefined } | undefined;
    path?: readonly (string | number)[] | undefined;
    atKey?: boolean | undefined;
  }) => Span;
  regex: RuleContext['regex'];
  scalarStyleAt: RuleContext['scalarStyleAt'];
  isRuleEnabled: RuleContext['isRuleEnabled'];
  fixPattern: RuleContext['fixPattern'];
  /** The approver service, built on first use. */
  approver: () => CompiledApprover | null;
}

function fileContext(ir: PolicyFileIR, compiled: CompileResult, source: SourceInfo, regexes: RegexCache, enabled: ReadonlySet<string>, hookAgent: HookAgent | undefined): FileContext {
  // One editor per file: the YAML document is read once however many findings carry a fix.
  let editor: SourceEditor | undefined;
  return {
    hookAgent,
    approverPath: () =>
      ir.approverPlacement === 'agent.approver' ? ['agent', 'approver'] : ir.approverPlacement === 'approver' ? ['approver'] : [],
    locate: (d) =>
      d.span ??
      d.node?.span ??
      (d.path !== undefined ? compiled.locate(d.path, d.atKey === true) : undefined) ??
      ir.approver?.span ??
      source.fileStart(),
    regex: (pattern) => regexes.get(pattern),
    scalarStyleAt: (span) => compiled.scalarStyleAt(span),
    isRuleEnabled: (id) => enabled.has(id),
    approver: fileApprover(ir),
    fixPattern: (rule, pattern) => {
      const at = rule.matchSpan;
      if (at === undefined || source.syntax === undefined || pattern === rule.match) return undefined;
      editor ??= new SourceEditor(source.text, source.syntax);
      return editor.patternEdit({ start: at.start.offset, end: at.end.offset }, pattern);
    },
  };
}

function makeContext(
  r: ResolvedRule,
  ir: PolicyFileIR,
  compiled: CompileResult,
  source: SourceInfo,
  regexes: RegexCache,
  shared: FileContext,
  sink: LintMessage[],
): RuleContext {
  const { rule } = r;
  const { locate } = shared;
  return {
    id: rule.id,
    file: source.file,
    text: source.text,
    syntax: source.syntax,
    ir,
    compile: compiled,
    driverName: compiled.driverName,
    hookAgent: shared.hookAgent,
    descriptor: compiled.descriptor,
    policy: compiled.policy,
    options: r.options,
    regex: shared.regex,
    regexCache: regexes,
    scalarStyleAt: shared.scalarStyleAt,
    approverPath: shared.approverPath,
    isRuleEnabled: shared.isRuleEnabled,
    fixPattern: shared.fixPattern,
    services: servicesFor(rule, shared),
    report(d: ReportDescriptor) {
      sink.push(ruleMessage(r, d, locate));
    },
  };
}

/** The message a rule reports (policy and native rules alike): its template filled, its spans located. */
function ruleMessage(r: ResolvedRule, d: ReportDescriptor, locate: (d: { span?: Span | undefined; node?: { span?: Span | undefined } | undefined }) => Span): LintMessage {
  const { rule } = r;
  const template = rule.meta.messages[d.messageId];
  if (template === undefined) throw new Error(`unknown message id \`${d.messageId}\``);
  // As in ESLint: only a rule that says it is fixable may report a fix.
  if (d.fix !== undefined && rule.meta.fixable === undefined) throw new Error('reported a fix without `meta.fixable`');
  const helpTemplate = rule.meta.help?.[d.messageId];
  const related = (d.related ?? []).map((rel) => {
    const t = rule.meta.messages[rel.messageId];
    if (t === undefined) throw new Error(`unknown message id \`${rel.messageId}\``);
    return { message: interpolate(t, rel.data), span: locate(rel) };
  });
  return {
    ruleId: rule.id,
    category: rule.meta.category,
    severity: r.severity,
    message: interpolate(template, d.data),
    ...(helpTemplate !== undefined ? { help: interpolate(helpTemplate, d.data) } : {}),
    messageId: d.messageId,
    span: locate(d),
    ...(d.path !== undefined ? { path: [...d.path] } : {}),
    ...(related.length > 0 ? { related } : {}),
    source: 'rule',
    fingerprint: '',
    ...(d.fix !== undefined ? { fix: { range: [d.fix.range[0], d.fix.range[1]] as [number, number], text: d.fix.text } } : {}),
  };
}

function walk(ir: PolicyFileIR, v: RuleVisitor): void {
  v.file?.(ir);
  const a = ir.approver;
  if (a !== undefined) {
    v.approver?.(a);
    // Rules are looked at only where the engine looks at them: in pattern mode (A2.2).
    if (v.rule && normalizeApproverMode(a.mode) === 'pattern') for (const r of eachRule(a)) v.rule(r.rule, r.list, r.index, a);
  }
  if (ir.policy !== undefined) v.policy?.(ir.policy);
  if (v.test) ir.tests.forEach((t, i) => v.test?.(t, i));
}

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

function sortMessages(list: readonly LintMessage[]): LintMessage[] {
  return [...list].sort((a, b) => {
    const oa = a.span?.start.offset ?? -1;
    const ob = b.span?.start.offset ?? -1;
    if (oa !== ob) return oa - ob;
    if (a.severity !== b.severity) return SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity];
    return a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : a.message < b.message ? -1 : a.message > b.message ? 1 : 0;
  });
}

/**
 * Fingerprints that survive edits elsewhere in the file: the rule, the file, the flagged source
 * text (whitespace collapsed; the line's text for an empty span) and its occurrence index among
 * equal keys.
 */
function fingerprint(list: LintMessage[], source: SourceInfo): void {
  const seen = new Map<string, number>();
  for (const m of list) {
    let snippet = '';
    if (m.span !== undefined) {
      snippet = source.text.slice(m.span.start.offset, m.span.end.offset);
      if (snippet.trim() === '') {
        const lineStart = m.span.start.offset - (m.span.start.column - 1);
        const nl = source.text.indexOf('\n', lineStart);
        snippet = source.text.slice(lineStart, nl < 0 ? undefined : nl);
      }
    }
    const key = `${m.ruleId}\0${source.file.replace(/\\/g, '/')}\0${snippet.replace(/\s+/g, ' ').trim()}\0${m.messageId ?? m.message}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    m.fingerprint = createHash('sha256').update(`${key}\0${n}`).digest('hex').slice(0, 32);
  }
}

export type { Category };

export interface LintNativeOptions {
  config?: LintConfig;
  rules?: readonly Rule[];
  /** Run only these rules and drop the reader's findings (rule tests). */
  only?: readonly string[];
  /** The file is a symbolic link (the agents that skip those are said so). */
  symlink?: boolean;
}

/** Reader codes that mean the agent cannot load the file either: never quieted by the configuration. */
const LOCKED_NATIVE = (code: string): boolean => code === 'native/syntax' || code.startsWith('load/');

/**
 * Lints one agent's own permission file (`@verdict/native` reads it as `format`): the reader's
 * findings (`native/syntax`, `native/not-static`, `native/type`), then every enabled rule of the
 * `native` family. Suppressions work as in YAML where the format has `#` comments (TOML, Starlark).
 */
export function lintNativeSource(text: string, file: string, format: NativeFormat, options: LintNativeOptions = {}): FileResult {
  const catalogue = options.rules ?? allRules;
  const byId = new Map(catalogue.map((r) => [r.id, r]));
  const resolved = resolveRules(
    catalogue.filter((r) => r.native !== undefined),
    options,
  );
  const enabled = new Set(resolved.map((r) => r.rule.id));
  const source = new SourceInfo(file, text, format === 'claude-settings' || format === 'cursor-cli' || format === 'gemini-settings' ? 'json' : undefined);
  const messages: LintMessage[] = [];
  let native: NativeFile | undefined;
  try {
    native = readNative(file, text, format);
  } catch (e) {
    messages.push(internalMessage(byId, 'the native reader', e, source.fileStart()));
  }
  if (native !== undefined && options.only === undefined) {
    for (const d of native.diagnostics) {
      const locked = LOCKED_NATIVE(d.code) && d.severity === 'error';
      const severity = locked ? 'error' : (options.config?.rules[d.code]?.severity ?? d.severity);
      if (severity === 'off') continue;
      messages.push({
        ruleId: d.code,
        category: 'native',
        severity,
        message: d.message,
        ...(d.help !== undefined ? { help: d.help } : {}),
        span: d.span ?? source.fileStart(),
        source: 'compiler',
        fingerprint: '',
      });
    }
  }
  const ruleMessages: LintMessage[] = [];
  if (native !== undefined) {
    for (const r of resolved) {
      const check = r.rule.native;
      if (check === undefined) continue;
      try {
        check(nativeContext(r, native, source, enabled, options.symlink === true, ruleMessages));
      } catch (e) {
        messages.push(internalMessage(byId, `rule \`${r.rule.id}\``, e, source.fileStart()));
      }
    }
  }
  // Supersedes, at the same place, as for policy files.
  const explainedBy = new Map<number, Set<string>>();
  for (const m of ruleMessages) {
    const offset = m.span?.start.offset;
    if (offset === undefined) continue;
    for (const entry of byId.get(m.ruleId)?.meta.supersedes ?? []) {
      if (typeof entry !== 'string' || entry === m.ruleId) continue;
      const set = explainedBy.get(offset) ?? new Set<string>();
      set.add(entry);
      explainedBy.set(offset, set);
    }
  }
  for (const m of ruleMessages) {
    const offset = m.span?.start.offset;
    if (offset !== undefined && explainedBy.get(offset)?.has(m.ruleId)) continue;
    messages.push(m);
  }
  const suppressions = source.syntax === 'json' ? [] : findSuppressions(source);
  const { kept, suppressed } = applySuppressions(messages, suppressions);
  const sorted = sortMessages(kept);
  fingerprint(sorted, source);
  fingerprint(suppressed, source);
  return {
    file,
    native: format,
    messages: sorted,
    suppressed: sortMessages(suppressed),
    errorCount: sorted.filter((m) => m.severity === 'error').length,
    warningCount: sorted.filter((m) => m.severity === 'warning').length,
    infoCount: sorted.filter((m) => m.severity === 'info').length,
    parsed: native !== undefined && native.diagnostics.every((d) => d.code !== 'native/syntax'),
  };
}

function internalMessage(byId: ReadonlyMap<string, Rule>, what: string, error: unknown, at: Span): LintMessage {
  const rule = byId.get('lint/internal-error');
  const detail = error instanceof Error ? error.message : String(error);
  return {
    ruleId: 'lint/internal-error',
    category: 'lint',
    severity: 'error',
    message: interpolate(rule?.meta.messages.crashed ?? '{{what}} crashed on this file: {{detail}}', { what, detail: detail.split('\n')[0] ?? '' }),
    span: at,
    source: 'linter',
    fingerprint: '',
    messageId: 'crashed',
  };
}

function nativeContext(r: ResolvedRule, native: NativeFile, source: SourceInfo, enabled: ReadonlySet<string>, symlink: boolean, sink: LintMessage[]): NativeRuleContext {
  const { rule } = r;
  const locate = (d: { span?: Span | undefined; node?: { span?: Span | undefined } | undefined }): Span => d.span ?? d.node?.span ?? source.fileStart();
  return {
    id: rule.id,
    file: source.file,
    text: source.text,
    native,
    symlink,
    options: r.options,
    isRuleEnabled: (id) => enabled.has(id),
    report(d: ReportDescriptor) {
      sink.push(ruleMessage(r, d, locate));
    },
  };
}

/**
 * The result of a file that could not be read (not a regular file, too large, not UTF-8): its load
 * findings, as the compiler reports them, so a folder never skips such a file without a word.
 */
export function unreadableFile(file: string, diagnostics: readonly Diagnostic[], options: LintSourceOptions = {}): FileResult {
  const source = new SourceInfo(file, '', undefined);
  const messages: LintMessage[] = [];
  for (const d of diagnostics) {
    const m = fromCompilerDiagnostic(d, options.config, source);
    if (m !== undefined) messages.push(m);
  }
  const sorted = sortMessages(messages);
  fingerprint(sorted, source);
  return {
    file,
    messages: sorted,
    suppressed: [],
    errorCount: sorted.filter((m) => m.severity === 'error').length,
    warningCount: sorted.filter((m) => m.severity === 'warning').length,
    infoCount: sorted.filter((m) => m.severity === 'info').length,
    parsed: false,
    unreadable: true,
  };
}
