import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createGate } from './gate-tool-calls.ts';

describe('the README approver example', () => {
  it('is the same code as this compiled, tested file', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const source = readFileSync(new URL('./gate-tool-calls.ts', import.meta.url), 'utf8');
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks).toContain(source);
  });

  it('gates calls and reports each decision to the logger', () => {
    const events: object[] = [];
    const gate = createGate({ info: (o) => events.push(o), warn: (o) => events.push(o) });
    expect(gate({ toolName: 'Read', input: '{"path":"/workspace/a"}' })).toBe(true);
    expect(gate({ toolName: 'bash', input: '{"command":"git status"}' })).toBe(true);
    expect(gate({ toolName: 'bash', input: '{"command":"\\u0072m -rf /"}' })).toBe(false);
    expect(gate({ toolName: 'bash', input: '{"command":"git status","command":"sudo x"}' })).toBe(false);
    expect(gate({ toolName: 'web_fetch', input: '{}' })).toBe(false);
    expect(events.map((e) => (e as { event: string }).event)).toEqual([
      'tool.execute',
      'tool.execute',
      'tool.denied',
      'tool.denied',
      'tool.denied',
    ]);
    expect(events[2]).toMatchObject({ toolName: 'bash', reason: 'denied — reads and `git status` only; ask the operator' });
  });
});
