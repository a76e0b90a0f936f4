/**
 * The linter's vocabulary: rules and what they report, findings, per-file results, a whole run,
 * formatters and configuration. Rules report message ids with data, never free text; the runner
 * turns a report into a located finding.
 */
import { type RegexCache } from '@verdict/analysis';
import type {
  ApproverIR,
  CompiledApprover,
  CompileRegexResult,
  Diagnostic,
  DriverDescriptor,
  HookAgent,
  Policy,
  PolicyFileIR,
  PolicyIR,
  RelatedInformation,
  RuleIR,
  RuleList,
  Severity,
  Span,
  TestCaseIR,
} from '@verdict/engine';
import type { CompileResult, ScalarStyle } from '@verdict/compiler';
import type { NativeFile, NativeFormat } from '@verdict/native';

/** Rule families; severities can be set per category in the configuration. */
export type Category = 'compiler' | 'regex' | 'rules' | 'approver' | 'policy' | 'hook' | 'tests' | 'analysis' | 'lint' | 'native';
export const CATEGORIES: readonly Category[] = [
  'compiler',
  'regex',
  'rules',
  'approver',
  'policy',
  'hook',
  'tests',
  'analysis',
  'lint',
  'native',
];

export type SeverityLevel = 'off' | Severity;
export const SEVERITY_LEVELS: readonly SeverityLevel[] = ['off', 'info', 'warning', 'error'];

/** Values a message template can interpolate: `{{name}}`. */
export type MessageData = Record<string, string | number | boolean>;

/** Documentation of one option of a rule (shown on its docs page). */
export interface RuleOptionDoc {
  description: string;
  default: unknown;
}

export interface RuleMeta<M extends string = string> {
  /** One line: what the rule flags. */
  description: string;
  /** Severity when the configuration says nothing. */
  severity: SeverityLevel;
  category: Category;
  /** Message templates by id: one lowercase sentence, no final period, user text in backticks. */
  messages: Record<M, string>;
  /** Advice templates by message id, shown apart from the message. */
  help?: Partial<Record<M, string>>;
  docs: {
    /** Part of the recommended set (enabled by default at its severity). */
    recommended: boolean;
  };
  /** Options and their defaults; configuration values are merged over them. */
  options?: Record<string, RuleOptionDoc>;
  /**
   * Compiler diagnostic codes or other rules' ids this rule explains better: a finding with one of
   * these codes (or a compiler diagnostic with the rule's own id) at the same start offset as one
   * of the rule's findings is dropped; an entry with `scope: 'file'` drops that rule's findings
   * anywhere in the file. The only precedence between findings: rules never ask whether another
   * rule is on to stay quiet.
   */
  supersedes?: readonly (string | Supersedes)[];
  /**
   * `'code'`: some findings carry a fix (`verdict lint --fix`). A rule without it may not report
   * one, as in ESLint.
   */
  fixable?: 'code';
  /**
   * The services of the runner the rule reads through `ctx.services` (built once per file and
   * shared): `approver`, the file's compiled approver with the command judge. Reading a service the
   * rule does not declare is an internal error, as is a service the runner cannot build.
   */
  needs?: readonly RuleService[];
}

/** A service the runner builds once per file for the rules that declare it in `meta.needs`. */
export type RuleService = 'approver';

/** The services of one file, as a rule reads them. */
export interface RuleServices {
  /**
   * The file's approver, compiled as `verdict eval` compiles it (command rules judged by
   * `@verdict/shell`); `null` when the file has no approver or it does not load (the compiler and
   * the other rules report why).
   */
  readonly approver: CompiledApprover | null;
}

/**
 * A `supersedes` entry that reaches further than the place: with `scope: 'file'`, one finding of
 * this rule drops every finding of `rule` in the file (the same problem, said once for the file).
 */
export interface Supersedes {
  rule: string;
  scope: 'file';
}

/**
 * A fix as data, in ESLint's shape: replace the UTF-16 code units `[range[0], range[1])` of the
 * file's text (after a leading byte order mark, if any, is removed) with `text`.
 */
