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
import type { JNode } from './tree.ts';

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
  ir?: PolicyFileIR;
  driverName?: string;
  descriptor?: DriverDescriptor;
  policy?: Policy;
  approver?: CompiledApprover;
}
