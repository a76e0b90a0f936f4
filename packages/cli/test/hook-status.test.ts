/**
 * `verdict hook status` beyond its golden runs (fixtures/cli/hook-status-*): a Codex hook trusted by
 * the hash Codex stores holds, and a changed command does not; the switches that turn hooks off in
 * each agent's settings fail the guard; an entry written before the failure wrapper is reported.
 * And `verdict hook --config FILE` (the file Codex's command names) answers deny when it cannot be read.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../src/cli.ts';
import { codexEventLabel, codexHookHash } from '../src/hook/codex-trust.ts';
import { runCli, repoRoot } from './harness.ts';
import { readAnswer } from './hook-agent-models.ts';
import { toolPayload } from './hook-payloads.ts';

let home: string;
let project: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'verdict-status-home-'));
  project = mkdtempSync(join(tmpdir(), 'verdict-status-project-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
});

async function verdict(...argv: string[]): Promise<{ code: number; stdout: string }> {
  const out: Buffer[] = [];
  const stdout = new PassThrough().on('data', (c: Buffer) => out.push(c));
  const code = await main(argv, { stdin: Readable.from([]), stdout, stderr: new PassThrough(), cwd: project, isTTY: false, env: { HOME: home } });
  await new Promise((r) => setImmediate(r));
  return { code, stdout: Buffer.concat(out).toString() };
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const POLICY = join(repoRoot, 'fixtures/hook/policy.yaml');

describe('verdict hook status', () => {
  it('Codex: holds once config.toml trusts each entry by the hash Codex computes; a changed command is untrusted again', async () => {
    await verdict('hook', 'install', '--agent', 'codex', '--policy', POLICY);
    expect((await verdict('hook', 'status', '--agent', 'codex')).code).toBe(1);
    const file = join(home, '.codex', 'hooks.json');
    const config = JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, { matcher: string; hooks: { command: string; timeout: number }[] }[]> };
    const state = Object.entries(config.hooks).map(([event, [g]]) => `[hooks.state."${file}:${codexEventLabel(event)}:0:0"]\ntrusted_hash = "${codexHookHash(event, g!.matcher, g!.hooks[0]!)}"\n`);
    write(join(home, '.codex', 'config.toml'), `model = "gpt-5.5"\n\n${state.join('\n')}`);
    const ok = await verdict('hook', 'status', '--agent', 'codex');
    expect([ok.code, ok.stdout]).toEqual([0, expect.stringContaining('Codex trusts every verdict hook entry (hash matches)')]);
    // The policy changes (only verdict-hook.json is rewritten): still trusted.
    write(join(project, 'other.yaml'), readFileSync(POLICY, 'utf8'));
    await verdict('hook', 'install', '--agent', 'codex', '--policy', 'other.yaml');
    expect((await verdict('hook', 'status', '--agent', 'codex')).code).toBe(0);
    // `[features] hooks = false` turns every hook off.
    write(join(project, '.codex', 'config.toml'), '[features]\nhooks = false\n');
    expect((await verdict('hook', 'status', '--agent', 'codex')).stdout).toContain('sets `[features] hooks = false`');
  });

  it('the switches that turn hooks off fail the guard', async () => {
    await verdict('hook', 'install', '--agent', 'claude', '--policy', POLICY);
    await verdict('hook', 'install', '--agent', 'gemini', '--policy', POLICY);
    expect((await verdict('hook', 'status')).code).toBe(0);
    write(join(project, '.claude', 'settings.local.json'), '{"disableAllHooks": true}\n');
    write(join(project, '.gemini', 'settings.json'), '{"hooksConfig": {"disabled": ["verdict"]}}\n');
    const r = await verdict('hook', 'status');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('sets `disableAllHooks: true`: Claude Code runs no hook');
    expect(r.stdout).toContain('lists `verdict` in `hooksConfig.disabled`: Gemini CLI skips it');
  });

  it('an entry written by an older install (no failure wrapper, no onFailure) is reported', async () => {
    const command = `${process.execPath} ${join(repoRoot, 'packages/cli/bin/verdict.mjs')} hook --agent claude --policy ${POLICY}`;
    const entry = { matcher: '*', hooks: [{ type: 'command', command, timeout: 30 }] };
    write(join(home, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [entry], PermissionRequest: [entry] } }));
    const r = await verdict('hook', 'status');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('the command has no failure wrapper');
    expect(r.stdout).toContain('no `onFailure: "block"`');
    // Installing again replaces the old entries.
    await verdict('hook', 'install', '--agent', 'claude', '--policy', POLICY);
    expect((await verdict('hook', 'status')).code).toBe(0);
  });

  it('nothing installed: says so, exit 1', async () => {
    const r = await verdict('hook', 'status');
    expect(r).toEqual({ code: 1, stdout: expect.stringContaining('the verdict hook is installed for no agent') });
  });
});

describe('verdict hook --config', () => {
  const payload = toolPayload('codex', 'PreToolUse', 'Bash', '{"command":"git status"}');
  it('reads the policy from the file; a missing file, bad JSON or an unknown key is answered with the deny', async () => {
    const cfg = join(project, 'verdict-hook.json');
    write(cfg, JSON.stringify({ policy: POLICY }));
    const ok = await runCli(['hook', '--agent', 'codex', '--config', cfg], payload);
    expect([ok.code, ok.stdout]).toEqual([0, '']);
    for (const [text, why] of [[undefined, 'ENOENT'], ['{"policy":', 'it is not valid JSON'], [JSON.stringify({ policy: POLICY, approve: true }), 'unknown key `approve`']] as const) {
      if (text === undefined) rmSync(cfg);
      else write(cfg, text);
      const r = await runCli(['hook', '--agent', 'codex', '--config', cfg], payload);
      expect(readAnswer('codex', 'PreToolUse', r)).toBe('blocked');
      expect(r.stderr).toContain(why);
    }
  });
});

describe('verdict hook status: Codex project hooks', () => {
  it('need the project trusted in config.toml as well as the hook', async () => {
    await verdict('hook', 'install', '--agent', 'codex', '--scope', 'project', '--policy', POLICY);
    const file = join(project, '.codex', 'hooks.json');
    const config = JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, { matcher: string; hooks: { command: string; timeout: number }[] }[]> };
    const state = Object.entries(config.hooks).map(([event, [g]]) => `[hooks.state."${file}:${codexEventLabel(event)}:0:0"]\ntrusted_hash = "${codexHookHash(event, g!.matcher, g!.hooks[0]!)}"\n`);
    write(join(home, '.codex', 'config.toml'), state.join('\n'));
    const untrusted = await verdict('hook', 'status', '--agent', 'codex');
    expect(untrusted.code).toBe(1);
    expect(untrusted.stdout).toContain("Codex loads a project's .codex/ only in a trusted project");
    write(join(home, '.codex', 'config.toml'), `[projects.${JSON.stringify(project)}]\ntrust_level = "trusted"\n\n${state.join('\n')}`);
    expect((await verdict('hook', 'status', '--agent', 'codex')).code).toBe(0);
  });
});
