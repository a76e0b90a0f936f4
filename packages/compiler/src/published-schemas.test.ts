import { describe, expect, it } from 'vitest';
import { getValidators } from './schemas.ts';

// The published (editor) schemas flag the values the loader rejects, spelled as the loader accepts them.
const v = getValidators({ published: true });
const ok = (d: unknown) => expect(v.file(d), JSON.stringify(v.file.errors)).toBe(true);
const bad = (d: unknown) => expect(v.file(d)).toBe(false);

describe('published schemas', () => {
  it('accept what the loader accepts', () => {
    ok({ mode: ' Pattern ', default: 'DENY' });
    ok({ mode: '', default: '' });
    ok({ mode: 'ALLOW' });
    ok({ policy: { sandbox: '', approvals: { timeout: '2m30s', max_retries: 0, question: 'ask' } } });
    ok({ policy: { approvals: { timeout: 0 } } });
    ok({ policy: { approvals: { timeout: '-1s' } } });
    ok({ driver: 'codex' });
    ok({ driver: './drivers/mine.yaml' });
  });
  it('flag what the loader rejects', () => {
    bad({ mode: 'patern' });
    bad({ default: ' deny' });
    bad({ policy: { sandbox: 'Read_only' } });
    bad({ policy: { approvals: { question: 'auto_approve' } } });
    bad({ policy: { approvals: { timeout: '30' } } });
    bad({ policy: { approvals: { timeout: 30 } } });
    bad({ policy: { approvals: { max_retries: -1 } } });
    bad({ policy: { preset: 'readonly' } });
    bad({ driver: 'codx' });
  });
  it('the compiler validation leaves those values to the loader', () => {
    expect(getValidators().file({ policy: { sandbox: 'Read_only' }, mode: 'patern', driver: 'codx' })).toBe(true);
  });
});
