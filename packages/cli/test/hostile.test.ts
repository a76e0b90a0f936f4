/**
 * Hostile files and streams, as a user or an attacker would hand them over: every command runs as a
 * real child process (`node --max-old-space-size=1024 bin/verdict.mjs …`) with a time bound, and
 * must end with its load-failure exit code, a short stderr and no stack trace: never a V8 heap
 * abort, an unhandled `'error'` event, a hang on a FIFO or a read of `/dev/zero` to the end.
 *
 * The hostile files are generated in a temporary folder at test time (some are megabytes). Each
 * shape failed on the commit before these limits: a heap abort (the `]` line, the tags, anchors
 * and quoted scalars, the 6-million-character pattern), an internal error (150,000 DSL errors), a
 * hang (a FIFO), gigabytes read (`/dev/zero`), exit 0 with no word (Latin-1 under `lint`).
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The command as users run it: the CLI bundled as `pnpm build` bundles it, into a folder of this
 * test's own (the release test rebuilds `dist/` while other tests run), started by a copy of
 * `bin/verdict.mjs`. Under `packages/cli/node_modules/` so the bundle finds its npm dependencies.
 */
const BUILD = fileURLToPath(new URL(`../node_modules/.cache/verdict-hostile-${process.pid}/`, import.meta.url));
const BIN = join(BUILD, 'verdict.mjs');

async function buildCli(): Promise<void> {
  mkdirSync(BUILD, { recursive: true });
  // @ts-expect-error: the bundle configuration is plain JavaScript without declarations
  const { default: build } = (await import('../bundle.config.mjs')) as { default: (outDir: string) => Promise<void> };
  await build(BUILD);
  writeFileSync(
    BIN,
    "import module from 'node:module';\nconst require = module.createRequire(import.meta.url);\nconst { main } = require('./cli.cjs');\nprocess.exitCode = await main(process.argv.slice(2));\n",
  );
}
/** The memory ceiling every run is held to: a V8 heap abort past it fails the test. */
const HEAP_MIB = 1024;
/** Per run; a hang (a FIFO opened for reading) would hit it. Generous: CI has 2 shared cores. */
const TIME_MS = 40_000;
/** The most stderr a hostile input may produce: a hundred diagnostics and a summary fit easily. */
const STDERR_MAX = 64 * 1024;
/** Vitest's own bound on a test: the run's, plus its start-up. */
const TEST_MS = TIME_MS + 20_000;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

