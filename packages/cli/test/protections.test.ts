/**
 * Issue 26, items 1 and 2, through `verdict hook` in each agent's dialect with each starter policy:
 * every write to a protected path is denied by every channel (the agent's file tools, its patch
 * tool, shell writes), naming the protection; every symlink escape is denied (real temporary
 * folders with real links); the same calls inside the project are allowed (so the denials are the
 * protections', not a policy that denies everything).
 */
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { compileSource } from '@verdict/compiler';
import { PROTECTION_NAMES, type HookAgent } from '@verdict/engine';
import { decidePayload, type CallState } from '../src/hook/run.ts';
import { readAnswer } from './hook-agent-models.ts';
import { repoRoot, runCli } from './harness.ts';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'verdict-protect-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const P = join(root, 'proj');
const HOME = join(root, 'home');
const CODEX_HOME = join(root, 'codex-home');
const GEMINI_CLI_HOME = join(root, 'gemini-home');
const OUTSIDE = join(root, 'outside');
for (const d of [P, HOME, CODEX_HOME, GEMINI_CLI_HOME, OUTSIDE, join(P, 'src'), join(P, '.git')]) mkdirSync(d, { recursive: true });
writeFileSync(join(P, '.env'), 'SECRET=1\n');
writeFileSync(join(P, 'src/a.ts'), 'a\n');
symlinkSync(OUTSIDE, join(P, 'out'));
symlinkSync(join(P, '.env'), join(P, 'notes'));
symlinkSync(join(P, '.git'), join(P, 'cfg'));

const ENV = { HOME, CODEX_HOME, GEMINI_CLI_HOME, CLAUDE_PROJECT_DIR: P, GEMINI_PROJECT_DIR: P };

const STARTERS: Record<HookAgent, string> = { claude: 'claude-code.yaml', codex: 'codex.yaml', gemini: 'gemini-cli.yaml', cursor: 'cursor.yaml' };
/** Each starter copied into the project: the policy file is itself a protected path the starter's write rules reach. */
const policyOf = (agent: HookAgent): string => {
  const file = join(P, `policy-${agent}.yaml`);
  copyFileSync(join(repoRoot, 'fixtures/policies', STARTERS[agent]), file);
  return file;
};
const LOG = join(P, 'verdict.log');

/** Every protected path the issue lists, with the protection that names it. */
const TARGETS = (agent: HookAgent): [string, string][] => [
  ['claude-settings', `${P}/.claude/settings.local.json`],
  ['claude-settings', `${HOME}/.claude/settings.json`],
  ['codex-settings', `${P}/.codex/config.toml`],
  ['codex-settings', `${CODEX_HOME}/hooks.json`],
  ['gemini-settings', `${P}/.gemini/settings.json`],
  ['gemini-settings', `${GEMINI_CLI_HOME}/.gemini/settings.json`],
  ['cursor-settings', `${P}/.cursor/hooks.json`],
  ['policy', join(P, `policy-${agent}.yaml`)],
  ['verdict', LOG],
  ['git-config', `${P}/.git/config`],
  ['git-hooks', `${P}/.git/hooks/pre-commit`],
  ['git-info', `${P}/.git/info/attributes`],
  ['program-config', `${P}/.npmrc`],
  ['build-files', `${P}/package.json`],
];

/** Shell texts that write `t` (absolute), run in the project. */
const SHELL_WRITES = (t: string): string[] => {
  const dir = t.slice(0, t.lastIndexOf('/'));
  const base = t.slice(t.lastIndexOf('/') + 1);
  return [
    `echo x > ${t}`,
    `ls >> ${t}`,
    `printf x | tee -a ${t}`,
    `cp src/a.ts ${t}`,
    `mv src/a.ts ${t}`,
    `ln -sf /tmp/evil ${t}`,
    `install -m 755 src/a.ts ${t}`,
    `dd if=src/a.ts of=${t}`,
    `sed -i s/a/b/ ${t}`,
    `touch ${t}`,
    `rm -f ${t}`,
    `cd ${dir} && echo x > ${base}`,
  ];
};