export interface LintFix {
  range: [number, number];
  text: string;
}

/** Anything with a span: IR nodes, `Located` values. */
export interface Spanned {
  span?: Span | undefined;
}

export interface RelatedReport<M extends string = string> {
  messageId: M;
  data?: MessageData;
  node?: Spanned | undefined;
  span?: Span | undefined;
}

/**
 * What a rule reports. The location is, in order of preference: `span`, `node.span`, the source
 * node at `path` (YAML/JSON), the approver block, the file start.
 */
export interface ReportDescriptor<M extends string = string> {
  messageId: M;
  data?: MessageData;
  span?: Span | undefined;
  node?: Spanned | undefined;
  /** A document path like `['approver', 'allow', 0, 'match']`. */
  path?: readonly (string | number)[];
  /** With `path`: point at the key of the last step rather than its value. */
  atKey?: boolean;
  related?: readonly RelatedReport<M>[];
  /** The one safe rewrite of the finding (`ctx.fixPattern` builds one), for `verdict lint --fix`. */
  fix?: LintFix | undefined;
}

/** The scalar style of a YAML value, as written (the compiler's tree keeps it). */
export type { ScalarStyle };

export interface RuleContext<M extends string = string> {
  readonly id: string;
  readonly file: string;
  /** The source text ("" when it could not be read). */
  readonly text: string;
  readonly syntax: 'yaml' | 'json' | 'verdict' | undefined;
  readonly ir: PolicyFileIR;
  readonly compile: CompileResult;
  /** The driver: `--driver`, else the file's `driver:`; undefined when neither names one. */
  readonly driverName: string | undefined;
  readonly descriptor: DriverDescriptor | undefined;
  /**
   * The coding agent whose hook runs this policy (`verdict hook --agent`): the file's
   * `# verdict-hook-agent: NAME` comment, else `--hook-agent`, else the configuration's `hook-agent`.
   */
  readonly hookAgent: HookAgent | undefined;
  /** The run Policy lowered by the compiler (zero fields stay zero). */
  readonly policy: Policy | undefined;
  /** The rule's options: its defaults with the configuration's values over them. */
  readonly options: Readonly<Record<string, unknown>>;
  /** Compiles a pattern with Go semantics; cached per pattern for the whole run. */
  regex(pattern: string): CompileRegexResult;
  /** The run's regex cache, for helpers that compile (field anchoring, probes). */
  readonly regexCache: RegexCache;
  /** The YAML scalar style of the value that starts at `span` (YAML and JSON files only). */
  scalarStyleAt(span: Span | undefined): ScalarStyle | undefined;
  /** The document path of the approver block (`['agent', 'approver']`, `['approver']` or `[]`). */
  approverPath(): (string | number)[];
  /** Whether another rule is enabled for this run (to avoid saying one thing twice). */
  isRuleEnabled(id: string): boolean;
  /**
   * The fix that rewrites `rule`'s pattern as `pattern`, written in the file's syntax and the
   * value's own quoting (through the compiler's source editor, as `verdict fmt` writes); undefined
   * when it cannot be written without touching anything else (an anchored YAML value, a tag).
   */
  fixPattern(rule: RuleIR, pattern: string): LintFix | undefined;
  /** The services the rule declares in `meta.needs`. */
  readonly services: RuleServices;
  report(descriptor: ReportDescriptor<M>): void;
}

/** Callbacks the runner calls while walking the IR; all optional. */
export interface RuleVisitor {
  file?(ir: PolicyFileIR): void;
  approver?(approver: ApproverIR): void;
  /** Each rule of a pattern approver, allow list first. */
  rule?(rule: RuleIR, list: RuleList, index: number, approver: ApproverIR): void;
  policy?(policy: PolicyIR): void;
  test?(test: TestCaseIR, index: number): void;
}

export interface Rule<M extends string = string> {
  readonly id: string;
  readonly meta: RuleMeta<M>;
  create(ctx: RuleContext<M>): RuleVisitor | void;
  /** A rule of the `native` family: checks an agent's own permission file (`@verdict/native`). */
  readonly native?: (ctx: NativeRuleContext<M>) => void;
}

