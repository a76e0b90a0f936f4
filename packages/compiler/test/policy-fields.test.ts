/**
 * The run Policy's one field table (engine `POLICY_FIELDS`) agrees with the published schema, the
 * `Policy` the compiler lowers to, and the printers: a field added in one place and not the others fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodePolicy, POLICY_FIELDS, policyFieldsIn, policyFieldValue, zeroPolicy } from '@verdict/engine';
import { describe, expect, it } from 'vitest';
import { compileSource, printVerdict, printYaml } from '../src/index.ts';

const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../schemas/policy.schema.json'), 'utf8')) as {
  properties: Record<string, { properties?: Record<string, unknown> }>;
};

describe('the run Policy field table', () => {
  it('names every key of the published schema, in its order', () => {
    expect(policyFieldsIn('policy').map((f) => f.name)).toEqual(Object.keys(schema.properties).filter((k) => k !== 'preset' && k !== 'approvals'));
    expect(policyFieldsIn('approvals').map((f) => f.name)).toEqual(Object.keys(schema.properties.approvals?.properties ?? {}));
  });

  it('makes the SDK\'s zero `Policy` (zeroPolicy is derived from the table; a property of `Policy` the table lacks is a type error in domains.ts)', () => {
    expect(zeroPolicy()).toStrictEqual({
      sandbox: '',
      webSearch: '',
      browser: '',
      approvals: { permission: '', planReview: '', question: '', timeout: 0n, onTimeout: '', onReject: '', maxRetries: 0 },
    });
    // What an empty `policy:` block lowers to.
    expect(compileSource('policy: {}\n', 'p.yaml').policy).toStrictEqual(zeroPolicy());
  });

  it('encodes a policy in the file shape, every field by its file name', () => {
    expect(encodePolicy(zeroPolicy())).toStrictEqual({
      sandbox: '',
      web_search: '',
      browser: '',
      approvals: { permission: '', plan_review: '', question: '', timeout: '0s', on_timeout: '', on_reject: '', max_retries: 0 },
    });
  });

  it('round-trips every field through the loader and both printers', () => {
    const yaml = [
      'policy:',
      '  sandbox: read_only',
      '  web_search: deny',
      '  browser: allow',
      '  approvals:',
      '    permission: auto_approve',
      '    plan_review: auto_reject',
      '    question: ask',
      '    timeout: 45s',
      '    on_timeout: continue',
      '    on_reject: retry',
      '    max_retries: 7',
      '',
    ].join('\n');
    const r = compileSource(yaml, 'p.yaml');
    expect(r.diagnostics).toEqual([]);
    const values = POLICY_FIELDS.map((f) => String(policyFieldValue(r.policy!, f)));
    expect(values).toEqual(['read_only', 'deny', 'allow', 'auto_approve', 'auto_reject', 'ask', '45000000000', 'continue', 'retry', '7']);
    for (const [text, file] of [
      [printYaml(r.ir!), 'again.yaml'],
      [printVerdict(r.ir!), 'again.verdict'],
    ] as const) {
      const again = compileSource(text, file);
      expect(again.diagnostics, file).toEqual([]);
      expect(POLICY_FIELDS.map((f) => String(policyFieldValue(again.policy!, f))), file).toEqual(values);
    }
  });
});
