/**
 * The bridge from stage `parse` to the `.verdict` DSL parser (written in `./dsl/`).
 */
import type { Diagnostic, PolicyFileIR } from '@verdict/engine';

export function parseVerdict(text: string, file: string): { ir?: PolicyFileIR; diagnostics: Diagnostic[] } {
  void text;
  return {
    diagnostics: [
      {
        code: 'parse/unsupported-syntax',
        severity: 'error',
        message: '`.verdict` files are not yet supported by this build',
        help: 'write the policy in YAML or JSON',
        span: { file, start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } },
      },
    ],
  };
}
