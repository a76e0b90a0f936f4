import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic, PolicyFileIR } from '@verdict/engine';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const FIXTURES = join(ROOT, 'fixtures');
export const UPDATE = process.env['UPDATE_GOLDEN'] === '1';

export function listFiles(dir: string, ext: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .sort();
}

export function read(path: string): string {
  return readFileSync(path, 'utf8');
}

/** Compares `actual` with the golden file, or writes it when UPDATE_GOLDEN=1. */
export function golden(path: string, actual: string): string {
  if (UPDATE || !existsSync(path)) writeFileSync(path, actual);
  return read(path);
}

/** The IR without what depends on the syntax it came from: spans, the file name, the approver's placement. */
export function stripIR(ir: PolicyFileIR | undefined): unknown {
  if (!ir) return ir;
  return JSON.parse(
    JSON.stringify(ir, (k, v: unknown) =>
      k === 'span' || k.endsWith('Span') || k === 'file' || k === 'approverPlacement' ? undefined : v,
    ),
  );
}

export function at(d: Diagnostic): string {
  const s = d.span;
  return s ? `${s.start.line}:${s.start.column}-${s.end.line}:${s.end.column}` : '-';
}

export function showDiagnostics(ds: readonly Diagnostic[]): { at: string; code: string; message: string; help?: string }[] {
  return ds.map((d) => (d.help === undefined ? { at: at(d), code: d.code, message: d.message } : { at: at(d), code: d.code, message: d.message, help: d.help }));
}

/** Every position of every diagnostic lies inside the text, with start <= end and consistent line/column. */
export function positionsValid(text: string, ds: readonly Diagnostic[]): boolean {
  for (const d of ds) {
    if (!d.span) return false;
    for (const p of [d.span.start, d.span.end]) {
      if (!Number.isInteger(p.offset) || p.offset < 0 || p.offset > text.length) return false;
      if (!Number.isInteger(p.line) || p.line < 1 || !Number.isInteger(p.column) || p.column < 1) return false;
    }
    if (d.span.start.offset > d.span.end.offset) return false;
    if (typeof d.message !== 'string' || d.message.length === 0) return false;
  }
  return true;
}
