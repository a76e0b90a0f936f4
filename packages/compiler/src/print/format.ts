/** `verdict fmt` for `.verdict` files: the canonical layout, with the file's comments kept. */
import type { Diagnostic } from '@verdict/engine';
import { parseVerdictSource } from '../dsl/index.ts';
import { printVerdict } from './verdict.ts';

export interface FormatResult {
  /** The formatted text; absent when the file has errors (nothing is formatted then). */
  text?: string;
  diagnostics: Diagnostic[];
}

export function formatVerdictSource(text: string, file: string): FormatResult {
  const parsed = parseVerdictSource(text, file);
  if (!parsed.ir) return { diagnostics: parsed.diagnostics };
  const comments = (parsed.comments ?? []).map((c) => ({ offset: c.startOffset, line: c.startLine ?? 1, text: c.image.trimEnd() }));
  return { text: printVerdict(parsed.ir, { comments, source: text }), diagnostics: parsed.diagnostics };
}
