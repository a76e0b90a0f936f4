/**
 * `.verdict` files: text → PolicyFileIR, with every mistake reported as a located diagnostic.
 * Never throws for any input: limits (size, nesting) and internal failures become diagnostics.
 * Importing this loads no chevrotain: the lexer, parser and visitor are built on the first parse
 * (see chevrotain.ts), so YAML and JSON policies never pay for them.
 */
import type { IRecognitionException, IToken } from 'chevrotain';
import { type Diagnostic, type PolicyFileIR, hasErrors, sortDiagnostics } from '@verdict/engine';
import { MAX_FILE_DIAGNOSTICS } from '../cap.ts';
import { LineIndex, spanOf } from '../positions.ts';
import { chevrotain } from './chevrotain.ts';
import { lowerCst } from './lower.ts';
import { helpByToken } from './messages.ts';
import { verdictParser } from './parser.ts';
import { MAX_NESTING, MAX_SOURCE_LENGTH } from './limits.ts';
import { verdictTokens } from './tokens.ts';

export interface VerdictParseResult {
  /** Present only when there are no errors. */
  ir?: PolicyFileIR;
  diagnostics: Diagnostic[];
  /** The comments of the file, for the formatter. */
  comments?: IToken[];
}

export { MAX_NESTING, MAX_SOURCE_LENGTH };

export function parseVerdictSource(text: string, file: string): VerdictParseResult {
  try {
    return parseUnchecked(text, file);
  } catch (e) {
    return {
      diagnostics: [
        {
          code: 'dsl/internal',
          severity: 'error',
          message: 'the file could not be parsed',
          help: `internal error: ${e instanceof Error ? e.message : String(e)}`,
          span: spanOf(file, new LineIndex(''), 0, 0),
        },
      ],
    };
  }
}

function parseUnchecked(text: string, file: string): VerdictParseResult {
  const index = new LineIndex(text.length > MAX_SOURCE_LENGTH ? '' : text);
  if (text.length > MAX_SOURCE_LENGTH) {
    return {
      diagnostics: [
        {
          code: 'dsl/too-large',
          severity: 'error',
          message: `the file has ${text.length} characters, more than the ${MAX_SOURCE_LENGTH} a policy file may have`,
          help: 'split the policy or remove generated content',
          span: spanOf(file, index, 0, 0),
        },
      ],
    };
  }
  const diagnostics: Diagnostic[] = [];
  const lexed = verdictTokens().lexer.tokenize(text);
  for (const e of lexed.errors) {
    diagnostics.push({
      code: 'dsl/unexpected-character',
      severity: 'error',
      message: e.message,
      help: e.length > 1 ? `${e.length} characters skipped` : 'remove it, or put it inside a string',
      span: spanOf(file, index, e.offset, e.offset + Math.max(1, Math.min(e.length, 1))),
    });
  }
  const comments = (lexed.groups['comments'] ?? []) as IToken[];
  // More unexpected characters than a file shows (`cap.ts`): this is not DSL text; do not parse it.
  if (lexed.errors.length > MAX_FILE_DIAGNOSTICS) return { diagnostics: sortDiagnostics(diagnostics), comments };

  const tooDeep = findTooDeep(lexed.tokens);
  if (tooDeep) {
    diagnostics.push({
      code: 'dsl/too-deep',
      severity: 'error',
      message: `braces and brackets nested more than ${MAX_NESTING} levels deep`,
      span: spanOf(file, index, tooDeep.startOffset, tooDeep.startOffset + 1),
    });
    return { diagnostics: sortDiagnostics(diagnostics), comments };
  }

  const parser = verdictParser();
  parser.input = lexed.tokens;
  const cst = parser.file();
  const seenLines = new Set<number>();
  for (const err of parser.errors) {
    const d = syntaxDiagnostic(err, file, index, text.length);
    const line = d.span?.start.line ?? 0;
    // One syntax error per line: the later ones are almost always echoes of the first.
    if (seenLines.has(line)) continue;
    seenLines.add(line);
    diagnostics.push(d);
  }

  const lowered = lowerCst(cst, file, index, text, comments, parser.errors.length > 0 || lexed.errors.length > 0);
  const ir = lowered.ir;
  for (const d of lowered.diagnostics) diagnostics.push(d);
  const sorted = sortDiagnostics(diagnostics);
  const result: VerdictParseResult = { diagnostics: sorted, comments };
  if (!hasErrors(sorted)) result.ir = ir;
  return result;
}

function syntaxDiagnostic(err: IRecognitionException, file: string, index: LineIndex, length: number): Diagnostic {
  const { EOF } = chevrotain();
  const t = err.token;
  const atEnd = !t || t.tokenType === EOF || !Number.isFinite(t.startOffset);
  const start = atEnd ? length : t.startOffset;
  const end = atEnd ? length : t.startOffset + t.image.length;
  const d: Diagnostic = {
    code: 'dsl/syntax',
    severity: 'error',
    message: atEnd ? `${err.message} at the end of the file` : err.message,
    span: spanOf(file, index, start, end),
  };
  const help = t ? helpByToken.get(t) : undefined;
  if (help) d.help = help;
  return d;
}

function findTooDeep(tokens: readonly IToken[]): IToken | undefined {
  const { LBrace, LBracket, RBrace, RBracket } = verdictTokens();
  let depth = 0;
  for (const t of tokens) {
    const type = t.tokenType;
    if (type === LBrace || type === LBracket) {
      depth++;
      if (depth > MAX_NESTING) return t;
    } else if ((type === RBrace || type === RBracket) && depth > 0) {
      depth--;
    }
  }
  return undefined;
}
