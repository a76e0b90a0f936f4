/**
 * `verdict hook`, fault injection through the real CLI process: invalid stdin, stdin cut short, a
 * policy file that disappears or turns invalid, an internal error forced by the test switch (thrown
 * inside the decision, and thrown where nothing catches it), and a
 * deadline that expires (stdin held open, and a decision that never comes). Every one must answer
 * the agent's deny form: read as blocked by the agent model, exit 0 or 2, never 1.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { HookAgent } from '@verdict/engine';
import { type Answer, readAnswer } from './hook-agent-models.ts';
import { shellPayload } from './hook-payloads.ts';
import { runBuilt } from './serve-harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'verdict-hook-faults-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const GOOD = 'approver: {mode: pattern, default: deny, allow: [{tool: shell, match: "git status"}]}\n';

function policyFile(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}


/** Runs `verdict hook`; `stdin: null` holds stdin open after a cut payload (never ends). */
function hook(agent: HookAgent, policy: string, stdin: string | null, opts: { env?: Record<string, string>; args?: string[] } = {}): Promise<Answer> {
  return runBuilt(['hook', '--agent', agent, '--policy', policy, ...(opts.args ?? [])], stdin ?? { open: '{"hook_event_name":' }, opts.env);
}

const EVENT: Record<HookAgent, string> = { claude: 'PreToolUse', codex: 'PreToolUse', gemini: 'BeforeTool', cursor: 'preToolUse' };

function expectDeny(agent: HookAgent, a: Answer, reason: RegExp): void {
  expect([0, 2], JSON.stringify(a)).toContain(a.code);
  expect(readAnswer(agent, EVENT[agent], a), JSON.stringify(a)).toBe('blocked');
  expect(a.stdout + a.stderr).toMatch(reason);
  // stdout carries only the answer: one JSON line or nothing
  if (a.stdout !== '') expect(() => JSON.parse(a.stdout)).not.toThrow();
}

const AGENTS: HookAgent[] = ['claude', 'codex', 'gemini', 'cursor'];

describe.concurrent('verdict hook fails closed in the real process', () => {
  for (const agent of AGENTS) {
    const payload = shellPayload(agent, EVENT[agent], 'git status');
    it(`${agent}: the payload as given is allowed (the baseline the faults turn into denies)`, async () => {
      const a = await hook(agent, policyFile(`${agent}-good.yaml`, GOOD), payload);
      expect(readAnswer(agent, EVENT[agent], a)).toBe('runs');
    });
    it(`${agent}: invalid stdin`, async () => {
      expectDeny(agent, await hook(agent, policyFile(`${agent}-p1.yaml`, GOOD), '\u0000\u00ff garbage'), /not valid JSON/);
    });
    it(`${agent}: truncated stdin`, async () => {
      expectDeny(agent, await hook(agent, policyFile(`${agent}-p2.yaml`, GOOD), payload.slice(0, payload.length - 7)), /not valid JSON/);
    });
    it(`${agent}: the policy file disappears`, async () => {
      const p = policyFile(`${agent}-gone.yaml`, GOOD);
      rmSync(p);
      expectDeny(agent, await hook(agent, p, payload), /does not load/);
    });
    it(`${agent}: the policy file turns invalid`, async () => {
      const p = policyFile(`${agent}-turns.yaml`, GOOD);
      writeFileSync(p, 'approver: {mode: pattern, default: deny, allow: [{tool: shell, match: "git (status"}]}\n');
      expectDeny(agent, await hook(agent, p, payload), /does not load/);
    });
    it(`${agent}: an internal error (forced by VERDICT_HOOK_FAULT=internal)`, async () => {
      expectDeny(agent, await hook(agent, policyFile(`${agent}-p3.yaml`, GOOD), payload, { env: { VERDICT_HOOK_FAULT: 'internal' } }), /internal error/);
    });
    it(`${agent}: an exception nothing catches (VERDICT_HOOK_FAULT=uncaught)`, async () => {
      expectDeny(agent, await hook(agent, policyFile(`${agent}-p6.yaml`, GOOD), payload, { env: { VERDICT_HOOK_FAULT: 'uncaught' } }), /internal error/);
    });
    it(`${agent}: the deadline expires while stdin stays open`, async () => {
      expectDeny(agent, await hook(agent, policyFile(`${agent}-p4.yaml`, GOOD), null, { args: ['--deadline', '3s'] }), /deadline/);
    });
    it(`${agent}: the deadline expires while deciding (VERDICT_HOOK_FAULT=hang)`, async () => {
      expectDeny(agent, await hook(agent, policyFile(`${agent}-p5.yaml`, GOOD), payload, { args: ['--deadline', '3s'], env: { VERDICT_HOOK_FAULT: 'hang' } }), /deadline/);
    });
  }
});