const payload = (agent: HookAgent, tool: string, input: unknown, event?: string): string => {
  const common = { session_id: 's', cwd: P, hook_event_name: event ?? (agent === 'gemini' ? 'BeforeTool' : agent === 'cursor' ? 'preToolUse' : 'PreToolUse') };
  const codex = agent === 'codex' ? { turn_id: '7', model: 'gpt-5-codex', permission_mode: 'default' } : {};
  const cursor = agent === 'cursor' ? { conversation_id: 'c', generation_id: 'g', cursor_version: '3.5.38', workspace_roots: [P] } : {};
  return JSON.stringify({ ...common, ...codex, ...cursor, tool_name: tool, tool_input: input });
};
const cursorShellPayload = (command: string): string =>
  JSON.stringify({ conversation_id: 'c', generation_id: 'g', cursor_version: '3.5.38', workspace_roots: [P], hook_event_name: 'beforeShellExecution', command, cwd: P });
const patch = (line: string): unknown => ({ command: `*** Begin Patch\n${line}\n*** End Patch\n` });

/** Every channel of the agent that writes `t`: `[what, payload]`. */
function channels(agent: HookAgent, t: string): [string, string][] {
  const shell = SHELL_WRITES(t);
  switch (agent) {
    case 'claude':
      return [
        ['Write', payload(agent, 'Write', { file_path: t, content: '{"disableAllHooks":true}' })],
        ['Edit', payload(agent, 'Edit', { file_path: t, old_string: 'a', new_string: 'b', replace_all: false })],
        ['MultiEdit', payload(agent, 'MultiEdit', { file_path: t, edits: [{ old_string: 'a', new_string: 'b' }] })],
        ['NotebookEdit', payload(agent, 'NotebookEdit', { notebook_path: t, new_source: 'x' })],
        ...shell.map((c): [string, string] => [`Bash ${c}`, payload(agent, 'Bash', { command: c })]),
      ];
    case 'codex':
      return [
        ['apply_patch Add File', payload(agent, 'apply_patch', patch(`*** Add File: ${t}\n+x`))],
        ['apply_patch Update File', payload(agent, 'apply_patch', patch(`*** Update File: ${t}\n@@\n-a\n+b`))],
        ['apply_patch Delete File', payload(agent, 'apply_patch', patch(`*** Delete File: ${t}`))],
        ['apply_patch Move to', payload(agent, 'apply_patch', patch(`*** Update File: src/a.ts\n*** Move to: ${t}\n@@\n-a\n+b`))],
        ...shell.map((c): [string, string] => [`Bash ${c}`, payload(agent, 'Bash', { command: c })]),
      ];
    case 'gemini':
      return [
        ['write_file', payload(agent, 'write_file', { file_path: t, content: 'x' })],
        ['replace', payload(agent, 'replace', { file_path: t, old_string: 'a', new_string: 'b', instruction: 'x' })],
        ...shell.map((c): [string, string] => [`run_shell_command ${c}`, payload(agent, 'run_shell_command', { command: c, dir_path: '.' })]),
      ];
    case 'cursor':
      return [
        ['Write', payload(agent, 'Write', { file_path: t, content: 'x' })],
        ['Delete', payload(agent, 'Delete', { file_path: t })],
        ...shell.map((c): [string, string] => [`beforeShellExecution ${c}`, cursorShellPayload(c)]),
        ...shell.map((c): [string, string] => [`Shell ${c}`, payload(agent, 'Shell', { command: c, cwd: P })]),
      ];
  }
}

const eventOf = (agent: HookAgent, p: string): string => (JSON.parse(p) as { hook_event_name: string }).hook_event_name ?? agent;

async function hook(agent: HookAgent, policy: string, p: string) {
  const r = await runCli(['hook', '--agent', agent, '--policy', policy, '--log', LOG], p, { env: ENV });
  return { ...r, reading: readAnswer(agent, eventOf(agent, p), { code: r.code, stdout: r.stdout, stderr: r.stderr }) };
}

const AGENTS: HookAgent[] = ['claude', 'codex', 'gemini', 'cursor'];

