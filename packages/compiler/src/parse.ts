/**
 * Stage `parse`: text to the document tree and the IR. YAML and JSON go through the `yaml` parser
 * (with a strict JSON syntax check first for JSON); `.verdict` files go to the DSL parser.
 */
import { CST, Composer, isMap, isScalar, Lexer, Parser, type Document, type YAMLError, YAMLParseError } from 'yaml';
import type { Diagnostic } from '@verdict/engine';
import { buildFileIR } from './build-ir.ts';
import { substituteProject } from './project.ts';
import { MAX_FILE_DIAGNOSTICS, TooManyErrors } from './cap.ts';
import { checkJsonSyntax, replaceLoneSurrogateEscapes } from './json-syntax.ts';
import { spanOf } from './positions.ts';
import type { LineIndex } from './positions.ts';
import { describeType, treeFromYaml } from './tree.ts';
import type { JNode } from './tree.ts';
import type { CompileState, Syntax } from './types.ts';
import { parseVerdict } from './verdict-syntax.ts';

const YAML_CODES: Readonly<Record<string, string>> = {
  DUPLICATE_KEY: 'yaml/duplicate-key',
  MULTIPLE_DOCS: 'yaml/multiple-documents',
  TAG_RESOLVE_FAILED: 'yaml/unresolved-tag',
};

/** Lowercase first letter and no final period, as our messages read. */
function tidy(message: string): string {
  const m = message.replace(/\.\s*$/, '').replace(/\s+/g, ' ').trim();
  return m.charAt(0).toLowerCase() + m.slice(1);
}

/** What parsing noticed besides the tree. */
export interface ParseNotes {
  /** Where the parser stopped early, at its error limit. */
  at?: number;
  /**
   * The string values of the document's top-level `$schema` keys (one, unless the key is repeated,
   * an error), read even when the document has errors and no tree is built; set once a document was read.
   */
  schemas?: string[];
}

/** Parses YAML or JSON text into the document tree, reporting every syntax error with its position. */
export function parseTree(
  file: string,
  text: string,
  index: LineIndex,
  syntax: Exclude<Syntax, 'verdict'>,
  diagnostics: Diagnostic[],
  stopped: ParseNotes = {},
): JNode | undefined {
  if (syntax === 'json') {
    const err = checkJsonSyntax(text);
    if (err) {
      diagnostics.push({
        code: 'json/syntax',
        severity: 'error',
        message: `invalid JSON: ${err.message}`,
        span: spanOf(file, index, err.offset, Math.min(err.offset + 1, text.length)),
      });
      return undefined;
    }
    // Decoded as Go's encoding/json decodes it: a lone surrogate escape is U+FFFD.
    text = replaceLoneSurrogateEscapes(text);
  }
  let composed: Composed;
  try {
    composed = composeYaml(text);
  } catch (e) {
    if (e instanceof TooManyNodes) {
      diagnostics.push({
        code: 'load/too-large',
        severity: 'error',
        message: `the file packs more YAML nodes than a policy has for its lines and commas (over ${MAX_NODES_PER_SEPARATOR} per line or comma, after the first ${NODE_SLACK})`,
        help: 'policy files hold a few values per line; check that this is the right file',
        span: spanOf(file, index, e.offset, Math.min(e.offset + 1, text.length)),
      });
      return undefined;
    }
    if (e instanceof RangeError) {
      diagnostics.push({
        code: 'yaml/too-deep',
        severity: 'error',
        message: 'the document nests too deeply to parse',
        span: spanOf(file, index, 0, 0),
      });
      return undefined;
    }
    throw e;
  }
  const { doc, errors, warnings } = composed;
  if (composed.stoppedAt !== undefined) stopped.at = composed.stoppedAt;
  if (doc !== undefined) stopped.schemas = schemasOf(doc);
  let failed = false;
  let exhausted = false;
  for (const e of errors) {
    failed = true;
    const [start, end] = e.pos;
    if (e.code === 'RESOURCE_EXHAUSTION') {
      // yaml's own guard against deep nesting: once is enough.
      if (!exhausted) {
        diagnostics.push({
          code: 'yaml/too-deep',
          severity: 'error',
          message: 'the document nests too deeply to parse',
          span: spanOf(file, index, start, end),
        });
      }
      exhausted = true;
      continue;
    }
    const d: Diagnostic = {
      code: YAML_CODES[e.code] ?? (syntax === 'json' ? 'json/syntax' : 'yaml/syntax'),
      severity: 'error',
      message: tidy(e.message),
      span: spanOf(file, index, start, end),
    };
    if (e.code === 'DUPLICATE_KEY') {
      const { key, length } = keyTextAt(text, start);
      if (length > 0) d.span = spanOf(file, index, start, start + length);
      d.message = `duplicate key \`${key}\``;
      d.help = 'the later value would silently replace the earlier one: keep only one';
    } else if (e.code === 'MULTIPLE_DOCS') {
      d.message = 'the file holds more than one YAML document';
      d.help = 'a policy file is one document: remove the `---` separator and merge or split the files';
    }
    diagnostics.push(d);
  }
  for (const w of warnings) {
    diagnostics.push({
      code: YAML_CODES[w.code] ?? 'yaml/warning',
      severity: 'warning',
      message: tidy(w.message),
      span: spanOf(file, index, w.pos[0], w.pos[1]),
    });
  }
  if (failed || doc === undefined) return undefined;
  return treeFromYaml(doc, file, index, diagnostics);
}

