/**
 * Command rules end to end: the shell corpora (`fixtures/shell/`) through `verdict eval` with the
 * policy files beside them, on every shell tool of the default table; `verdict hook` and
 * `verdict serve`'s loader deciding with the same rules.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileFile, compileSource, printVerdict, printYaml } from '@verdict/compiler';
import type { PolicyFileIR } from '@verdict/engine';
import { DEFAULT_SHELL_TOOLS } from '@verdict/engine';
import { decidePayload, type CallState } from '../src/hook/run.ts';
import { loadPolicy } from '../src/serve/policy.ts';
import { repoRoot, runCli } from './harness.ts';
import { readAnswer } from './hook-agent-models.ts';
import { EVENT_KINDS, INVALID_UTF8, shellPayload, withBytes } from './hook-payloads.ts';

const SHELL = join(repoRoot, 'fixtures', 'shell');
const lines = (name: string) =>
  readFileSync(join(SHELL, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { command: string; category?: string });

async function evalAll(policy: string, commands: string[], tool: string): Promise<{ decision: string; reason: string }[]> {
  const stdin = commands.map((command) => JSON.stringify({ toolName: tool, input: { command } })).join('\n');
  const run = await runCli(['eval', '--policy', join('fixtures', 'shell', policy)], stdin);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const out = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as { decision: string; reason: string });
  expect(out).toHaveLength(commands.length);
  return out;
}

/** `docs/shell.md`'s side-by-side of the agents, between its markers. */
const SIDE_BY_SIDE = { begin: '<!-- side-by-side:begin -->', end: '<!-- side-by-side:end -->' };

/**
 * The side-by-side table's rows (the corpus category in the first cell, Verdict's cell in the last)
 * and its line on the benign corpus, read from the document as a user reads it.
 */
