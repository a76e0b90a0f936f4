/**
 * `verdict hook install` / `uninstall` in a temporary HOME and project folder: the entry each agent
 * needs (absolute paths, every tool, a timeout, Cursor's failClosed), every other byte of the file
 * kept (install then uninstall gives the file back byte for byte), `--dry-run` as a diff.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { HOOK_AGENTS } from '@verdict/engine';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandIo } from '../src/args.ts';
import { main } from '../src/cli.ts';
import { codexEventLabel, codexHookHash } from '../src/hook/codex-trust.ts';
import { readAnswer } from './hook-agent-models.ts';
import { toolPayload } from './hook-payloads.ts';

let home: string;
let project: string;
let savedHome: string | undefined;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'verdict-home-'));
  project = mkdtempSync(join(tmpdir(), 'verdict-project-'));
  writeFileSync(join(project, 'policy.yaml'), 'approver: {mode: pattern, default: deny}\n');
  savedHome = process.env['HOME'];
  process.env['HOME'] = home;
});
afterEach(() => {
  process.env['HOME'] = savedHome;
  rmSync(home, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
});

async function verdict(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const stdout = new PassThrough().on('data', (c: Buffer) => out.push(c));
  const stderr = new PassThrough().on('data', (c: Buffer) => err.push(c));
  const io: CommandIo = { stdin: Readable.from([]), stdout, stderr, cwd: project, isTTY: false };
  const code = await main(argv, io);
  await new Promise((r) => setImmediate(r));
  return { code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() };
}

const FILES = {
  claude: ['.claude', 'settings.json'],
  codex: ['.codex', 'hooks.json'],
  gemini: ['.gemini', 'settings.json'],
  cursor: ['.cursor', 'hooks.json'],
} as const;

const EVENTS = {
  claude: ['PreToolUse', 'PermissionRequest'],
  codex: ['PreToolUse', 'PermissionRequest'],
  gemini: ['BeforeTool'],
  cursor: ['preToolUse', 'beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile'],
} as const;

type Agent = keyof typeof FILES;
const AGENTS: Agent[] = ['claude', 'codex', 'gemini', 'cursor'];

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A user's file with a layout no formatter would write, and a hook of their own. */
function usersFile(agent: Agent): string {
  const event = EVENTS[agent][0];
  const own = agent === 'cursor' ? '{"command": "./audit.sh"}' : '{"matcher": "Bash", "hooks": [{"type": "command", "command": "./audit.sh"}]}';
  return `{\r\n\t"name": "caf\\u00e9",   "n": 1.50,\r\n\t"hooks": {\r\n\t\t"${event}": [ ${own} ]\r\n\t}\r\n}\r\n`;
}

