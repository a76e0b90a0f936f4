import { describe, expect, it } from 'vitest';
import { compileSource, printVerdict } from '../../src/index.ts';

describe('printing `-0`', () => {
  it('keeps the sign, so the converted file gets the same negative-zero warning', () => {
    const yaml = compileSource('policy:\n  approvals: {max_retries: -0}\n', 'p.yaml', { stopAfter: 'validate' });
    const text = printVerdict(yaml.ir!);
    expect(text).toContain('max_retries -0');
    const dsl = compileSource(text, 'p.verdict', { stopAfter: 'validate' });
    expect(dsl.diagnostics.map((d) => d.code)).toEqual(yaml.diagnostics.map((d) => d.code));
    expect(yaml.diagnostics.map((d) => d.code)).toContain('policy/negative-zero');
  });
});
