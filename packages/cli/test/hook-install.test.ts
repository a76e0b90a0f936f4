/**
 * `verdict hook install` / `uninstall` in a temporary HOME and project folder: the entry each agent
 * needs (absolute paths, every tool, a timeout, Cursor's failClosed), every other byte of the file
 * kept (install then uninstall gives the file back byte for byte), `--dry-run` as a diff.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandIo } from '../src/args.ts';
import { main } from '../src/cli.ts';

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
    it(`${agent}: writes every event's entry in the user's file, by absolute path`, async () => {
      const r = await verdict('hook', 'install', '--agent', agent, '--policy', 'policy.yaml');
      expect(r.code, r.stderr).toBe(0);
      const file = join(home, ...FILES[agent]);
      const config = JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, unknown[]>; version?: number };
      expect(Object.keys(config.hooks)).toEqual([...EVENTS[agent]]);
      if (agent === 'cursor') expect(config.version).toBe(1);
      for (const event of EVENTS[agent]) {
        const entry = config.hooks[event]![0] as Record<string, unknown>;
        const handler = (agent === 'cursor' ? entry : (entry['hooks'] as Record<string, unknown>[])[0]!) as { command: string; timeout: number; failClosed?: boolean };
        if (agent !== 'cursor') expect(entry['matcher']).toBe('*');
        expect(handler.timeout).toBe(agent === 'gemini' ? 30_000 : 30);
        if (agent === 'cursor') expect(handler.failClosed).toBe(true);
        const words = handler.command.split(' ');
        expect(isAbsolute(words[0]!)).toBe(true);
        expect(isAbsolute(words[1]!)).toBe(true);
        expect(words.slice(2)).toEqual(['hook', '--agent', agent, '--policy', join(project, 'policy.yaml')]);
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
    await verdict('hook', 'install', '--agent', 'codex', '--policy', 'policy.yaml', '--log', 'logs/hook log.jsonl', '--binary', '/opt/verdict/bin/verdict');
    const config = JSON.parse(readFileSync(join(home, '.codex', 'hooks.json'), 'utf8')) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } };
    expect(config.hooks.PreToolUse[0]!.hooks[0]!.command).toBe(`/opt/verdict/bin/verdict hook --agent codex --policy ${join(project, 'policy.yaml')} --log '${join(project, 'logs/hook log.jsonl')}'`);
  });

  it('a missing --policy or unknown agent is a usage error', async () => {
    expect((await verdict('hook', 'install', '--agent', 'claude')).stderr).toContain('missing `--policy FILE`');
    expect((await verdict('hook', 'install', '--agent', 'vim', '--policy', 'p')).code).toBe(2);
  });
});
