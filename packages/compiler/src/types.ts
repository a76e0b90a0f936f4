import type {
  CommandJudgeFactory,
  CompiledApprover,
  Diagnostic,
  DriverDescriptor,
  Policy,
  PolicyFileIR,
  Span,
} from '@verdict/engine';
import type { LineIndex } from './positions.ts';
import type { JNode, ScalarStyle } from './tree.ts';

/** The compiler's named stages, in order. */
export type StageId = 'load' | 'parse' | 'validate' | 'resolve' | 'compile';
export const STAGE_IDS: readonly StageId[] = ['load', 'parse', 'validate', 'resolve', 'compile'];

export type Syntax = 'yaml' | 'json' | 'verdict';

export interface CompileOptions {
  /** Run the stages up to and including this one (the linter stops after `validate`). */
  stopAfter?: StageId;
  /** Reference behaviour for invalid regexes: warnings, and an approver that denies every call. */
  compat?: boolean;
  /** Overrides the file's `driver:`: a built-in name or a descriptor path (relative to the working directory). */
  driver?: string;
  /** Overrides the syntax detected from the extension or content. */
  syntax?: Syntax;
  /**
   * Judges command rules on shell tools (`@verdict/shell`'s `commandJudgeFactory`; the CLI passes
   * it). Without it a policy with command rules does not compile (`command/no-judge`).
   */
  commandJudge?: CommandJudgeFactory;
  /** The folder `${project}` stands for in patterns (`project.ts`; absent: `/workspace`; `null`: kept as written, for printers). */
  project?: string | null;
}

export interface CompileResult {
  file: string;
  syntax?: Syntax;
  /** The source text (BOM stripped), once loaded. */
  text?: string;
  ir?: PolicyFileIR;
  /** Sorted by position. */
  diagnostics: Diagnostic[];
  driverName?: string;
  descriptor?: DriverDescriptor;
  /** The run Policy lowered from the file (not materialised: zero fields stay zero). */
  policy?: Policy;
  approver?: CompiledApprover;
  /** The last stage that ran. */
  stoppedAfter: StageId;
  /**
   * The string values of a YAML or JSON document's top-level `$schema` keys, read even when the
   * document has errors; absent when no document was read (a `.verdict` file, a load error, invalid JSON).
   */
  schemas?: string[];
  /**
   * Where a document path (object keys and list indices) is written: the span of its node, or of
   * its deepest ancestor that exists; with `atKey`, of the last step's key. From the tree the parse
   * stage built: `undefined` for `.verdict` sources and for files that did not parse.
   */
  locate(path: readonly (string | number)[], atKey?: boolean): Span | undefined;
  /** How the scalar whose text contains the start of `span` is written (YAML and JSON sources). */
  scalarStyleAt(span: Span | undefined): ScalarStyle | undefined;
}

/** Everything the stages hand each other; internal. */
export interface CompileState {
  /** The name diagnostics show: the path as given, with control characters escaped. */
  file: string;
  /** What `load` opens, when it differs from `file` (a name with control characters). */
  path?: string;
  /** Where a parser stopped early, at its error limit (`cap.ts`): the file was not read to its end. */
  stopped?: Span;
  options: CompileOptions;
  diagnostics: Diagnostic[];
  /** Given by `compileSource`; otherwise read by `load`. */
  sourceText?: string;
  syntax?: Syntax;
  text?: string;
  index?: LineIndex;
  /** The syntax-free document tree (YAML and JSON only), with spans. */
  tree?: JNode;
  schemas?: string[];
  ir?: PolicyFileIR;
  driverName?: string;
  descriptor?: DriverDescriptor;
  policy?: Policy;
  approver?: CompiledApprover;
}