describe('verdict hook install', () => {
  for (const agent of AGENTS) {
    it(`${agent}: writes every event's entry in the user's file, by absolute path, with the agent's fail-closed settings`, async () => {
      const r = await verdict('hook', 'install', '--agent', agent, '--policy', 'policy.yaml');
      expect(r.code, r.stderr).toBe(0);
      const file = join(home, ...FILES[agent]);
      const config = JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, unknown[]>; version?: number };
      expect(Object.keys(config.hooks)).toEqual([...EVENTS[agent]]);
      if (agent === 'cursor') expect(config.version).toBe(1);
      for (const event of EVENTS[agent]) {
        const entry = config.hooks[event]![0] as Record<string, unknown>;
        const handler = (agent === 'cursor' ? entry : (entry['hooks'] as Record<string, unknown>[])[0]!) as Record<string, unknown> & { command: string; timeout: number };
        if (agent !== 'cursor') expect(entry['matcher']).toBe('*');
        expect(handler.timeout).toBe(agent === 'gemini' ? 30_000 : 30);
        if (agent === 'cursor') expect(handler['failClosed']).toBe(true);
        if (agent === 'claude') expect(handler['onFailure']).toBe('block');
        if (agent === 'gemini') expect(handler['env']).toMatchObject({ NODE_OPTIONS: '', BASH_ENV: '', ENV: '', LD_PRELOAD: '', LD_LIBRARY_PATH: '', DYLD_INSERT_LIBRARIES: '', SHELLOPTS: '' });
        else expect(handler['env']).toBeUndefined();
        const inner = agent === 'cursor' ? handler.command.replace(/^\/usr\/bin\/env( -u [A-Z0-9_]+)+ /, '') : /o=\$\((.*?)\); s=\$\?/.exec(handler.command)![1]!;
        if (agent === 'cursor') expect(handler.command).toContain('-u NODE_OPTIONS -u NODE_PATH');
        else expect(handler.command.startsWith('unset NODE_OPTIONS NODE_PATH NODE_REPL_EXTERNAL_MODULE BASH_ENV ENV PS4 LD_PRELOAD LD_LIBRARY_PATH ')).toBe(true);
        const words = inner.split(' ');
        expect(isAbsolute(words[0]!)).toBe(true);
        expect(isAbsolute(words[1]!)).toBe(true);
        if (agent === 'codex') {
          // The policy lives in the file Verdict owns, so that the command Codex trusts never changes.
          expect(words.slice(2)).toEqual(['hook', '--agent', agent, '--config', join(home, '.codex', 'verdict-hook.json')]);
          expect(JSON.parse(readFileSync(join(home, '.codex', 'verdict-hook.json'), 'utf8'))).toEqual({ policy: join(project, 'policy.yaml') });
        } else expect(words.slice(2)).toEqual(['hook', '--agent', agent, '--policy', join(project, 'policy.yaml')]);
      }
    });

    it(`${agent}: keeps every other byte; uninstall gives the file back byte for byte`, async () => {
      const file = join(project, ...FILES[agent]);
      const original = usersFile(agent);
      write(file, original);
      expect((await verdict('hook', 'install', '--agent', agent, '--scope', 'project', '--policy', 'policy.yaml')).code).toBe(0);
      const installed = readFileSync(file, 'utf8');
      expect(installed.startsWith('{\r\n\t"name": "caf\\u00e9",   "n": 1.50,\r\n\t"hooks": {\r\n\t\t')).toBe(true);
      const parsed = JSON.parse(installed) as { hooks: Record<string, unknown[]> };
      expect(parsed.hooks[EVENTS[agent][0]]).toHaveLength(2); // the user's own hook stays first
      expect(JSON.stringify(parsed.hooks[EVENTS[agent][0]]![0])).toContain('./audit.sh');
      // installing again changes nothing
      expect((await verdict('hook', 'install', '--agent', agent, '--scope', 'project', '--policy', 'policy.yaml')).stdout).toContain('nothing to change');
      expect((await verdict('hook', 'uninstall', '--agent', agent, '--scope', 'project')).code).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(original);
    });
  }

  it('a one-line file stays on one line', async () => {
    const file = join(home, '.claude', 'settings.json');
    write(file, '{"model":"opus"}');
    await verdict('hook', 'install', '--agent', 'claude', '--policy', 'policy.yaml');
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('{"model":"opus","hooks":{"PreToolUse":[{"matcher":"*"')).toBe(true);
    expect(text).not.toContain('\n');
    await verdict('hook', 'uninstall', '--agent', 'claude');
    expect(readFileSync(file, 'utf8')).toBe('{"model":"opus"}');
  });

  it('--dry-run prints the change as a diff and writes nothing', async () => {
    const file = join(home, '.gemini', 'settings.json');
    write(file, '{\n  "theme": "dark"\n}\n');
    const r = await verdict('hook', 'install', '--agent', 'gemini', '--policy', 'policy.yaml', '--dry-run');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`--- ${file}\n+++ ${file}\n`);
    expect(r.stdout).toContain('-  "theme": "dark"\n+  "theme": "dark",\n+  "hooks": {\n+    "BeforeTool": [\n');
    expect(readFileSync(file, 'utf8')).toBe('{\n  "theme": "dark"\n}\n');
  });

  it('a file that is not JSON is left alone, with a reason', async () => {
    const file = join(home, '.codex', 'hooks.json');
    write(file, '{ "hooks": { // a comment\n} }');
    const r = await verdict('hook', 'install', '--agent', 'codex', '--policy', 'policy.yaml');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`cannot edit \`${file}\`: it is not valid JSON`);
    expect(readFileSync(file, 'utf8')).toBe('{ "hooks": { // a comment\n} }');
  });

  it('uninstall with no file changes nothing and creates nothing', async () => {
    const r = await verdict('hook', 'uninstall', '--agent', 'cursor');
    expect(r.code).toBe(0);
    expect(existsSync(join(home, '.cursor'))).toBe(false);
  });

  it('--log and --binary reach the installed command line, quoted for the shell', async () => {
    await verdict('hook', 'install', '--agent', 'gemini', '--policy', 'policy.yaml', '--log', 'logs/hook log.jsonl', '--binary', '/opt/verdict/bin/verdict');
    const config = JSON.parse(readFileSync(join(home, '.gemini', 'settings.json'), 'utf8')) as { hooks: { BeforeTool: { hooks: { command: string }[] }[] } };
    expect(config.hooks.BeforeTool[0]!.hooks[0]!.command).toContain(`; o=$(/opt/verdict/bin/verdict hook --agent gemini --policy ${join(project, 'policy.yaml')} --log '${join(project, 'logs/hook log.jsonl')}'); s=$?; `);
  });

  it('covers every agent of the catalogue (install, and the uninstall that finds its entries by `hook --agent NAME`)', () => {
    expect(AGENTS).toEqual(HOOK_AGENTS);
  });

  it('uninstall removes the entries of a catalogue agent only: `hook --agent vim` is not ours', async () => {
    const file = join(project, ...FILES.claude);
    const theirs = '{"matcher": "*", "hooks": [{"type": "command", "command": "/opt/verdict hook --agent vim --policy p"}]}';
    const original = `{"hooks": {"PreToolUse": [${theirs}]}}\n`;
    write(file, original);
    expect((await verdict('hook', 'install', '--agent', 'claude', '--scope', 'project', '--policy', 'policy.yaml')).code).toBe(0);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { hooks: { PreToolUse: unknown[] } }).hooks.PreToolUse).toHaveLength(2);
    expect((await verdict('hook', 'uninstall', '--agent', 'claude', '--scope', 'project')).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('a missing --policy or unknown agent is a usage error', async () => {
    expect((await verdict('hook', 'install', '--agent', 'claude')).stderr).toContain('missing `--policy FILE`');
    expect((await verdict('hook', 'install', '--agent', 'vim', '--policy', 'p')).code).toBe(2);
  });
});

