/** Properties over arbitrary input: the compiler never throws, never reports a bug, and fails closed. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hasErrors } from '@verdict/engine';
import { compileSource } from './index.ts';
import type { CompileResult } from './index.ts';

function checkInvariants(r: CompileResult, text: string): void {
  expect(r.diagnostics.filter((d) => d.code === 'internal/error')).toEqual([]);
  if (hasErrors(r.diagnostics.filter((d) => d.code !== 'policy/invalid-value'))) expect(r.approver).toBeUndefined();
  const lines = text.split(/\r\n|\r|\n/).length;
  for (const d of r.diagnostics) {
    if (!d.span) continue;
    expect(d.span.start.offset).toBeGreaterThanOrEqual(0);
    expect(d.span.end.offset).toBeGreaterThanOrEqual(d.span.start.offset);
    expect(d.span.end.offset).toBeLessThanOrEqual(text.length);
    expect(d.span.start.line).toBeGreaterThanOrEqual(1);
    expect(d.span.start.line).toBeLessThanOrEqual(lines);
    expect(d.span.start.column).toBeGreaterThanOrEqual(1);
  }
}

const yamlish = fc.string({
  unit: fc.constantFrom('a', 'mode', ':', ' ', '\n', '  ', '-', '{', '}', '[', ']', ',', '"', "'", '&x', '*x', '#', '!!', '|', '>', '?', '\t', '\\', 'é', '😀', 'approver', 'allow', 'match', '(', 'deny', 'policy', 'tests'),
  maxLength: 40,
});

describe('compiler properties', () => {
  it('arbitrary YAML-like text: no exception, no internal error, positions inside the text', () => {
    fc.assert(
      fc.property(yamlish, (text) => {
        checkInvariants(compileSource(text, 'f.yaml'), text);
      }),
      { numRuns: 800 },
    );
  });

  it('arbitrary JSON documents, as .json and as .yaml', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (v) => {
        const text = JSON.stringify(v, null, 1);
        checkInvariants(compileSource(text, 'f.json'), text);
        checkInvariants(compileSource(text, 'f.yaml'), text);
      }),
      { numRuns: 300 },
    );
  });

  const word = fc.constantFrom('', 'pattern', ' Pattern ', 'allow_all', 'deny', 'allow', 'ALLOW', ' allow', 'yes', 'x');
  const rule = fc.record(
    { tool: fc.constantFrom('bash', 'read', ''), match: fc.constantFrom('ls', '.*', '(', 'a++', '^$', '\\d', '(?i)rm'), field: fc.constantFrom('command', '') },
    { requiredKeys: [] },
  );
  it('arbitrary approver blocks: an approver exactly when there is no error, and it decides every call', () => {
    fc.assert(
      fc.property(
        fc.record({ mode: word, default: word, reason: fc.string({ maxLength: 5 }), allow: fc.array(rule, { maxLength: 3 }), deny: fc.array(rule, { maxLength: 3 }) }, { requiredKeys: [] }),
        fc.boolean(),
        (block, compat) => {
          const text = JSON.stringify({ approver: block });
          const r = compileSource(text, 'a.json', { compat });
          checkInvariants(r, text);
          expect(r.approver !== undefined).toBe(!hasErrors(r.diagnostics));
          const res = r.approver?.approve({ toolName: 'bash', input: '{"command":"ls"}' });
          if (res) {
            expect(['allow', 'deny']).toContain(res.decision);
            if (res.decision === 'deny') expect(res.reason).not.toBe('');
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