describe('protected paths through verdict hook, each agent with its starter', () => {
  for (const agent of AGENTS) {
    it(`${agent}: every channel's write to every protected path is denied, naming the protection`, async () => {
      const policy = policyOf(agent);
      const failures: string[] = [];
      for (const [name, t] of TARGETS(agent)) {
        for (const [what, p] of channels(agent, t)) {
          const r = await hook(agent, policy, p);
          if (r.reading !== 'blocked' || !`${r.stdout}${r.stderr}`.includes(`\`${name}\``)) failures.push(`${what} → ${t}: ${r.reading} ${r.stdout}${r.stderr}`);
        }
      }
      expect(failures).toEqual([]);
    }, 120_000);

    it(`${agent}: the same channels inside the project are allowed by the starter (the denials above are the protections')`, async () => {
      const policy = policyOf(agent);
      const t = `${P}/src/b.ts`;
      const allowed = channels(agent, t).filter(([what]) => !/ (Bash|run_shell_command|beforeShellExecution|Shell) /.test(` ${what} `) && what !== 'Delete' && what !== 'NotebookEdit' && what !== 'MultiEdit');
      expect(allowed.length).toBeGreaterThan(0);
      for (const [what, p] of allowed) expect((await hook(agent, policy, p)).reading, what).toBe('runs');
    });
  }

  it('git config that writes is a write of .git/config (or ~/.gitconfig); reading it is not', async () => {
    const policy = policyOf('claude');
    const bash = (command: string) => hook('claude', policy, payload('claude', 'Bash', { command }));
    expect((await bash('git config core.fsmonitor "sh -c id"')).stdout).toContain('`git-config`');
    expect((await bash('git config --global core.pager "sh -c id"')).stdout).toContain('`program-config`');
    expect((await bash('git -C sub config --unset core.x')).stdout).toContain('`git-config`');
    expect((await bash('git config --get user.name')).reading).toBe('runs');
  });

  it('a link into a protected folder is the protected folder (cfg → .git)', async () => {
    const r = await hook('claude', policyOf('claude'), payload('claude', 'Write', { file_path: `${P}/cfg/config`, content: 'x' }));
    expect(r.reading).toBe('blocked');
    expect(r.stdout).toContain('`git-config`');
    expect(r.stdout).toContain(`${P}/.git/config`);
  });

  it('a lifted protection hands the write back to the rules, and only that one', async () => {
    const file = join(P, 'lifted.yaml');
    writeFileSync(file, 'approver:\n  mode: pattern\n  default: deny\n  protections: {lift: [claude-settings]}\n  allow:\n    - {tool: Write, field: file_path, match: ".*"}\n');
    const w = (t: string) => hook('claude', file, payload('claude', 'Write', { file_path: t, content: 'x' }));
    expect((await w(`${P}/.claude/settings.json`)).reading).toBe('runs');
    expect((await w(`${P}/.git/config`)).stdout).toContain('`git-config`');
  });
});

describe('paths as the system opens them: symlink escapes through verdict hook', () => {
  it('claude: Write through a link that points outside is denied; Read of a link to .env is denied', async () => {
    const policy = policyOf('claude');
    expect((await hook('claude', policy, payload('claude', 'Write', { file_path: `${P}/out/x`, content: 'x' }))).reading).toBe('blocked');
    expect((await hook('claude', policy, payload('claude', 'Read', { file_path: `${P}/notes` }))).reading).toBe('blocked');
    expect((await hook('claude', policy, payload('claude', 'Read', { file_path: `${P}/src/a.ts` }))).reading).toBe('runs');
    expect((await hook('claude', policy, payload('claude', 'Read', { file_path: `${P}/src/../notes` }))).reading).toBe('blocked');
  });
  it('codex: a patch through a link that points outside is denied', async () => {
    const policy = policyOf('codex');
    expect((await hook('codex', policy, payload('codex', 'apply_patch', patch('*** Add File: out/x\n+x')))).reading).toBe('blocked');
    expect((await hook('codex', policy, payload('codex', 'apply_patch', patch('*** Add File: src/new.ts\n+x')))).reading).toBe('runs');
    // an absolute path outside the project (the starter allowed any patch before)
    expect((await hook('codex', policy, payload('codex', 'apply_patch', patch(`*** Add File: ${OUTSIDE}/y\n+x`)))).reading).toBe('blocked');
  });
  it('gemini: relative paths through links are resolved against the project', async () => {
    const policy = policyOf('gemini');
    expect((await hook('gemini', policy, payload('gemini', 'write_file', { file_path: 'out/x', content: 'x' }))).reading).toBe('blocked');
    expect((await hook('gemini', policy, payload('gemini', 'read_file', { file_path: 'notes' }))).reading).toBe('blocked');
    expect((await hook('gemini', policy, payload('gemini', 'read_file', { file_path: 'src/a.ts' }))).reading).toBe('runs');
  });
  it('cursor: Write through a link outside and beforeReadFile of a link to .env are denied', async () => {
    const policy = policyOf('cursor');
    expect((await hook('cursor', policy, payload('cursor', 'Write', { file_path: `${P}/out/x`, content: 'x' }))).reading).toBe('blocked');
    const read = (path: string) => JSON.stringify({ conversation_id: 'c', generation_id: 'g', cursor_version: '3.5.38', workspace_roots: [P], hook_event_name: 'beforeReadFile', file_path: path, content: '' });
    expect((await hook('cursor', policy, read(`${P}/notes`))).reading).toBe('blocked');
    expect((await hook('cursor', policy, read(`${P}/src/a.ts`))).reading).toBe('runs');
  });
});

