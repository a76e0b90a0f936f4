import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { compileFile } from '../src/index.ts';
import { getValidators } from '../src/schemas.ts';

const ROOT = fileURLToPath(new URL('../../../fixtures/', import.meta.url));
// Exceptions: a duration beyond int64 nanoseconds is well-formed; a regex pattern cannot bound its value.
const EXCEPTIONS = new Set(['cli/check-bad-duration-overflow/policy.yaml', 'cli/check-bad-duration-overflow-ns/policy.yaml', 'compiler/policy-timeout-overflow.yaml']);
const VALUE_CODES = new Set(['policy/invalid-value', 'approver/unknown-mode', 'approver/unknown-default', 'policy/unknown-preset', 'driver/unknown', 'policy/invalid-duration', 'schema/invalid-value']);

function* walk(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) { if (!['expected', 'descriptors', 'requests', 'analysis'].includes(e.name)) yield* walk(p); }
    else if (/\.(?:ya?ml|json)$/.test(e.name) && !e.name.includes('schema')) yield p;
  }
}

it('the published schemas accept every file Verdict accepts and flag every value error', () => {
  const v = getValidators({ published: true });
  const problems: string[] = [];
  let accepted = 0;
  let valueErrors = 0;
  for (const file of walk(ROOT)) {
    if (EXCEPTIONS.has(file.slice(ROOT.length))) continue;
    let doc: unknown;
    try { doc = parseYaml(readFileSync(file, 'utf8')); } catch { continue; }
    if (!doc || typeof doc !== 'object' || Array.isArray(doc)) continue;
    const result = compileFile(file, { stopAfter: 'resolve' });
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    const validate = 'agent' in doc ? v.agentFile : v.file;
    const ok = validate(doc);
    if (errors.length === 0) { accepted++; if (!ok) problems.push(`accepted but flagged: ${file} ${JSON.stringify(validate.errors?.[0])}`); }
    else if (errors.some((d) => VALUE_CODES.has(d.code))) { valueErrors++; if (ok) problems.push(`value error not flagged: ${file} ${errors.map((d) => d.code)}`); }
  }
  expect(problems).toEqual([]);
  expect(accepted).toBeGreaterThan(20);
  expect(valueErrors).toBeGreaterThan(5);
});