/** What a `native/*` rule sees: one agent's permission file, as `@verdict/native` read it. */
export interface NativeRuleContext<M extends string = string> {
  readonly id: string;
  readonly file: string;
  readonly text: string;
  readonly native: NativeFile;
  /** The file is a symbolic link (Codex and Gemini CLI skip those). */
  readonly symlink: boolean;
  /** The rule's options: its defaults with the configuration's values over them. */
  readonly options: Readonly<Record<string, unknown>>;
  isRuleEnabled(id: string): boolean;
  report(descriptor: ReportDescriptor<M>): void;
}

export interface LintMessage {
  ruleId: string;
  category: Category;
  severity: Severity;
  message: string;
  help?: string;
  messageId?: string;
  /** Where: always set when the file could be read (the file start at worst). */
  span?: Span;
  path?: (string | number)[];
  related?: RelatedInformation[];
  /** Where the finding came from: a lint rule, the compiler, or the linter itself. */
  source: 'rule' | 'compiler' | 'linter';
  /** Stable across unrelated edits: rule id, file, the flagged text and its occurrence index. */
  fingerprint: string;
  /** The finding's one safe rewrite, when it has one (`verdict lint --fix` applies it). */
  fix?: LintFix;
}

export interface FileResult {
  file: string;
  syntax?: 'yaml' | 'json' | 'verdict';
  /** For an agent's own permission file: its format (the `native/*` rules ran on it). */
  native?: NativeFormat;
  /** Sorted by position. */
  messages: LintMessage[];
  /** Findings silenced by inline comments (kept for reporting formats that show them). */
  suppressed: LintMessage[];
  errorCount: number;
  warningCount: number;
  infoCount: number;
  /** Whether the front end produced an IR (false: only compiler findings). */
  parsed: boolean;
  /** The file could not be read at all (not a regular file, too large, not UTF-8): a load failure, exit 2. */
  unreadable?: boolean;
  /**
   * With fixing on: the whole fixed text (a byte order mark kept) when fixes changed it; the
   * findings are then those of the fixed text.
   */
  output?: string;
  /** With fixing on: the path to write `output` to. */
  filePath?: string;
  /** Fixes that were found but not applied, and why (a fixed text that would lose something). */
  fixDiagnostics?: Diagnostic[];
}

export interface LintRun {
  results: FileResult[];
  errorCount: number;
  warningCount: number;
  infoCount: number;
  /** Problems with the configuration file or the paths given (not tied to a policy file). */
  diagnostics: Diagnostic[];
  /** Files the folders held that are not linted, and why (`verdict lint --debug` lists them). */
  skipped?: { file: string; reason: string }[];
  /** The rules that were known to this run (for SARIF and docs). */
  rules: readonly Rule[];
  /** The working directory paths are relative to. */
  cwd: string;
}

export interface FormatterContext {
  /** ANSI colour in terminal output. */
  color?: boolean;
  cwd?: string;
  rules?: readonly Rule[];
  /** Base URL of the rule docs pages (SARIF helpUri); ends with `/`. */
  docsBaseUrl?: string;
  toolVersion?: string;
}

export type Formatter = (results: readonly FileResult[], ctx?: FormatterContext) => string;

export type FormatterName = 'stylish' | 'json' | 'sarif' | 'github' | 'junit';

export interface RuleSetting {
  severity: SeverityLevel;
  options?: Record<string, unknown>;
}

export interface LintConfig {
  /** Where it was read from, when from a file. */
  file?: string;
  rules: Record<string, RuleSetting>;
  categories: Partial<Record<Category, SeverityLevel>>;
  /** Globs of files to lint when walking folders (default: every policy-like file). */
  include: string[];
  /** Globs never linted. */
  ignore: string[];
  driver?: string;
  /** The agent whose hook runs the linted policies (`hook-agent:`). */
  hookAgent?: HookAgent;
}
