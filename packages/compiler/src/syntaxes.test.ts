/** One IR whatever the syntax: YAML, JSON and `.verdict` give the same IR and the same checks. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileFile, compileSource, goMessage } from './index.ts';

const convert = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'fixtures', 'dsl', 'convert');
const pairs = readdirSync(convert)
  .filter((f) => f.endsWith('.verdict'))
  .map((f) => f.replace(/\.verdict$/, ''));

function withoutSpans(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutSpans);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (!/span$/i.test(k) && k !== 'file') out[k] = withoutSpans(x);
    return out;
  }
  return v;
}

describe('YAML and .verdict lower to the same IR', () => {
  it.each(pairs)('%s', (name) => {
    const y = compileFile(join(convert, `${name}.yaml`));
    const v = compileFile(join(convert, `${name}.verdict`));
    expect(y.diagnostics).toEqual([]);
    expect(v.diagnostics).toEqual([]);
    const { approverPlacement: _a, ...yir } = y.ir!;
    const { approverPlacement: _b, ...vir } = v.ir!;
    expect(withoutSpans(vir)).toEqual(withoutSpans(yir));
    expect(v.policy).toEqual(y.policy);
    expect(v.syntax).toBe('verdict');
  });

  it('the same JSON document in YAML and JSON gives the same IR', () => {
    const text = readFileSync(join(convert, '..', '..', 'policies', 'unattended.json'), 'utf8');
    const j = compileSource(text, 'u.json');
    const y = compileSource(text, 'u.yaml');
    expect(j.diagnostics).toEqual([]);
    expect(withoutSpans(y.ir)).toEqual(withoutSpans(j.ir));
  });
});

describe('.verdict files get the same checks after parse', () => {
  it('an unknown mode, at its place, with the Go text', () => {
    const r = compileSource('approver allowall {\n}\n', 'p.verdict');
    const d = r.diagnostics.find((x) => x.code === 'approver/unknown-mode');
    expect(d?.span?.start.line).toBe(1);
    expect(goMessage(d!)).toBe('approver: unknown mode "allowall" (want allow_all / deny_all / pattern)');
    expect(r.approver).toBeUndefined();
  });

  it('an invalid regex, once, at the pattern', () => {
    const r = compileSource('approver pattern default deny {\n  allow bash /(/\n}\n', 'p.verdict');
    expect(r.approver).toBeUndefined();
    const regex = r.diagnostics.filter((x) => x.code === 'regex/invalid');
    expect(regex).toHaveLength(1);
    expect([regex[0]?.span?.start.line, regex[0]?.span?.start.column]).toEqual([2, 15]); // the DSL's match span is the pattern text inside the slashes
  });

  it('a policy value out of domain', () => {
    const r = compileSource('policy {\n  sandbox ReadOnly\n}\n', 'p.verdict');
    expect(r.diagnostics.map((d) => [d.code, d.span?.start.line, d.help?.slice(0, 26)])).toEqual([
      ['policy/invalid-value', 2, 'did you mean `read_only`? '],
    ]);
    expect(r.policy?.sandbox).toBe('ReadOnly');
  });
});
