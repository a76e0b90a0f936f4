import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isApprovalDenied } from '@verdict/engine';
import { descriptor, policy } from '../../../test/support/decisions.ts';
import { runToolCall } from './embed-host.ts';

describe('the README example', () => {
  it('is the same code as this compiled, tested file', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const source = readFileSync(new URL('./embed-host.ts', import.meta.url), 'utf8');
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks).toContain(source);
    expect(source.trimEnd().split('\n').length).toBeLessThanOrEqual(20);
  });

  it('goes on when the human approves', async () => {
    const titles: string[] = [];
    const outcome = await runToolCall(policy(), descriptor(false), async (title) => {
      titles.push(title);
      return true;
    });
    expect(titles).toEqual(['run `npm test`']);
    expect(outcome).toMatchObject({ status: 'continue', outcome: 'approved', mode: 'ask', attempt: 0 });
  });

  it('fails the run with a denial the host can match', async () => {
    const err = await runToolCall(policy(), descriptor(false), async () => false).catch((e: unknown) => e);
    expect(isApprovalDenied(err)).toBe(true);
    expect((err as Error).message).toBe('the `permission` request `run `npm test`` was rejected: declined in the UI');
  });

  it('never asks under auto_approve', async () => {
    let asked = false;
    const outcome = await runToolCall(policy({ permission: 'auto_approve' }), descriptor(false), async () => {
      asked = true;
      return true;
    });
    expect(asked).toBe(false);
    expect(outcome.mode).toBe('auto_approve');
  });
});
