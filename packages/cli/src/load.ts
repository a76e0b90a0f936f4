import { type CompileOptions, type CompileResult, compileFile } from '@verdict/compiler';
import { type CompiledApprover, hasErrors } from '@verdict/engine';
import type { CommandIo } from './args.ts';
import { renderDiagnostics } from './render.ts';

export interface LoadedApprover {
  result: CompileResult;
  approver: CompiledApprover;
}

/** Compiles a policy file; prints its diagnostics on stderr; returns nothing when it cannot be used. */
export function compileOrReport(file: string, io: CommandIo, options: CompileOptions = {}): CompileResult | undefined {
  // Spans name the file as the user wrote it (relative paths resolve against the process cwd).
  const result = compileFile(file, options);
  const text = renderDiagnostics(result.diagnostics, file);
  if (text) io.stderr.write(text);
  return hasErrors(result.diagnostics) ? undefined : result;
}

export function loadApproverOrReport(file: string, io: CommandIo, options: CompileOptions = {}): LoadedApprover | undefined {
  const result = compileOrReport(file, io, options);
  if (!result) return undefined;
  if (!result.approver) {
    io.stderr.write(`${file}: error: the file has no approver block [cli/no-approver]\n`);
    return undefined;
  }
  return { result, approver: result.approver };
}