/**
 * The parser holds a whole document before the composer sees it, so a line of a million tags or
 * quoted scalars costs seconds before the first error can stop it. Nodes are therefore counted as
 * they are lexed, against the lines and commas before them (which `MAX_SOURCE_VALUES` bounds): a
 * policy writes a few per line (`- {tool: bash, match: "x"}` is six for two separators), and
 * `NODE_SLACK` leaves room for a short file on one line. A file over it is refused where it goes over.
 */
export const MAX_NODES_PER_SEPARATOR = 4;
export const NODE_SLACK = 10_000;
/**
 * Lexemes that are no node: layout, comments, `:` (one per key, which is counted) and the ends of
 * flow collections (counted at their start). A stray `]` is an error token, which the error count stops.
 */
const NOT_NODES = new Set(['space', 'comment', 'map-value-ind', 'doc-mode', 'byte-order-mark', 'flow-seq-end', 'flow-map-end']);
/** The lexer's markers, which stand for no source text. */
const SYNTHETIC = new Set(['\x02', '\x18', '\x1f']);

class TooManyNodes extends Error {
  constructor(readonly offset: number) {
    super('too many nodes');
  }
}

interface Composed {
  doc: Document.Parsed | undefined;
  errors: readonly YAMLError[];
  warnings: readonly YAMLError[];
  /** Where composition stopped: at the error after the `MAX_FILE_DIAGNOSTICS`th. */
  stoppedAt?: number;
}

type ErrorHandler = (source: unknown, code: string, message: string, warning?: boolean) => void;
/** What the composer keeps to itself until a document ends: read once it was stopped. */
interface ComposerInside {
  onError: ErrorHandler;
  errors: YAMLError[];
  warnings: YAMLError[];
  doc: Document.Parsed | null;
}

/**
 * `parseDocument`, with a stop: yaml reports one error per token (4 MB of `]` is four million
 * errors, each an `Error` with a stack), so the errors are counted as they come (the composer's
 * error handler for what it finds inside a document, the parser's `error` tokens for what it
 * finds between them) and composition ends, by an exception, at the first one past
 * `MAX_FILE_DIAGNOSTICS`. The lexer and parser are generators: nothing after that point is read.
 */
