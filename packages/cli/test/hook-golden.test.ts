/**
 * `verdict hook`, golden: for every event kind of every agent, payloads shaped as the agent sends
 * them (allow, deny, ask, an unknown tool, an MCP tool, a malformed payload, a policy that fails to
 * load) and the exact exit code, stdout and stderr. `UPDATE_GOLDEN=1` rewrites
 * `fixtures/hook/golden.json` (review the diff).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, repoRoot } from './harness.ts';
import { cursorRead, EVENT_KINDS, mcpPayload, shellPayload, toolPayload } from './hook-payloads.ts';

interface Case {
  name: string;
  agent: string;
  policy: string;
  payload: string;
}

const POLICY = 'fixtures/hook/policy.yaml';
const BROKEN = 'fixtures/hook/broken.yaml';
const GOLDEN = join(repoRoot, 'fixtures/hook/golden.json');

function cases(): Case[] {
  const out: Case[] = [];
  for (const { agent, event } of EVENT_KINDS) {
    const add = (kind: string, payload: string, policy = POLICY) => out.push({ name: `${agent} ${event} ${kind}`, agent, policy, payload });
    if (event === 'beforeReadFile') {
      add('allow', cursorRead('/repo/README.md'));
      add('deny', cursorRead('/etc/shadow'));
      add('ask', cursorRead('/repo/secret/key.pem'));
    } else if (event === 'beforeMCPExecution') {
      add('allow', mcpPayload(agent, event, 'github', 'list_issues', '{"repo":"o/r"}'));
      add('deny', mcpPayload(agent, event, 'github', 'delete_repo', '{"repo":"o/r"}'));
      add('ask', mcpPayload(agent, event, 'github', 'merge_pull_request', '{"number":1}'));
      add('mcp tool of another server', mcpPayload(agent, event, 'slack', 'post', '{"text":"hi"}'));
    } else {
      add('allow', shellPayload(agent, event, 'git status'));
      add('deny', shellPayload(agent, event, 'rm -rf /'));
      add('ask', shellPayload(agent, event, 'git push origin main'));
      if (event !== 'beforeShellExecution') {
        add('unknown tool', toolPayload(agent, event, 'FrobnicateTool', '{"x":1}'));
        add('mcp tool', mcpPayload(agent, event, 'github', 'list_issues', '{"repo":"o/r"}'));
      }
    }
    const any = event === 'beforeReadFile' ? cursorRead('/repo/README.md') : shellPayload(agent, event, 'git status');
    add('malformed payload', any.slice(0, Math.floor(any.length * 0.8)));
    add('policy that fails to load', any, BROKEN);
  }
  return out;
}

interface Golden extends Case {
  code: number;
  stdout: string;
  stderr: string;
}

async function runCase(c: Case): Promise<Golden> {
  const r = await runCli(['hook', '--agent', c.agent, '--policy', c.policy], c.payload);
  return { ...c, code: r.code, stdout: r.stdout, stderr: r.stderr };
}

describe('verdict hook golden answers', () => {
  it('every event kind answers as recorded in fixtures/hook/golden.json', async () => {
    const actual: Golden[] = [];
    for (const c of cases()) actual.push(await runCase(c));
    if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(GOLDEN, `${JSON.stringify(actual, null, 1)}\n`);
    const expected = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Golden[];
    expect(actual).toEqual(expected);
  });
});
