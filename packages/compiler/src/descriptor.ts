/** Driver descriptor files (YAML or JSON), validated with the engine's descriptor JSON Schema. */
import type { Diagnostic, DriverDescriptor } from '@verdict/engine';
import { checkValueBudget, detectSyntax, readSourceFile } from './load.ts';
import { parseTree } from './parse.ts';
import { LineIndex, SourceMap } from './positions.ts';
import { getValidators, schemaDiagnostics } from './schemas.ts';
import { describeType, toPlain } from './tree.ts';

export interface LoadedDescriptor {
  descriptor?: DriverDescriptor;
  diagnostics: Diagnostic[];
}

/** Parses and validates descriptor text; one diagnostic per problem (each missing field, each wrong type). */
export function parseDescriptorSource(text: string, file: string): LoadedDescriptor {
  const diagnostics: Diagnostic[] = [];
  try {
    const index = new LineIndex(text);
    const syntax = detectSyntax(file, text);
    const over = checkValueBudget(file, text, index);
    if (over) return { diagnostics: [over] };
    const tree = parseTree(file, text, index, syntax === 'json' ? 'json' : 'yaml', diagnostics);
    if (!tree) return { diagnostics };
    if (tree.kind !== 'map') {
      diagnostics.push({
        code: 'descriptor/not-a-mapping',
        severity: 'error',
        message: `a driver descriptor must be a mapping, not ${describeType(tree)}`,
        span: tree.span,
      });
      return { diagnostics };
    }
    const sourceMap = new SourceMap(tree);
    const plain = toPlain(tree);
    const validate = getValidators().descriptor;
    if (!validate(plain)) {
      for (const d of schemaDiagnostics(validate.errors ?? [], sourceMap)) diagnostics.push(d);
      return { diagnostics };
    }
    // The schema allows no extra keys, so the plain view is exactly a descriptor; copy it to plain objects.
    return { descriptor: JSON.parse(JSON.stringify(plain)) as DriverDescriptor, diagnostics };
  } catch (e) {
    diagnostics.push(internalError(file, e));
    return { diagnostics };
  }
}

/** Reads, parses and validates a descriptor file. Never throws. */
export function loadDescriptorFile(path: string): LoadedDescriptor {
  const read = readSourceFile(path);
  if (read.text === undefined) return { diagnostics: read.diagnostics };
  const out = parseDescriptorSource(read.text, path);
  return { ...out, diagnostics: [...read.diagnostics, ...out.diagnostics] };
}

export function internalError(file: string, e: unknown): Diagnostic {
  const msg = e instanceof Error ? e.message : String(e);
  return {
    code: 'internal/error',
    severity: 'error',
    message: `internal compiler error: ${msg}`,
    help: 'this is a bug in verdict; please report it with the file that caused it',
    span: { file, start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } },
  };
}
