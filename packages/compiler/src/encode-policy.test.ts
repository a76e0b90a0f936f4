import { encodePolicy, materialize } from '@verdict/engine';
import { describe, expect, it } from 'vitest';
import { compileSource } from './index.ts';

describe('encodePolicy', () => {
  it('writes a lowered policy back in the file encoding, durations as Go writes them', () => {
    const text = [
      'policy:',
      '  sandbox: read_only',
      '  approvals: {permission: auto_approve, timeout: 1m30s, on_reject: retry, max_retries: 2}',
      '',
    ].join('\n');
    const policy = compileSource(text, 'p.yaml', { stopAfter: 'validate' }).policy!;
    expect(encodePolicy(policy)).toEqual({
      sandbox: 'read_only',
      web_search: '',
      browser: '',
      approvals: { permission: 'auto_approve', plan_review: '', question: '', timeout: '1m30s', on_timeout: '', on_reject: 'retry', max_retries: 2 },
    });
    expect(encodePolicy(materialize(policy)).approvals).toMatchObject({ plan_review: 'ask', question: 'auto_reject', on_timeout: 'abort' });
  });
});
