import { type CompileOptions, type CompileResult, compileFile, compileSource, readSourceStream } from '@verdict/compiler';
import { type CompiledApprover, hasErrors } from '@verdict/engine';
import { type CommandIo, STDIN_ARG, UsageError } from './args.ts';
import { renderDiagnostics } from './render.ts';

export interface LoadedApprover {
  result: CompileResult;
  approver: CompiledApprover;
}

/** The name standard input gets in messages when `--stdin-filename` gives none. */
export const STDIN_NAME = '<stdin>';

/** The `--stdin-filename` option of the commands that read `-`. */
export const stdinFilenameOption = { 'stdin-filename': { type: 'string' } } as const;

/** A policy named on the command line: a path, or standard input read whole (`source`) under a name. */
export interface PolicyInput {
  /** The path, or the name standard input goes by (messages, the syntax by extension). */
  file: string;
  /** The decoded text, when it came from standard input. */
  source?: string;
}

/**
 * Checks the `-` arguments of a command line: standard input can be read once, and
 * `--stdin-filename` names it, so it needs a `-`. Returns the name standard input goes by.
 */
export function stdinName(args: readonly (string | undefined)[], filename: string | undefined): string {
  const dashes = args.filter((a) => a === STDIN_ARG).length;
  if (dashes > 1) throw new UsageError('standard input can be read only once: give `-` for one file at most');
  if (filename !== undefined && dashes === 0) throw new UsageError('`--stdin-filename` names standard input: give `-` as the file to read it');
  if (filename === '') throw new UsageError('`--stdin-filename` wants a file name');
  return filename ?? STDIN_NAME;
}

/**
 * The policy `arg` names: a path as it is, or `-` read from standard input with the compiler's
 * bounds (10 MiB, strict UTF-8). Prints why standard input cannot be used and returns nothing then.
 */
export async function readPolicyInput(arg: string, io: CommandIo, name: string): Promise<PolicyInput | undefined> {
  if (arg !== STDIN_ARG) return { file: arg };
  const read = await readSourceStream(name, io.stdin);
  if (read.text === undefined) {
    io.stderr.write(renderDiagnostics(read.diagnostics, name));
    return undefined;
  }
  return { file: name, source: read.text };
}

/** Compiles a policy from its path, or from the text standard input gave. */
export function compileInput(input: PolicyInput, options: CompileOptions = {}): CompileResult {
  return input.source !== undefined ? compileSource(input.source, input.file, options) : compileFile(input.file, options);
}

/** Compiles a policy file; prints its diagnostics on stderr; returns nothing when it cannot be used. */
export function compileOrReport(input: PolicyInput | string, io: CommandIo, options: CompileOptions = {}): CompileResult | undefined {
  const given = typeof input === 'string' ? { file: input } : input;
  // Spans name the file as the user wrote it (relative paths resolve against the process cwd).
  const result = compileInput(given, options);
  const text = renderDiagnostics(result.diagnostics, given.file);
  if (text) io.stderr.write(text);
  return hasErrors(result.diagnostics) ? undefined : result;
}

export function loadApproverOrReport(input: PolicyInput | string, io: CommandIo, options: CompileOptions = {}): LoadedApprover | undefined {
  const result = compileOrReport(input, io, options);
  if (!result) return undefined;
  const file = typeof input === 'string' ? input : input.file;
  if (!result.approver) {
    io.stderr.write(`${file}: error: the file has no approver block [cli/no-approver]\n`);
    return undefined;
  }
  return { result, approver: result.approver };
}