function run(args: string[], cwd: string, stdin: string | number = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MIB}`, BIN, ...args], {
      cwd,
      stdio: [typeof stdin === 'number' ? stdin : 'pipe', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, TIME_MS);
    child.stdout!.setEncoding('utf8').on('data', (s: string) => {
      if (stdout.length < 1 << 20) stdout += s;
    });
    child.stderr!.setEncoding('utf8').on('data', (s: string) => {
      if (stderr.length < 1 << 20) stderr += s;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
    if (typeof stdin !== 'number') child.stdin?.end(stdin);
  });
}

/** What never reaches a user: a JS or native stack trace, a heap abort, an internal error. */
const CRASH = /FATAL ERROR|JavaScript heap|Unhandled 'error'|Maximum call stack|internal (compiler )?error|\n\s+at .+:\d+:\d+\)?\n|node:internal/;

function expectBounded(r: Run, exit: number): void {
  expect(r.timedOut, 'timed out').toBe(false);
  expect(r.stderr).not.toMatch(CRASH);
  expect(r.stdout).not.toMatch(CRASH);
  expect(r.stderr.length).toBeLessThan(STDERR_MAX);
  expect(r.code).toBe(exit);
}

let dir: string;
const POLICY = 'approver:\n  mode: pattern\n  default: deny\n  allow:\n    - {tool: read, match: ".*"}\n';

beforeAll(async () => {
  await buildCli();
  dir = mkdtempSync(join(tmpdir(), 'verdict-hostile-'));
  const w = (name: string, data: string | Buffer): void => writeFileSync(join(dir, name), data);
  w('ok.yaml', POLICY);
  // A 4 MB line of `]`: one YAML error per character.
  w('brackets.yaml', ']'.repeat(4_000_000) + '\n');
  // A million repeated tags, anchors, quoted scalars on one line: errors the composer finds in one document.
  w('tags.yaml', '!t '.repeat(1_300_000) + 'x\n');
  w('anchors.yaml', '&a '.repeat(1_300_000) + 'x\n');
  w('quoted.yaml', '"x" '.repeat(1_000_000) + '\n');
  // One pattern of 6 million characters (a heap abort before), one of a million for every command
  // (18 MB of stderr before: the pattern was quoted three times), one just over the limit in a DSL file.
  w('huge-match.yaml', `approver: {mode: pattern, default: deny, deny: [{tool: bash, match: "${'a'.repeat(6_000_000)}"}]}\n`);
  w('long-match.yaml', `approver: {mode: pattern, default: deny, deny: [{tool: bash, match: "${'a'.repeat(1_000_000)}"}]}\n`);
  w('long-match.verdict', `approver pattern default deny {\n  deny bash /${'(?:)'.repeat(20_000)}/\n}\n`);
  // 150,000 DSL syntax errors.
  w('errors.verdict', '@\n'.repeat(150_000));
  // Encodings the reader refuses.
  w('latin1.yaml', Buffer.from('approver: {mode: pattern, default: deny, reason: "caf\xe9"}\n', 'latin1'));
  w('utf16.yaml', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(POLICY, 'utf16le')]));
  mkdirSync(join(dir, 'folder'));
  writeFileSync(join(dir, 'folder', 'latin1.yaml'), Buffer.from('approver: {mode: pattern, default: deny, reason: "caf\xe9"}\n', 'latin1'));
  writeFileSync(join(dir, 'folder', 'verdict.config.yaml'), 'include: ["*.yaml"]\n'); // a folder of policies not named *.policy.yaml
  // A named pipe nobody writes to: opening it for reading would block forever.
  const fifo = spawnSync('mkfifo', [join(dir, 'fifo.yaml')]);
  if (fifo.status !== 0) throw new Error('mkfifo failed');
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  rmSync(BUILD, { recursive: true, force: true });
});

/** Each command as it loads a policy FILE, with the exit code it gives when FILE cannot be used. */
const COMMANDS: readonly { name: string; args: (f: string) => string[]; exit: number; lintLike?: boolean }[] = [
  { name: 'compile', args: (f) => ['compile', f], exit: 2 },
  { name: 'eval', args: (f) => ['eval', '--policy', f], exit: 2 },
  { name: 'explain', args: (f) => ['explain', '--policy', f, '--tool', 'bash', '--input', '{}'], exit: 2 },
  { name: 'check', args: (f) => ['check', f, '--driver', 'claude'], exit: 2 },
  { name: 'test', args: (f) => ['test', f], exit: 2 },
  { name: 'fmt', args: (f) => ['fmt', f], exit: 2 },
  { name: 'fuzz', args: (f) => ['fuzz', '--policy', f, '--runs', '10'], exit: 2 },
  { name: 'diff', args: (f) => ['diff', 'ok.yaml', f], exit: 2 },
  // lint: a file it cannot read is a load failure (2); a file it reads and finds broken is a finding (1).
  { name: 'lint', args: (f) => ['lint', f], exit: 1, lintLike: true },
];

/** Files no command can read: the same refusal, exit 2, from every command (lint included). */
const UNREADABLE: readonly { file: string; code: string }[] = [
  { file: 'fifo.yaml', code: 'load/not-a-file' },
  { file: '/dev/zero', code: 'load/not-a-file' },
  { file: 'latin1.yaml', code: 'load/invalid-utf8' },
  { file: 'utf16.yaml', code: 'load/invalid-utf8' },
];

/** Files that read as text and fail to compile: bounded by the diagnostic cap and the pattern limit. */
const BROKEN: readonly { file: string; code: string; exits?: Readonly<Record<string, number>> }[] = [
  { file: 'brackets.yaml', code: 'load/too-many-diagnostics' },
  { file: 'tags.yaml', code: 'load/too-large' },
  { file: 'anchors.yaml', code: 'load/too-large' },
  { file: 'quoted.yaml', code: 'load/too-large' },
  { file: 'errors.verdict', code: 'load/too-many-diagnostics' },
  // `fmt` does not compile patterns: it formats the file (and prints it). `diff` loads both policies
  // as the reference would (an invalid pattern denies every call) and answers `unknown`, exit 1.
  { file: 'long-match.yaml', code: 'regex/invalid', exits: { fmt: 0, diff: 1 } },
  { file: 'long-match.verdict', code: 'regex/invalid', exits: { fmt: 0, diff: 1 } },
];

describe.concurrent('hostile inputs: every command, bounded time and memory, exit code, short stderr, no stack trace', () => {
  for (const c of COMMANDS) {
    describe(`verdict ${c.name}`, () => {
      it.each(UNREADABLE)('refuses $file with $code', { timeout: TEST_MS }, async ({ file, code }) => {
        const r = await run(c.args(file), dir);
        expectBounded(r, 2);
        expect(r.stderr + r.stdout).toContain(code);
      });
    });
  }
  // The large files cost a second or two each to generate and read: every command shares the one
  // front end (compileFile), so they run under the commands with their own paths to it.
  for (const c of COMMANDS.filter((x) => ['compile', 'eval', 'lint', 'fmt', 'diff'].includes(x.name))) {
    describe(`verdict ${c.name}`, () => {
      it.each(BROKEN)('stops on $file with $code', { timeout: TEST_MS }, async ({ file, code, exits }) => {
        const r = await run(c.args(file), dir);
        const exit = exits?.[c.name] ?? c.exit;
        expectBounded(r, exit);
        if (exit !== 0) expect(r.stderr + r.stdout).toContain(code);
      });
    });
  }
  it('lint names a Latin-1 file in a folder instead of skipping it, and exits 2', async () => {
    const r = await run(['lint', 'folder'], dir);
    expectBounded(r, 2);
    expect(r.stdout).toMatch(/folder\/latin1\.yaml:1:\d+ +error +file is not valid UTF-8: byte 0xe9/);
  });
  it('a pattern over the limit is one short line, quoted shortened, in every message', { timeout: TEST_MS }, async () => {
    const r = await run(['compile', 'huge-match.yaml'], dir);
    expectBounded(r, 2);
    expect(r.stderr).toContain('(6000000 characters)');
    expect(r.stderr).toContain("pattern too long: 6000000 characters, over Verdict's limit of 65536");
    expect(r.stderr.length).toBeLessThan(2000);
  });
});

describe.concurrent('hostile streams: stdout closed early or full', { timeout: TEST_MS }, () => {
  const requests = '{"toolName":"read","input":"{}"}\n'.repeat(200_000);
  it('`verdict eval … | head -1` ends quietly with exit 0', async () => {
    const r = await new Promise<Run>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, 'eval', '--policy', 'ok.yaml'], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
      let stderr = '';
      let first = '';
      child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
      child.stdout!.setEncoding('utf8').on('data', (s: string) => {
        // Read one line, then close the pipe as `head -1` does.
        if (first === '') {
          first = s.split('\n')[0] ?? '';
          child.stdout.destroy();
        }
      });
      child.stdin.on('error', () => {}); // the child may exit before it has read everything
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code, signal, stdout: first, stderr, timedOut: false }));
      child.stdin.end(requests);
    });
    expect(r.stdout).toBe('{"decision":"allow","reason":"","rule":{"list":"allow","index":0,"file":"ok.yaml","line":5,"column":7}}');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
  it.each([
    ['eval', ['eval', '--policy', 'ok.yaml']],
    ['compile', ['compile', 'ok.yaml']],
    ['schema', ['schema']],
  ])('`verdict %s > /dev/full` is one line on stderr and exit 2', async (_name, args) => {
    const full = openSync('/dev/full', 'w');
    try {
      const r = await new Promise<Run>((resolve, reject) => {
        const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, stdio: ['pipe', full, 'pipe'] });
        let stderr = '';
        child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
        child.stdin!.on('error', () => {});
        child.on('error', reject);
        child.on('close', (code, signal) => resolve({ code, signal, stdout: '', stderr, timedOut: false }));
        child.stdin!.end(requests);
      });
      expect(r.stderr).toBe('verdict: cannot write to standard output: no space left on device\n');
      expect(r.code).toBe(2);
    } finally {
      closeSync(full);
    }
  });
});

describe.concurrent('file names as they are', { timeout: TEST_MS }, () => {
  const broken = 'approver: {mode: pattern, default: nope}\n';
  let names: string;
  beforeAll(() => {
    names = join(dir, 'names');
    mkdirSync(names);
    writeFileSync(join(names, 'verdict.config.yaml'), 'include: ["*.yaml"]\n');
    writeFileSync(join(names, 'a\\b.yaml'), broken);
    // A name with the byte 0xff, which is not UTF-8 (Node would read it as U+FFFD).
    writeFileSync(Buffer.concat([Buffer.from(join(names, 'n')), Buffer.from([0xff]), Buffer.from('x.yaml')]), broken);
    writeFileSync(join(names, 'c\x1b[31mred.yaml'), broken);
  });
  it('lint of a folder finds every file, a backslash kept, a byte that is not UTF-8 and a control character escaped', async () => {
    const r = await run(['lint', 'names'], dir);
    expectBounded(r, 1);
    expect(r.stdout).not.toContain('\x1b');
    const files = [...r.stdout.matchAll(/^ *(names\/\S+):1:\d+ +error +unknown default decision/gm)].map((m) => m[1]);
    expect(files.sort()).toEqual(['names/a\\b.yaml', 'names/c\\x1b[31mred.yaml', 'names/n\\xffx.yaml']);
  });
  it('compile prints a control character in a name escaped, and reads the file', async () => {
    const r = await run(['compile', 'names/c\x1b[31mred.yaml'], dir);
    expectBounded(r, 2);
    expect(r.stderr).not.toContain('\x1b');
    expect(r.stderr).toContain('names/c\\x1b[31mred.yaml:1:');
    expect(r.stderr).toContain('[approver/unknown-default]');
  });
  it('compile names a file with a backslash as it is', async () => {
    const r = await run(['compile', 'names/a\\b.yaml'], dir);
    expectBounded(r, 2);
    expect(r.stderr).toMatch(/^names\/a\\b\.yaml:1:\d+: error: unknown default decision/);
  });
});
