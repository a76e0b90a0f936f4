/**
 * Stage `parse`: text to the document tree and the IR. YAML and JSON go through the `yaml` parser
 * (with a strict JSON syntax check first for JSON); `.verdict` files go to the DSL parser.
 */
import { LineCounter, parseDocument } from 'yaml';
import type { Diagnostic } from '@verdict/engine';
import { buildFileIR } from './build-ir.ts';
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

/** Parses YAML or JSON text into the document tree, reporting every syntax error with its position. */
export function parseTree(
  file: string,
  text: string,
  index: LineIndex,
  syntax: Exclude<Syntax, 'verdict'>,
  diagnostics: Diagnostic[],
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
  let doc;
  try {
    doc = parseDocument(text, {
      lineCounter: new LineCounter(),
      prettyErrors: false,
      uniqueKeys: false, // repeated keys are found by `treeFromYaml` in linear time
      keepSourceTokens: false,
    });
  } catch (e) {
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
  let failed = false;
  let exhausted = false;
  for (const e of doc.errors) {
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
  for (const w of doc.warnings) {
    diagnostics.push({
      code: YAML_CODES[w.code] ?? 'yaml/warning',
      severity: 'warning',
      message: tidy(w.message),
      span: spanOf(file, index, w.pos[0], w.pos[1]),
    });
  }
  if (failed) return undefined;
  return treeFromYaml(doc, file, index, diagnostics);
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
    state.diagnostics.push(...out.diagnostics);
    if (out.ir) state.ir = out.ir;
    return;
  }
  const tree = parseTree(file, text, index, syntax, state.diagnostics);
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
}
