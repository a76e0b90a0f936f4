/**
 * `verdict fmt`: the canonical layout of a policy file in its own syntax, keeping everything in it
 * (`.verdict` comments; YAML comments, anchors and keys that are not ours; JSON tokens), and what a
 * conversion to the other syntax would drop.
 */
import type { Diagnostic, PolicyFileIR } from '@verdict/engine';
import { parseVerdictSource } from '../dsl/index.ts';
import { runPipeline } from '../pipeline.ts';
import type { JNode } from '../tree.ts';
import type { CompileState, Syntax } from '../types.ts';
import { isBlocking } from '../validate.ts';
import { commentTokens, formatJsonSource, formatYamlSource } from './source.ts';
import { printVerdict } from './verdict.ts';
import { printYaml } from './yaml.ts';

export interface FormatResult {
  /** The formatted text; absent when the file has errors or cannot be laid out without loss. */
  text?: string;
  diagnostics: Diagnostic[];
}

export function formatVerdictSource(text: string, file: string): FormatResult {
  const parsed = parseVerdictSource(text, file);
  if (!parsed.ir) return { diagnostics: parsed.diagnostics };
  const comments = (parsed.comments ?? []).map((c) => ({ offset: c.startOffset, line: c.startLine ?? 1, text: c.image.trimEnd() }));
  return { text: printVerdict(parsed.ir, { comments, source: text }), diagnostics: parsed.diagnostics };
}

/** The front end's reading of a YAML or JSON text (tree of values and IR), or `undefined` when it does not parse. */
export function readPolicySource(text: string, file: string, syntax: Syntax): { tree: JNode; ir: PolicyFileIR } | undefined {
  const state: CompileState = { file, options: { stopAfter: 'parse', syntax }, diagnostics: [], sourceText: text };
  runPipeline(state);
  if (state.diagnostics.some(isBlocking) || state.tree === undefined || state.ir === undefined) return undefined;
  return { tree: state.tree, ir: state.ir };
}

function readTree(text: string, file: string, syntax: Syntax): JNode | undefined {
  return readPolicySource(text, file, syntax)?.tree;
}

/** The canonical layout of `text` (BOM already stripped) in its own syntax. */
export function formatPolicySource(text: string, file: string, syntax: Syntax): FormatResult {
  if (syntax === 'verdict') return formatVerdictSource(text, file);
  const tree = readTree(text, file, syntax);
  if (tree === undefined) return { diagnostics: [{ code: 'fmt/unreadable', severity: 'error', message: 'the file does not parse, so it is not formatted' }] };
  const options = { readTree: (t: string) => readTree(t, file, syntax) };
  return syntax === 'json' ? formatJsonSource(text, tree, options) : formatYamlSource(text, tree, options);
}

/**
 * What converting `text` to the other syntax would leave behind: comments, and keys the policy does
 * not own (an agent configuration's other settings). Keys whose value is empty or null say nothing a
 * conversion could lose. An empty list: the conversion is lossless.
 */
export function conversionLosses(text: string, file: string, syntax: Syntax): string[] {
  const lost: string[] = [];
  if (syntax === 'verdict') {
    const parsed = parseVerdictSource(text, file);
    const n = parsed.comments?.length ?? 0;
    if (n > 0) lost.push(`${n} comment${n === 1 ? '' : 's'}`);
    return lost;
  }
  const n = commentTokens(text);
  if (n > 0) lost.push(`${n} comment${n === 1 ? '' : 's'}`);
  const source = readPolicySource(text, file, syntax);
  const printed = source && readTree(printYaml(source.ir), file, 'yaml');
  if (source === undefined || printed === undefined) return lost;
  const keys = missingKeys(source.tree, printed, '');
  if (keys.length > 0) lost.push(`the key${keys.length === 1 ? '' : 's'} ${keys.slice(0, 5).map((k) => `\`${k}\``).join(', ')}${keys.length > 5 ? ` and ${keys.length - 5} more` : ''}`);
  return lost;
}

function isEmptyValue(node: JNode): boolean {
  return node.kind === 'scalar' && (node.value === null || node.value === '');
}

const TEST_INPUT = /^tests\[\d+\]\.input$/;

/** Paths of map keys in `source` that `printed` does not have (iterative: no stack for deep trees). */
function missingKeys(source: JNode, printed: JNode, at: string): string[] {
  const out: string[] = [];
  const stack: [JNode, JNode, string][] = [[source, printed, at]];
  while (stack.length > 0) {
    const [s, p, path] = stack.pop()!;
    // A test's input is data, carried whole as its JSON text (a number of any length as written),
    // which the printer may write as a string: its keys are not the file's to lose.
    if (TEST_INPUT.test(path)) continue;
    if (s.kind === 'map') {
      for (const entry of s.entries) {
        const here = path === '' ? entry.key : `${path}.${entry.key}`;
        const other = p.kind === 'map' ? p.entries.find((e) => e.key === entry.key) : undefined;
        if (other === undefined) {
          if (!isEmptyValue(entry.value)) out.push(here);
        } else {
          stack.push([entry.value, other.value, here]);
        }
      }
    } else if (s.kind === 'seq' && p.kind === 'seq') {
      s.items.forEach((item, i) => {
        const other = p.items[i];
        if (other !== undefined) stack.push([item, other, `${path}[${i}]`]);
      });
    }
  }
  return out.sort();
}
