/**
 * A call as a ready-to-paste inline test: the YAML form (`- {tool: bash, input: '…', expect: deny}`)
 * and the `.verdict` form (`test { deny bash {"command":"…"} }`).
 */
import type { RuledDecision } from '@verdict/engine';
import type { ToolCall } from './calls.ts';
import { parseJson } from './json.ts';

export interface SuggestedTest {
  call: ToolCall;
  expect: RuledDecision;
  name?: string;
}

const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const DSL_KEYWORDS = new Set(['driver', 'policy', 'approver', 'test', 'allow', 'deny', 'default', 'reason', 'input', 'field', 'match', 'rule', 'true', 'false', 'null']);
const YAML_WORDS = /^(?:true|false|yes|no|on|off|null|y|n|~)$/i;

/** Whether YAML's single-quoted style keeps `s` exactly (no line breaks, no escapes needed). */
function singleQuotable(s: string): boolean {
  return !/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\ufeff]/.test(s) && (s as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/** A YAML scalar holding exactly `s`. */
export function yamlString(s: string): string {
  if (singleQuotable(s)) return `'${s.replace(/'/g, "''")}'`;
  // JSON string escapes are YAML double-quoted escapes; add the characters JSON leaves literal.
  return JSON.stringify(s).replace(/[\u007f-\u009f\u2028\u2029\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function yamlKeyValue(s: string): string {
  return PLAIN_NAME.test(s) && !YAML_WORDS.test(s) ? s : yamlString(s);
}

/** `- {tool: bash, input: '{"command":"ls"}', expect: deny}` */
export function yamlTest(t: SuggestedTest): string {
  const name = t.name === undefined ? '' : `name: ${yamlString(t.name)}, `;
  return `- {${name}tool: ${yamlKeyValue(t.call.tool)}, input: ${yamlString(t.call.input)}, expect: ${t.expect}}`;
}

/**
 * `test "name" { deny bash {"command":"ls"} }`. The DSL takes an object or array input as written
 * and a string literal as the raw text itself, so every input has a form: verbatim JSON when it
 * reads well on one line, else a string literal.
 */
export function dslTest(t: SuggestedTest): string {
  const text = t.call.input;
  let verbatim = text === text.trim() && /^[[{]/.test(text) && !/[\r\n\u2028\u2029]/.test(text) && parseJson(text) !== undefined;
  if (verbatim) {
    try {
      JSON.parse(text);
    } catch {
      verbatim = false;
    }
  }
  const input = verbatim ? text : JSON.stringify(text);
  const tool = PLAIN_NAME.test(t.call.tool) && !DSL_KEYWORDS.has(t.call.tool) ? t.call.tool : JSON.stringify(t.call.tool);
  const name = t.name === undefined ? '' : `${JSON.stringify(t.name)} `;
  return `test ${name}{ ${t.expect} ${tool} ${input} }`;
}

/** Both forms, as printed under a counterexample. */
export function formatSuggestions(tests: readonly SuggestedTest[], indent = '  '): string {
  const lines = [`${indent}paste as inline tests (YAML, under \`tests:\`):`];
  for (const t of tests) lines.push(`${indent}  ${yamlTest(t)}`);
  lines.push(`${indent}or in a .verdict file:`);
  for (const t of tests) lines.push(`${indent}  ${dslTest(t)}`);
  return lines.join('\n');
}
