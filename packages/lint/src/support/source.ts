/**
 * A source text and its line index, for the places the runner computes from text: file-level
 * findings, suppression comments and fingerprints. Where a document path is written and how a
 * scalar is quoted come from the compiler's tree (`CompileResult.locate`, `scalarStyleAt`): the
 * file is parsed once, by the compiler.
 */
import type { Span } from '@verdict/engine';
import { LineIndex, spanOf } from './positions.ts';

export class SourceInfo {
  readonly file: string;
  readonly text: string;
  readonly syntax: 'yaml' | 'json' | 'verdict' | undefined;
  readonly lines: LineIndex;

  constructor(file: string, text: string, syntax: 'yaml' | 'json' | 'verdict' | undefined) {
    this.file = file;
    this.text = text;
    this.syntax = syntax;
    this.lines = new LineIndex(text);
  }

  span(start: number, end: number): Span {
    return spanOf(this.file, this.lines, start, end);
  }

  /** The first character of the file (where file-level findings go). */
  fileStart(): Span {
    return this.span(0, 0);
  }
}
