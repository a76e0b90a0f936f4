/**
 * `verdict hook`, property: over generated payloads for every event kind of every agent (calls the
 * policy allows, asks about and denies, payloads cut short, non-objects, unknown tools, the wrong
 * `--agent`), no answer is read as "the tool runs" by that agent's documented reading of hook
 * answers (hook-agent-models.ts) unless the policy allows the call; and an allowed call is not
 * blocked. The policy is fixtures/hook/policy.yaml, mirrored here for shell commands.
 */
import fc from 'fast-check';
import { normalizePath } from '@verdict/engine';
import { describe, expect, it } from 'vitest';
import type { HookAgent } from '@verdict/engine';
import { runCli } from './harness.ts';
import { readAnswer } from './hook-agent-models.ts';
import { cursorMcp, cursorRead, EVENT_KINDS, shellPayload, toolPayload } from './hook-payloads.ts';

type Expect = 'allow' | 'deny' | 'ask';

/** fixtures/hook/policy.yaml on a shell command: deny `rm -rf` anywhere, ask `git push…`, allow `git status`. */
function expected(command: string): Expect {
  if (command.includes('rm -rf')) return 'deny';
  if (/^git push[^\n]*$/.test(command)) return 'ask';
  return command === 'git status' ? 'allow' : 'deny';
}

const command = fc.oneof(
  fc.constant('git status'),
  fc.stringMatching(/^git push [a-z0-9 ]{0,12}$/),
  fc.string().map((s) => `rm -rf ${s}`),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string().map((s) => `git status${s}`),
);

type Mutation = { kind: 'none' } | { kind: 'truncate'; at: number } | { kind: 'replace'; text: string } | { kind: 'unknown-tool' };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Mutation>({ kind: 'none' }) },
  { weight: 2, arbitrary: fc.double({ min: 0, max: 0.999, noNaN: true }).map<Mutation>((at) => ({ kind: 'truncate', at })) },
  { weight: 1, arbitrary: fc.constantFrom('', '[]', 'null', '"PreToolUse"', '42', '{}', 'not json', '\u0000').map<Mutation>((text) => ({ kind: 'replace', text })) },
  { weight: 1, arbitrary: fc.constant<Mutation>({ kind: 'unknown-tool' }) },
);

const AGENTS: HookAgent[] = ['claude', 'codex', 'gemini', 'cursor'];

/** A permission suggestion as Claude Code sends one (the rule it would add). */
const SUGGESTION = { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'git status' }], behavior: 'allow', destination: 'localSettings' };

describe('verdict hook: no answer reads as allow unless the policy allows', () => {
  for (const { agent, event } of EVENT_KINDS.filter((k) => k.event !== 'beforeMCPExecution' && k.event !== 'beforeReadFile')) {
    it(`${agent} ${event}`, async () => {
      await fc.assert(
        fc.asyncProperty(command, mutation, fc.constantFrom(...AGENTS), fc.boolean(), fc.boolean(), async (cmd, m, flag, approve, suggested) => {
          // Claude Code's PermissionRequest: with suggestions (no rule of its own allows the call) or
          // without (its own doubt about the command, which `--approve` leaves to the person).
          const extra = agent === 'claude' && event === 'PermissionRequest' ? { permission_suggestions: suggested ? [SUGGESTION] : [] } : {};
          let payload = shellPayload(agent, event, cmd, extra);
          let want = expected(cmd);
          if (m.kind === 'truncate') {
            payload = payload.slice(0, Math.floor(payload.length * m.at));
            want = 'deny';
          } else if (m.kind === 'replace') {
            payload = m.text;
            want = 'deny';
          } else if (m.kind === 'unknown-tool') {
            payload = event === 'beforeShellExecution' ? payload.replace('"command":', '"komand":') : toolPayload(agent, event, 'Bash2', JSON.stringify({ command: cmd }));
            want = 'deny';
          }
          // A payload that says who sent it is answered in its sender's dialect whatever `--agent` says. One
          // that does not is answered in the flag's dialect, so there the flag is the agent's own (as
          // `verdict hook install` writes it): no answer blocks in every agent at once.
          const readable = m.kind === 'none' || m.kind === 'unknown-tool';
          const r = await runCli(['hook', '--agent', readable ? flag : agent, '--policy', 'fixtures/hook/policy.yaml', ...(approve ? ['--approve'] : [])], payload);
          const reading = readAnswer(agent, event, { code: r.code, stdout: r.stdout, stderr: r.stderr });
          expect(r.code === 0 || r.code === 2, `exit ${r.code}`).toBe(true);
          if (want !== 'allow') expect(reading, `${want}: ${payload}\n${JSON.stringify(r)}`).not.toBe('runs');
          // Allowed: the tool runs, except that a PermissionRequest (the agent is about to prompt) is
          // left to the prompt unless `--approve`, and a Claude Code request without suggestions always.
          else expect(reading, payload).toBe(event === 'PermissionRequest' && !(approve && (agent !== 'claude' || suggested)) ? 'asks' : 'runs');
          if (want === 'ask' && m.kind === 'none') expect(['asks', 'blocked']).toContain(reading);
        }),
        { numRuns: 60 },
      );
    }, 120_000);
  }
});