function sideBySide(): { rows: { category: string; verdict: string }[]; benign: string } {
  const doc = readFileSync(join(repoRoot, 'docs', 'shell.md'), 'utf8');
  const from = doc.indexOf(SIDE_BY_SIDE.begin);
  const to = doc.indexOf(SIDE_BY_SIDE.end);
  expect(from, 'docs/shell.md has the side-by-side markers').toBeGreaterThanOrEqual(0);
  expect(to).toBeGreaterThan(from);
  const section = doc.slice(from, to).split('\n');
  const rows = section
    .filter((l) => l.startsWith('| `'))
    .map((l) => {
      const cells = l.split(' | ').map((c) => c.replace(/^\| |\s*\|$/g, '').trim());
      return { category: cells[0]!.replace(/^`([^`]+)`.*$/, '$1'), verdict: cells[cells.length - 1]! };
    });
  const benign = section.find((l) => l.startsWith('Benign commands:')) ?? '';
  return { rows, benign };
}

/** Per corpus category, in the corpus's order: how many shapes, how many not denied. */
function perCategory(entries: { category?: string }[], decisions: { decision: string }[]): { category: string; verdict: string }[] {
  const counts = new Map<string, { total: number; allowed: number }>();
  entries.forEach((e, i) => {
    const c = counts.get(e.category!) ?? { total: 0, allowed: 0 };
    c.total++;
    if (decisions[i]!.decision !== 'deny') c.allowed++;
    counts.set(e.category!, c);
  });
  return [...counts].map(([category, c]) => ({ category, verdict: `${c.allowed} of ${c.total} allowed` }));
}

describe('the shell corpora through verdict eval', () => {
  const bypass = lines('bypass.jsonl');
  const benign = lines('benign.jsonl');

  it('the corpora are the issue’s size', () => {
    expect(bypass.length).toBeGreaterThanOrEqual(300);
    expect(benign.length).toBeGreaterThanOrEqual(200);
  });

  for (const { tool } of DEFAULT_SHELL_TOOLS) {
    it(`bypass shapes: 0 allowed under read-only.policy.yaml (${tool})`, async () => {
      // The policy is no deny-all: the reads it is written for are allowed, compound ones included.
      const reads = ['ls -la', 'git status', 'cat README.md | head -5 && wc -l src/index.ts'];
      const out = await evalAll('read-only.policy.yaml', [...reads, ...bypass.map((b) => b.command)], tool);
      expect(out.slice(0, reads.length).map((o) => o.decision)).toEqual(['allow', 'allow', 'allow']);
      const allowed = bypass.filter((_, i) => out[reads.length + i]!.decision !== 'deny').map((b) => b.command);
      expect(allowed).toEqual([]);
      // docs/shell.md's side-by-side states, per category, what this run measures (one row each).
      expect(sideBySide().rows).toEqual(perCategory(bypass, out.slice(reads.length)));
    });
  }

  it('benign commands: at least 95 % allowed under starter.policy.yaml', async () => {
    const out = await evalAll('starter.policy.yaml', benign.map((b) => b.command), 'Bash');
    const allowed = out.filter((o) => o.decision === 'allow').length;
    expect(allowed / benign.length).toBeGreaterThanOrEqual(0.95);
    // The documents state what this run measures.
    const share = `${((allowed / benign.length) * 100).toFixed(1)} %`;
    expect(sideBySide().benign).toContain(`**${allowed} of ${benign.length} allowed** (${share})`);
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### Command rules on shell tools'), readme.indexOf('## Packages'));
    expect(section).toContain(`${bypass.length} shapes`);
    expect(section).toContain(`${share} allowed under the starter policy`);
  });

  it('the policy files hold the rule sets the shell package’s own corpus tests use', () => {
    for (const name of ['read-only', 'starter']) {
      const sets = JSON.parse(readFileSync(join(SHELL, `${name}.json`), 'utf8')) as Record<string, unknown>;
      const ir = compileFile(join(SHELL, `${name}.policy.yaml`)).ir!.approver!;
      for (const list of ['allow', 'ask', 'deny'] as const) {
        const want = ((sets[list] ?? []) as Record<string, unknown>[]).map(({ reason: _r, ...rule }) => rule);
        const got = (list === 'ask' ? (ir.ask ?? []) : ir[list]).map((r) => ({
          ...(r.command !== undefined ? { command: r.command } : {}),
          ...(r.args !== undefined ? { args: r.args } : {}),
          ...(r.redirect !== undefined ? { redirect: r.redirect } : {}),
        }));
        expect(got, `${name} ${list}`).toEqual(want);
      }
      expect(ir.unknown ?? 'deny').toBe(sets['unknown'] ?? 'deny');
    }
  });
});

describe('every deciding command judges commands', () => {
  it('verdict serve’s loader', () => {
    const load = loadPolicy(join(SHELL, 'starter.policy.yaml'));
    expect(load.ok).toBe(true);
    if (!load.ok) return;
    const decide = (command: string) => load.policy.approver.decide({ toolName: 'Bash', input: JSON.stringify({ command }) }).decision;
    expect(decide('git status && git diff --stat | head -20')).toBe('allow');
    expect(decide('git status && echo $(rm -rf /) ok')).toBe('deny');
  });

  it('verdict hook (Claude Code PreToolUse)', async () => {
    const payload = (command: string) =>
      JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd: '/w', transcript_path: '/t', permission_mode: 'default' });
    const run = (command: string) => runCli(['hook', '--agent', 'claude', '--policy', join('fixtures', 'shell', 'read-only.policy.yaml')], payload(command));
    // Allowed: exit 0 with nothing to say; denied: exit 2 with the JSON deny whose reason the model sees.
    expect(await run('ls -la && cat README.md')).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await run('ls -la && bash -c "rm -rf /"')).toMatchObject({ code: 2, stderr: '', stdout: expect.stringContaining('"permissionDecision":"deny"') });
    expect(await run('ls -la; eval "$CMD"')).toMatchObject({ code: 2, stderr: '', stdout: expect.stringContaining('`eval`') });
  });
});

describe('the bypass corpus through verdict hook, in every agent’s dialect', () => {
  const bypass = lines('bypass.jsonl');
  const load = loadPolicy(join(SHELL, 'read-only.policy.yaml'));
  if (!load.ok) throw new Error('read-only.policy.yaml does not load');
  const approver = () => load.policy.approver;
  const shellEvents = EVENT_KINDS.filter((k) => k.event !== 'beforeMCPExecution' && k.event !== 'beforeReadFile');

  for (const { agent, event } of shellEvents) {
    it(`${agent} ${event}: none is answered as allow (the agent's reading of the answer: blocked)`, async () => {
      const reads = ['ls -la', 'git status && git diff --stat | head -20'];
      const readings: string[] = [];
      // The payload as `verdict hook` decodes it (run.ts), with `--approve`: an allow would skip the agent's own prompt.
      for (const command of [...reads, ...bypass.map((b) => b.command)]) {
        const state: CallState = { agent: undefined, event: undefined, tool: undefined };
        // A Claude Code PermissionRequest with suggestions: one `--approve` may approve.
        const extra = agent === 'claude' && event === 'PermissionRequest' ? { permission_suggestions: [{ type: 'addRules', rules: [{ toolName: 'Bash' }], behavior: 'allow', destination: 'session' }] } : {};
        const o = await decidePayload(shellPayload(agent, event, command, extra), { agent, approve: true }, state, approver);
        readings.push(readAnswer(agent, event, { code: o.answer.exitCode, stdout: o.answer.stdout, stderr: o.answer.stderr }));
      }
      // The reads it is written for run (a PermissionRequest allowed with `--approve` runs too).
      expect(readings.slice(0, reads.length)).toEqual(['runs', 'runs']);
      const notBlocked = bypass.filter((_, i) => readings[reads.length + i] !== 'blocked').map((b) => b.command);
      expect(notBlocked).toEqual([]);
    });
  }

  it('as bytes on standard input, with invalid UTF-8 beside the command or in it: never run', async () => {
    // A few per agent through the real command (its own stdin decoding and policy loading).
    const sample = bypass.filter((_, i) => i % 60 === 0).map((b) => b.command);
    for (const { agent, event } of shellEvents) {
      for (const [k, command] of sample.entries()) {
        const bytes = INVALID_UTF8[k % INVALID_UTF8.length]!;
        for (const text of [shellPayload(agent, event, `${command} \ue000`), shellPayload(agent, event, `\ue000${command}`).replace(/^\{/, '{"note":"\ue000",')]) {
          const payload = withBytes(text, bytes);
          const r = await runCli(['hook', '--agent', agent, '--approve', '--policy', join('fixtures', 'shell', 'read-only.policy.yaml')], payload);
          expect(readAnswer(agent, event, r), `${agent} ${event}: ${payload.toString('latin1')}`).toBe('blocked');
        }
      }
    }
  });
});