function composeYaml(text: string): Composed {
  const composer = new Composer({ prettyErrors: false, uniqueKeys: false, keepSourceTokens: false });
  const inside = composer as unknown as ComposerInside;
  let count = 0;
  const counted = (offset: number): void => {
    if (++count > MAX_FILE_DIAGNOSTICS) throw new TooManyErrors(offset);
  };
  const original = inside.onError;
  inside.onError = (source, code, message, warning) => {
    original(source, code, message, warning);
    if (warning !== true) counted(errorOffset(source));
  };
  function* tokens(): Generator<CST.Token> {
    const parser = new Parser();
    let separators = 0;
    let nodes = 0;
    let offset = 0;
    for (const lexeme of new Lexer().lex(text)) {
      const type = CST.tokenType(lexeme);
      if (!SYNTHETIC.has(lexeme)) offset += lexeme.length;
      if (type === 'newline' || type === 'comma') separators++;
      else if (type !== null && !NOT_NODES.has(type) && ++nodes > MAX_NODES_PER_SEPARATOR * separators + NODE_SLACK) {
        throw new TooManyNodes(offset - lexeme.length);
      }
      for (const t of parser.next(lexeme)) {
        if (t.type === 'error') counted(t.offset);
        yield t;
      }
    }
    for (const t of parser.end()) {
      if (t.type === 'error') counted(t.offset);
      yield t;
    }
  }
  let doc: Document.Parsed | undefined;
  try {
    for (const d of composer.compose(tokens(), true, text.length)) {
      if (!doc) {
        doc = d;
      } else {
        doc.errors.push(new YAMLParseError(d.range.slice(0, 2) as [number, number], 'MULTIPLE_DOCS', 'Source contains multiple documents'));
        break;
      }
    }
  } catch (e) {
    if (!(e instanceof TooManyErrors)) throw e;
    const errors = [...(doc?.errors ?? []), ...inside.errors, ...(inside.doc?.errors ?? [])];
    const warnings = [...(doc?.warnings ?? []), ...inside.warnings, ...(inside.doc?.warnings ?? [])];
    return { doc: undefined, errors, warnings, stoppedAt: e.offset };
  }
  return { doc, errors: doc?.errors ?? [], warnings: doc?.warnings ?? [] };
}

function schemasOf(doc: Document): string[] {
  const root = doc.contents;
  if (!isMap(root)) return [];
  const out: string[] = [];
  for (const p of root.items) {
    if (isScalar(p.key) && p.key.value === '$schema' && isScalar(p.value) && typeof p.value.value === 'string') out.push(p.value.value);
  }
  return out;
}

/** Where the composer's error `source` (an offset, a range or a token) starts. */
function errorOffset(source: unknown): number {
  if (typeof source === 'number') return source;
  if (Array.isArray(source)) return typeof source[0] === 'number' ? source[0] : 0;
  const offset = (source as { offset?: unknown } | null)?.offset;
  return typeof offset === 'number' ? offset : 0;
}

/** The mapping key written at `offset` and its source length (yaml reports only its first character). */
function keyTextAt(text: string, offset: number): { key: string; length: number } {
  const head = text.slice(offset, offset + 1000);
  if (head.startsWith('"')) {
    const m = /^"(?:[^"\\\n]|\\.)*"/.exec(head);
    if (m) {
      try {
        return { key: JSON.parse(m[0]) as string, length: m[0].length };
      } catch {
        return { key: m[0].slice(1, -1), length: m[0].length };
      }
    }
  } else if (head.startsWith("'")) {
    const m = /^'(?:[^'\n]|'')*'/.exec(head);
    if (m) return { key: m[0].slice(1, -1).replace(/''/g, "'"), length: m[0].length };
  }
  const m = /^[^\n,{}[\]]*?(?=\s*:(?:\s|$)|\s*[,}\]]|\n|$)/.exec(head);
  const key = m?.[0] ?? '';
  return { key, length: key.length };
}

export function runParse(state: CompileState): void {
  const { text, index, syntax, file } = state;
  if (text === undefined || index === undefined || syntax === undefined) return;
  if (syntax === 'verdict') {
    const out = parseVerdict(text, file);
    for (const d of out.diagnostics) state.diagnostics.push(d);
    if (out.ir) state.ir = out.ir;
    if (state.ir?.approver && state.options.project !== null) substituteProject(state.ir.approver, state.options.project);
    return;
  }
  const stopped: ParseNotes = {};
  const tree = parseTree(file, text, index, syntax, state.diagnostics, stopped);
  if (stopped.schemas !== undefined) state.schemas = stopped.schemas;
  if (stopped.at !== undefined) state.stopped = spanOf(file, index, stopped.at, Math.min(stopped.at + 1, text.length));
  if (!tree) return;
  if (tree.kind !== 'map') {
    state.diagnostics.push({
      code: 'parse/not-a-mapping',
      severity: 'error',
      message: `a policy file must be a mapping of keys to values, not ${describeType(tree)}`,
      help: 'start the file with keys such as `approver:`, `policy:` or `tests:`',
      span: tree.span,
    });
    return;
  }
  state.tree = tree;
  state.ir = buildFileIR(file, tree, state.diagnostics);
  if (state.ir.approver && state.options.project !== null) substituteProject(state.ir.approver, state.options.project);
}