/** fixtures/hook/policy.yaml on a read: ask under /repo/secret/, allow under /repo/, else deny. */
function expectedRead(path: string): Expect {
  // The rules see the path resolved (`..`, `.`, `//` gone; /repo does not exist here, so no links);
  // an ask rule also matches it as written, an allow rule only resolved.
  const resolved = path.startsWith('/') ? normalizePath(path) : path;
  if ([path, resolved].some((p) => /^\/repo\/secret\/[^\n]*$/.test(p))) return 'ask';
  return /^\/repo\/[^\n]*$/.test(resolved) ? 'allow' : 'deny';
}

/** fixtures/hook/policy.yaml on an MCP call: github's delete_repo denied, merge_pull_request asked, the rest of github allowed. */
function expectedMcp(server: string, tool: string): Expect {
  // Tool names compare under case folding, so `GitHub` is the same server to a rule.
  if (server.toLowerCase() !== 'github') return 'deny';
  return tool === 'delete_repo' ? 'deny' : tool === 'merge_pull_request' ? 'ask' : 'allow';
}

const path = fc.oneof(
  fc.string().map((s) => `/repo/${s}`),
  fc.string().map((s) => `/repo/secret/${s}`),
  fc.string().map((s) => `/etc/${s}`),
  fc.string(),
);
const server = fc.constantFrom('github', 'slack', 'GitHub', 'github_x');
const mcpTool = fc.oneof(fc.constantFrom('list_issues', 'delete_repo', 'merge_pull_request'), fc.stringMatching(/^[a-z_]{1,12}$/));

describe('verdict hook: Cursor file and MCP events are never read as allow unless the policy allows', () => {
  const read = (want: Expect, payload: string, cut: number | undefined) => ({ want: cut === undefined ? want : 'deny', payload: cut === undefined ? payload : payload.slice(0, Math.floor(payload.length * cut)) });
  const cut = fc.option(fc.double({ min: 0, max: 0.999, noNaN: true }), { nil: undefined, freq: 3 });
  it('beforeReadFile', async () => {
    await fc.assert(
      fc.asyncProperty(path, cut, async (p, c) => {
        const { want, payload } = read(expectedRead(p), cursorRead(p), c);
        const r = await runCli(['hook', '--agent', 'cursor', '--policy', 'fixtures/hook/policy.yaml'], payload);
        const reading = readAnswer('cursor', 'beforeReadFile', { code: r.code, stdout: r.stdout, stderr: r.stderr });
        if (want === 'allow') expect(reading, payload).toBe('runs');
        else expect(reading, `${want}: ${payload}`).toBe('blocked');
      }),
      { numRuns: 60 },
    );
  }, 120_000);
  it('beforeMCPExecution', async () => {
    await fc.assert(
      fc.asyncProperty(server, mcpTool, cut, async (srv, tool, c) => {
        const { want, payload } = read(expectedMcp(srv, tool), cursorMcp(tool, '{"repo":"o/r"}', srv), c);
        const r = await runCli(['hook', '--agent', 'cursor', '--policy', 'fixtures/hook/policy.yaml'], payload);
        const reading = readAnswer('cursor', 'beforeMCPExecution', { code: r.code, stdout: r.stdout, stderr: r.stderr });
        if (want === 'allow') expect(reading, payload).toBe('runs');
        else expect(reading, `${want}: ${payload}`).toBe('blocked');
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});

