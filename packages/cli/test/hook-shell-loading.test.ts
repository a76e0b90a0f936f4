/**
 * `verdict hook` loads the shell parser only for a call asked under a shell tool of a policy with
 * command rules; for every other call the rules are checked but judge nothing (hook-lazy.test.ts
 * shows what is loaded). Property: that choice never changes an answer. Every event kind of every
 * agent, with the bundled starter policies, over tool names (the shell tools of the default table in
 * several cases, other tools, MCP tools, a Codex patch) and commands from the corpora, answers
 * exactly as the same policy compiled with the judge does.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileFile } from '@verdict/compiler';
import type { CompiledApprover, HookAgent } from '@verdict/engine';
import { DECIDING } from '../src/command-rules.ts';
import { decidePayload, loadPolicy, type CallState, type PolicySource } from '../src/hook/run.ts';
import { repoRoot } from './harness.ts';
import { EVENT_KINDS, shellPayload, toolPayload, cursorRead, cursorMcp } from './hook-payloads.ts';

const STARTERS: Record<HookAgent, string> = {
  claude: 'fixtures/policies/claude-code.yaml',
  codex: 'fixtures/policies/codex.yaml',
  gemini: 'fixtures/policies/gemini-cli.yaml',
  cursor: 'fixtures/policies/cursor.yaml',
};

const corpus = (name: string): string[] =>
  readFileSync(join(repoRoot, 'fixtures/shell', name), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { command: string }).command);
const COMMANDS = [...corpus('benign.jsonl'), ...corpus('bypass.jsonl')];

const TOOLS = ['Bash', 'bash', 'BASH', 'run_shell_command', 'Run_Shell_Command', 'Shell', 'shell', 'Read', 'Write', 'Edit', 'read_file', 'apply_patch', 'WebFetch', 'mcp__github__list_issues', 'Bash2'];

const full = new Map<string, CompiledApprover>();
function judged(file: string): CompiledApprover {
  let a = full.get(file);
  if (a === undefined) {
    const r = compileFile(join(repoRoot, file), { ...DECIDING, project: '/repo' });
    if (r.approver === undefined) throw new Error(`${file} does not load`);
    a = r.approver;
    full.set(file, a);
  }
  return a;
}

async function answer(text: string, agent: HookAgent, policy: PolicySource) {
  const state: CallState = { agent, event: undefined, tool: undefined };
  try {
    const o = await decidePayload(text, { agent }, state, policy);
    return { answer: o.answer, decision: o.decision, reason: o.reason, rule: o.rule };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

describe('verdict hook: loading the shell parser only for shell calls changes no answer', () => {
  for (const { agent, event } of EVENT_KINDS) {
    it(`${agent} ${event}, under ${STARTERS[agent]}`, async () => {
      const file = STARTERS[agent];
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...TOOLS), fc.constantFrom(...COMMANDS), async (tool, command) => {
          const input = tool === 'apply_patch' ? JSON.stringify({ command: `*** Begin Patch\n*** Add File: /etc/x\n+${command}\n*** End Patch\n` }) : JSON.stringify({ command, file_path: `/workspace/${command}` });
          const text =
            event === 'beforeShellExecution' ? shellPayload(agent, event, command)
            : event === 'beforeReadFile' ? cursorRead(`/workspace/${command}`)
            : event === 'beforeMCPExecution' ? cursorMcp(tool, input)
            : toolPayload(agent, event, tool, input);
          const lazy = await answer(text, agent, (names, project) => loadPolicy(join(repoRoot, file), names, project));
          const whole = await answer(text, agent, () => judged(file));
          expect(lazy, text).toEqual(whole);
        }),
        { numRuns: 80, seed: 19 },
      );
    }, 120_000);
  }
});
