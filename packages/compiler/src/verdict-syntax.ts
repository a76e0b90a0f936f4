/**
 * The bridge from stage `parse` to the `.verdict` DSL parser (`./dsl/`), which returns the same IR
 * the YAML and JSON front end builds.
 */
import type { Diagnostic, PolicyFileIR } from '@verdict/engine';
import { parseVerdictSource } from './dsl/index.ts';

export function parseVerdict(text: string, file: string): { ir?: PolicyFileIR; diagnostics: Diagnostic[] } {
  const out = parseVerdictSource(text, file);
  return out.ir ? { ir: out.ir, diagnostics: out.diagnostics } : { diagnostics: out.diagnostics };
}