describe('property: under random policies, a write to a protected path is allowed only when the policy lifts that protection', () => {
  const TOOLS = ['Write', 'Edit', 'file.write', 'Bash', 'shell', ''];
  const rule = fc.record({ tool: fc.constantFrom(...TOOLS), match: fc.constantFrom('.*', '.+', 'proj', '\\.git', 'settings', 'x') });
  const policyText = fc
    .record({
      mode: fc.constantFrom('pattern', 'allow_all'),
      fallback: fc.constantFrom('allow', 'deny'),
      allow: fc.array(rule, { maxLength: 4 }),
      lift: fc.subarray([...PROTECTION_NAMES]),
    })
    .map(
      (p) =>
        `approver:\n  mode: ${p.mode}\n  default: ${p.fallback}\n  protections: {lift: [${p.lift.join(', ')}]}\n  allow:\n${p.allow.length === 0 ? '    []\n' : p.allow.map((r) => `    - {tool: ${JSON.stringify(r.tool)}, match: ${JSON.stringify(r.match)}}\n`).join('')}`,
    );
  const call = fc.oneof(
    fc.constantFrom(...TARGETS('claude')).map(([name, t]) => ({ name, p: payload('claude', 'Write', { file_path: t, content: 'x' }), agent: 'claude' as HookAgent })),
    fc.constantFrom(...TARGETS('codex')).map(([name, t]) => ({ name, p: payload('codex', 'apply_patch', patch(`*** Add File: ${t}\n+x`)), agent: 'codex' as HookAgent })),
    fc.tuple(fc.constantFrom(...TARGETS('gemini')), fc.nat(11)).map(([[name, t], k]) => ({ name, p: payload('gemini', 'run_shell_command', { command: SHELL_WRITES(t)[k]!, dir_path: '.' }), agent: 'gemini' as HookAgent })),
    fc.constantFrom(...TARGETS('cursor')).map(([name, t]) => ({ name, p: payload('cursor', 'Delete', { file_path: t }), agent: 'cursor' as HookAgent })),
  );
  it('never allowed unless lifted by name', async () => {
    await fc.assert(
      fc.asyncProperty(policyText, call, async (text, c) => {
        const compiled = compileSource(text, join(P, 'random.yaml'));
        if (compiled.approver === undefined) return;
        const lift = compiled.ir?.approver?.protections?.lift ?? [];
        const state: CallState = { agent: c.agent, event: undefined, tool: undefined };
        const o = await decidePayload(c.p, { agent: c.agent, protect: { policyFiles: [join(P, `policy-${c.agent}.yaml`)], log: LOG, env: ENV } }, state, () => ({ approver: compiled.approver!, lift }));
        if (o.decision === 'allow') expect(lift, `${text}\n${c.p}`).toContain(c.name);
        else if (!lift.includes(c.name)) expect(o.reason).toContain(`\`${c.name}\``);
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});