describe('the bypass corpus through verdict eval, as bytes with invalid UTF-8', () => {
  it('denies every shape with invalid bytes after it, or in a member beside it', async () => {
    const bypass = lines('bypass.jsonl');
    const requests: Buffer[] = [];
    for (const [i, { command }] of bypass.entries()) {
      const bytes = INVALID_UTF8[i % INVALID_UTF8.length]!;
      requests.push(withBytes(JSON.stringify({ toolName: 'Bash', input: { command: `${command} \ue000` } }), bytes));
      requests.push(withBytes(JSON.stringify({ toolName: 'Bash', input: { description: '\ue000', command } }), bytes));
    }
    const stdin = Buffer.concat(requests.flatMap((r) => [r, Buffer.from('\n')]));
    const run = await runCli(['eval', '--policy', join('fixtures', 'shell', 'read-only.policy.yaml')], stdin);
    expect(run.code).toBe(0);
    const out = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as { decision: string });
    expect(out).toHaveLength(requests.length);
    const allowed = out.flatMap((o, i) => (o.decision === 'deny' ? [] : [bypass[Math.floor(i / 2)]!.command]));
    expect(allowed).toEqual([]);
  });
});

describe('fixtures/policies/shell-commands', () => {
  it('passes its inline tests in both syntaxes through verdict test', async () => {
    for (const f of ['shell-commands.yaml', 'shell-commands.verdict']) {
      const run = await runCli(['test', join('fixtures', 'policies', f)]);
      expect(run.stdout, f).toBe('11 tests: 11 passed, 0 failed (1 file)\n');
      expect(run.code, f).toBe(0);
    }
  });
});

describe('command rules in both syntaxes', () => {
  /** The IR without where things were written. */
  const bare = (ir: PolicyFileIR | undefined): unknown =>
    JSON.parse(JSON.stringify(ir?.approver ?? null, (k, v: unknown) => (k === 'span' || k.endsWith('Span') ? undefined : v)));

  it('YAML → DSL → YAML keeps every command rule, `args`, `redirect` and `unknown`', () => {
    const yaml = compileFile(join(SHELL, 'starter.policy.yaml'));
    const dsl = compileSource(printVerdict(yaml.ir!), 'starter.verdict', { stopAfter: 'validate' });
    expect(dsl.diagnostics).toEqual([]);
    expect(bare(dsl.ir)).toEqual(bare(yaml.ir));
    const back = compileSource(printYaml(dsl.ir!), 'starter.yaml', { stopAfter: 'validate' });
    expect(back.diagnostics).toEqual([]);
    expect(bare(back.ir)).toEqual(bare(yaml.ir));
  });

  it('YAML keeps `shell:` and `wrappers:` through the printer', () => {
    const yaml = compileFile(join(SHELL, 'term.policy.yaml'));
    const back = compileSource(printYaml(yaml.ir!), 'term.yaml', { stopAfter: 'validate' });
    expect(back.diagnostics).toEqual([]);
    expect(bare(back.ir)).toEqual(bare(yaml.ir));
    expect(bare(back.ir)).toMatchObject({ shell: [{ tool: 'term', field: 'script' }], wrappers: { retry: { options: ['-n'] } } });
  });
});
