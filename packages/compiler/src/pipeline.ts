/**
 * The driver: runs the named stages in order, stops after a stage that produced blocking errors or
 * at `stopAfter`, and turns any exception into an `internal/error` diagnostic (compilation never throws).
 */
import { printable, sortDiagnostics } from '@verdict/engine';
import { capDiagnostics } from './cap.ts';
import { runCompile } from './compile.ts';
import { internalError } from './descriptor.ts';
import { runLoad } from './load.ts';
import { runParse } from './parse.ts';
import { runResolve } from './resolve.ts';
import type { CompileOptions, CompileResult, CompileState, StageId } from './types.ts';
import { locateIn, scalarStyleIn } from './tree.ts';
import { isBlocking, runValidate } from './validate.ts';

export interface Stage {
  id: StageId;
  run(state: CompileState): void;
}

export const STAGES: readonly Stage[] = [
  { id: 'load', run: runLoad },
  { id: 'parse', run: runParse },
  { id: 'validate', run: runValidate },
  { id: 'resolve', run: runResolve },
  { id: 'compile', run: runCompile },
];

/** Runs `stages` (the five named stages unless a test passes others) over `state`. */
export function runPipeline(state: CompileState, stages: readonly Stage[] = STAGES): CompileResult {
  let stoppedAfter: StageId = 'load';
  for (const stage of stages) {
    stoppedAfter = stage.id;
    try {
      stage.run(state);
    } catch (e) {
      state.diagnostics.push({ ...internalError(state.file, e), message: `internal compiler error in stage \`${stage.id}\`: ${e instanceof Error ? e.message : String(e)}` });
    }
    if (state.diagnostics.some(isBlocking)) break;
    if (stage.id === state.options.stopAfter) break;
  }
  return resultOf(state, stoppedAfter);
}

function resultOf(state: CompileState, stoppedAfter: StageId): CompileResult {
  const diagnostics = capDiagnostics(state.file, sortDiagnostics(state.diagnostics), state.stopped);
  const tree = state.tree;
  const r: CompileResult = {
    file: state.file,
    diagnostics,
    stoppedAfter,
    locate: (path, atKey = false) => (tree === undefined ? undefined : locateIn(tree, path, atKey)),
    scalarStyleAt: (span) => (tree === undefined || span === undefined ? undefined : scalarStyleIn(tree, span.start.offset)),
  };
  if (state.syntax !== undefined) r.syntax = state.syntax;
  if (state.schemas !== undefined) r.schemas = state.schemas;
  if (state.text !== undefined) r.text = state.text;
  if (state.ir !== undefined) r.ir = state.ir;
  if (state.driverName !== undefined) r.driverName = state.driverName;
  if (state.descriptor !== undefined) r.descriptor = state.descriptor;
  if (state.policy !== undefined) r.policy = state.policy;
  if (state.approver !== undefined) r.approver = state.approver;
  return r;
}

export function compileFile(path: string, options: CompileOptions = {}): CompileResult {
  // Diagnostics name the file as given, escaped: a control character in a name never reaches a terminal raw.
  const file = printable(path);
  return runPipeline(file === path ? { file, options, diagnostics: [] } : { file, path, options, diagnostics: [] });
}

export function compileSource(text: string, file: string, options: CompileOptions = {}): CompileResult {
  return runPipeline({ file, options, diagnostics: [], sourceText: text });
}