describe('the installed command in the agent shell', () => {
  const PAYLOADS: Record<Agent, Record<string, string>> = {
    claude: { PreToolUse: toolPayload('claude', 'PreToolUse', 'Bash', '{"command":"rm -rf /"}'), PermissionRequest: toolPayload('claude', 'PermissionRequest', 'Bash', '{"command":"rm -rf /"}') },
    codex: { PreToolUse: toolPayload('codex', 'PreToolUse', 'Bash', '{"command":"rm -rf /"}'), PermissionRequest: toolPayload('codex', 'PermissionRequest', 'Bash', '{"command":"rm -rf /"}') },
    gemini: { BeforeTool: toolPayload('gemini', 'BeforeTool', 'run_shell_command', '{"command":"rm -rf /"}') },
    cursor: {},
  };
  /** Each installed command of `agent`, run as the agent runs it (Claude Code `sh -c`, Codex and Gemini CLI `bash -c`). */
  function runInstalled(agent: Agent, env: NodeJS.ProcessEnv = {}): { event: string; reading: string; r: { code: number; stdout: string; stderr: string } }[] {
    const config = JSON.parse(readFileSync(join(home, ...FILES[agent]), 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    return Object.entries(config.hooks).map(([event, groups]) => {
      const command = groups[0]!.hooks[0]!.command;
      const p = spawnSync(agent === 'claude' ? 'sh' : 'bash', ['-c', command], { input: PAYLOADS[agent][event], encoding: 'utf8', env: { PATH: process.env['PATH'], HOME: home, ...env } });
      const r = { code: p.status ?? -1, stdout: p.stdout, stderr: p.stderr };
      return { event, reading: readAnswer(agent, event, r), r };
    });
  }
  const crashing = (): string => {
    const bin = join(project, 'crash.sh');
    writeFileSync(bin, '#!/bin/sh\necho "half an answer"\nexit 1\n', { mode: 0o755 });
    return bin;
  };
  const killed = (): string => {
    const bin = join(project, 'killed.sh');
    writeFileSync(bin, '#!/bin/sh\nkill -KILL $$\n', { mode: 0o755 });
    return bin;
  };
  const notExecutable = (): string => {
    const bin = join(project, 'plain.txt');
    writeFileSync(bin, 'not a program\n', { mode: 0o644 });
    return bin;
  };
  for (const agent of ['claude', 'codex', 'gemini'] as const) {
    it(`${agent}: Verdict's own deny passes through; a program that is missing, not executable, crashes or is killed answers the agent's deny`, async () => {
      writeFileSync(join(project, 'policy.yaml'), 'approver: {mode: pattern, default: deny}\n');
      await verdict('hook', 'install', '--agent', agent, '--policy', 'policy.yaml');
      for (const run of runInstalled(agent)) {
        expect(run.reading, JSON.stringify(run.r)).toBe('blocked');
        expect(run.r.stdout + run.r.stderr).not.toContain('did not answer');
      }
      const cases: [string, string, string][] = [
        ['/nonexistent/verdict', 'exit 127', 'missing'],
        [notExecutable(), 'exit 126', 'not executable'],
        [crashing(), 'exit 1', 'crash'],
        [killed(), 'exit 137', 'signal'],
      ];
      for (const [binary, exit, what] of cases) {
        expect((await verdict('hook', 'install', '--agent', agent, '--policy', 'policy.yaml', '--binary', binary)).code).toBe(0);
        for (const run of runInstalled(agent)) {
          expect(run.reading, `${what} ${run.event}: ${JSON.stringify(run.r)}`).toBe('blocked');
          expect(run.r.stdout + run.r.stderr, what).toContain(`the verdict hook did not answer (${exit}), so the call is denied`);
          expect(run.r.stdout, what).not.toContain('half an answer');
        }
      }
    });
  }

  it('the command clears NODE_OPTIONS and BASH_ENV for Verdict: a --require there does not run', async () => {
    const marker = join(project, 'ran');
    writeFileSync(join(project, 'evil.cjs'), `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x');\n`);
    writeFileSync(join(project, 'policy.yaml'), 'approver: {mode: pattern, default: deny}\n');
    await verdict('hook', 'install', '--agent', 'claude', '--policy', 'policy.yaml');
    const runs = runInstalled('claude', { NODE_OPTIONS: `--require ${join(project, 'evil.cjs')}` });
    expect(runs.map((r) => r.reading)).toEqual(['blocked', 'blocked']);
    expect(existsSync(marker)).toBe(false);
  });

  it('Codex: a re-install that changes only the policy or --log keeps hooks.json byte for byte (the trust hash survives)', async () => {
    writeFileSync(join(project, 'other.yaml'), 'approver: {mode: pattern, default: deny}\n');
    await verdict('hook', 'install', '--agent', 'codex', '--policy', 'policy.yaml');
    const hooks = readFileSync(join(home, '.codex', 'hooks.json'), 'utf8');
    const r = await verdict('hook', 'install', '--agent', 'codex', '--policy', 'other.yaml', '--log', 'hook.log');
    expect(r.stdout).toContain('the hook entries in');
    expect(readFileSync(join(home, '.codex', 'hooks.json'), 'utf8')).toBe(hooks);
    expect(JSON.parse(readFileSync(join(home, '.codex', 'verdict-hook.json'), 'utf8'))).toEqual({ policy: join(project, 'other.yaml'), log: join(project, 'hook.log') });
    // Untrusted so far: install says so.
    expect(r.stdout).toContain('open `/hooks` in Codex and trust the verdict hook');
    // Trusted (the hashes Codex stores for these entries): install says the trust is kept.
    const config = JSON.parse(hooks) as { hooks: Record<string, { matcher: string; hooks: { command: string; timeout: number }[] }[]> };
    const state = Object.entries(config.hooks).map(([event, [g]]) => `[hooks.state."${join(home, '.codex', 'hooks.json')}:${codexEventLabel(event)}:0:0"]\ntrusted_hash = "${codexHookHash(event, g!.matcher, g!.hooks[0]!)}"\n`);
    writeFileSync(join(home, '.codex', 'config.toml'), state.join('\n'));
    expect((await verdict('hook', 'install', '--agent', 'codex', '--policy', 'policy.yaml')).stdout).toContain('Codex already trusts this hook');
    // A different program changes the command: /hooks must trust it again.
    const again = await verdict('hook', 'install', '--agent', 'codex', '--policy', 'policy.yaml', '--binary', '/opt/verdict');
    expect(again.stdout).toContain('open `/hooks` in Codex and trust the verdict hook (PreToolUse, PermissionRequest)');
    // Uninstall removes the file Verdict owns too.
    await verdict('hook', 'uninstall', '--agent', 'codex');
    expect(existsSync(join(home, '.codex', 'verdict-hook.json'))).toBe(false);
  });

  it('--scope user writes where the agent reads: CODEX_HOME and GEMINI_CLI_HOME', async () => {
    const codexHome = join(home, 'elsewhere-codex');
    const geminiHome = join(home, 'elsewhere-gemini');
    const io = (env: NodeJS.ProcessEnv) => async (...argv: string[]) => {
      const out: Buffer[] = [];
      const stdout = new PassThrough().on('data', (c: Buffer) => out.push(c));
      const code = await main(argv, { stdin: Readable.from([]), stdout, stderr: new PassThrough(), cwd: project, isTTY: false, env: { HOME: home, ...env } });
      return { code, stdout: Buffer.concat(out).toString() };
    };
    expect((await io({ CODEX_HOME: codexHome })('hook', 'install', '--agent', 'codex', '--policy', 'policy.yaml')).stdout).toContain(join(codexHome, 'hooks.json'));
    expect(existsSync(join(codexHome, 'hooks.json'))).toBe(true);
    expect(existsSync(join(codexHome, 'verdict-hook.json'))).toBe(true);
    expect(existsSync(join(home, '.codex'))).toBe(false);
    await io({ GEMINI_CLI_HOME: geminiHome })('hook', 'install', '--agent', 'gemini', '--policy', 'policy.yaml');
    expect(existsSync(join(geminiHome, '.gemini', 'settings.json'))).toBe(true);
    expect(existsSync(join(home, '.gemini'))).toBe(false);
  });
});

describe('codexHookHash', () => {
  it('is the hash Codex 0.169 reports for a hook (its app-server hooks/list currentHash)', () => {
    // Measured: a hooks.json with this one PreToolUse group, listed by `codex app-server`.
    expect(codexHookHash('PreToolUse', '*', { command: '/usr/bin/verdict hook --agent codex --policy /p.yaml', timeout: 30 })).toBe('sha256:a52e521756b9f8c65af9060a7e83a4478b34a56425cf10eb5033e274afd37183');
  });
});
