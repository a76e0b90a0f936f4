/**
 * The packages as a user gets them: built, packed (scripts/release.mjs), installed with npm from
 * the tarballs into a project outside the workspace (no workspace links: nothing resolves to this
 * checkout), then used the three ways the project is for: as a library from plain Node (ESM and
 * CommonJS) and TypeScript (nodenext and bundler, strict), as a property-test library under
 * vitest, and as the `verdict` command. It also runs publint and arethetypeswrong on every
 * tarball. It builds first, so `pnpm check` on a clean clone needs nothing else.
 *
 * The fixtures are release/consumer/ (copied into the project); `library.ts` there is the snippet
 * of the README's "Using the engine as a library" section, compiled and run here.
 *
 * npm's cache (~/.npm) keeps the registry downloads (vitest, fast-check, chevrotain) of later
 * runs offline (`--prefer-offline`).
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script, no declarations
import { manifestProblems, packAll, packages, ROOT, tarballProblems } from '../scripts/release.mjs';

interface Packed {
  name: string;
  version: string;
  tarball: string;
}

const VITEST = '4.1.12'; // the workspace's own pin (Node 20)

function run(cmd: string, args: string[], options: SpawnSyncOptions & { input?: string } = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, timeout: 300_000, ...options });
  if (r.error) throw r.error;
  return { status: r.status, stdout: String(r.stdout), stderr: String(r.stderr) };
}

function ok(r: { status: number | null; stdout: string; stderr: string }, what: string) {
  if (r.status !== 0) throw new Error(`${what} exited ${r.status}\n${r.stdout}\n${r.stderr}`);
  return r;
}

function npmInstall(cwd: string, specs: string[]) {
  ok(run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...specs], { cwd }), `npm install in ${cwd}`);
}

let work: string;
let project: string;
let packed: Packed[];

beforeAll(() => {
  ok(run('pnpm', ['build'], { cwd: ROOT }), 'pnpm build');
  work = mkdtempSync(join(tmpdir(), 'verdict-consumer-'));
  packed = packAll(join(work, 'packs'));
  project = join(work, 'project');
  cpSync(join(ROOT, 'release', 'consumer'), project, { recursive: true });
  npmInstall(project, [...packed.map((p) => p.tarball), `vitest@${VITEST}`]);
}, 900_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const bin = () => join(project, 'node_modules', '.bin', 'verdict');
const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');

describe('installed from the tarballs', () => {
  it('resolves every @verdict package inside the project, not the workspace', () => {
    for (const p of packed) {
      const r = ok(run(process.execPath, ['-p', `require.resolve(${JSON.stringify(`${p.name}/package.json`)})`], { cwd: project }), 'resolve');
      expect(r.stdout.trim()).toBe(join(project, 'node_modules', ...p.name.split('/'), 'package.json'));
    }
  });

  it('imports the engine from a plain .mjs and decides a call', () => {
    const r = ok(run(process.execPath, ['decide.mjs'], { cwd: project }), 'node decide.mjs');
    expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'deny', reason: 'no' });
    expect(r.stderr).toBe('');
  });

  it('judges a compound shell command with @verdict/shell (just-bash installed from the registry)', () => {
    const r = ok(run(process.execPath, ['shell.mjs'], { cwd: project }), 'node shell.mjs');
    expect(r.stdout).toBe('allow every command (3) matches an allow rule\ndeny `rm -rf /` matches deny rule 1 [rm]\n');
    expect(r.stderr).toBe('');
  });

  it('reads an agent\'s own permission files with @verdict/native (smol-toml installed from the registry)', () => {
    const r = ok(run(process.execPath, ['native.mjs'], { cwd: project }), 'node native.mjs');
    expect(r.stdout).toBe('allow git -C at 1:23\nallow ["go","test"] at 3:17\n');
    expect(r.stderr).toBe('');
  });

  it('requires the engine and the compiler from CommonJS', () => {
    const r = ok(run(process.execPath, ['require.cjs'], { cwd: project }), 'node require.cjs');
    const [first, second] = r.stdout.trim().split('\n');
    expect(JSON.parse(first!)).toMatchObject({ decision: 'allow' });
    expect(second).toBe('deny');
    expect(r.stderr).toBe('');
  });

  it.each(['nodenext', 'bundler'])('type-checks a strict TypeScript consumer under moduleResolution %s', (mode) => {
    ok(run(tsc, ['-p', `tsconfig.${mode}.json`], { cwd: project }), `tsc (${mode})`);
  });

  it("compiles and runs the README's library snippet", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const snippet = readFileSync(join(ROOT, 'release', 'consumer', 'library.ts'), 'utf8');
    expect(readme).toContain(`\`\`\`ts\n${snippet}\`\`\``);
    ok(run(tsc, ['-p', 'tsconfig.nodenext.json', '--noEmit', 'false', '--outDir', 'out'], { cwd: project }), 'tsc emit');
    const r = ok(run(process.execPath, ['out/library.js'], { cwd: project }), 'node out/library.js');
    expect(r.stdout).toBe('deny\nallow\n');
  });

  it('resolves the published JSON Schemas through @verdict/compiler/schemas/NAME.schema.json and validates with them offline', () => {
    const r = ok(run(process.execPath, ['schemas.mjs'], { cwd: project }), 'node schemas.mjs');
    const out = JSON.parse(r.stdout) as { paths: string[]; policy: boolean; typo: boolean };
    const installed = join(project, 'node_modules', '@verdict', 'compiler', 'dist', 'schemas');
    expect(out.paths).toEqual(['approver', 'descriptor', 'policy', 'policy-file', 'tests'].map((n) => join(installed, `${n}.schema.json`)));
    expect(out).toMatchObject({ policy: true, typo: false });
  });

  it('runs a vitest property test that uses @verdict/testing', () => {
    const r = ok(run(join(project, 'node_modules', '.bin', 'vitest'), ['run', 'rules.test.ts'], { cwd: project, env: { ...process.env, CI: 'true', NO_COLOR: '1' } }), 'vitest run');
    expect(r.stdout.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/Tests\s+3 passed \(3\)/);
  });

  it('runs `verdict eval` from the installed bin', () => {
    const call = `${JSON.stringify({ toolName: 'bash', input: '{"command":"rm -rf /"}' })}\n${JSON.stringify({ toolName: 'read', input: '{}' })}\n`;
    const r = ok(run(bin(), ['eval', '--policy', 'policy.yaml'], { cwd: project, input: call }), 'verdict eval');
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { decision: string; reason: string });
    expect(lines.map((l) => l.decision)).toEqual(['deny', 'allow']);
    expect(lines[0]!.reason).toBe("denied by the consumer test's policy");
  });

  it('decides the same with a cold, a warm and a corrupted code cache (Node < 22.1)', () => {
    // The cache is the account's own (~/.cache/verdict, from os.userInfo()), never the folder
    // $XDG_CACHE_HOME or $HOME name: an agent can set those for the hook.
    const xdg = join(work, 'xdg-cache');
    const env = { ...process.env, XDG_CACHE_HOME: xdg };
    const call = `${JSON.stringify({ toolName: 'bash', input: '{"command":"rm -rf /"}' })}\n`;
    const evalOnce = () => ok(run(bin(), ['eval', '--policy', 'policy.yaml'], { cwd: project, input: call, env }), 'verdict eval');
    const cold = evalOnce();
    const warm = evalOnce();
    expect(warm).toEqual(cold);
    if (process.version.startsWith('v20.') || process.version.startsWith('v21.') || process.version === 'v22.0.0') {
      expect(existsSync(xdg)).toBe(false);
      const dir = join(userInfo().homedir, '.cache', 'verdict', `v8-${process.version}-${process.arch}`);
      const files = readdirSync(dir);
      expect(files.length).toBeGreaterThan(2); // the entry, and the chunks eval loaded
      for (const f of files) writeFileSync(join(dir, f), 'not a code cache');
      expect(evalOnce()).toEqual(cold);
    }
  });

  it('runs `verdict lint -f sarif` (YAML and the DSL) and `verdict test` from the installed bin', () => {
    const lint = ok(run(bin(), ['lint', '-f', 'sarif', 'policy.yaml', 'policy.verdict'], { cwd: project }), 'verdict lint');
    const sarif = JSON.parse(lint.stdout) as { runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] };
    const found = sarif.runs[0]!.results.map((r) => `${r.locations[0]!.physicalLocation.artifactLocation.uri} ${r.ruleId}`);
    expect(found.sort()).toEqual([
      'policy.verdict rules/escape-evasion',
      'policy.verdict rules/prefer-command-rule',
      'policy.yaml rules/escape-evasion',
      'policy.yaml rules/prefer-command-rule',
    ]);
    const test = ok(run(bin(), ['test', 'policy.yaml', 'policy.verdict'], { cwd: project }), 'verdict test');
    expect(test.stdout).toContain('3 passed, 0 failed');
  });

  it('installs @verdict/cli from its tarball alone, with only its own dependencies', () => {
    const alone = join(work, 'cli-alone');
    cpSync(join(ROOT, 'release', 'consumer', 'package.json'), join(alone, 'package.json'));
    writeFileSync(join(alone, 'policy.yaml'), readFileSync(join(project, 'policy.yaml')));
    npmInstall(alone, [packed.find((p) => p.name === '@verdict/cli')!.tarball]);
    const verdict = join(alone, 'node_modules', '.bin', 'verdict');
    expect(ok(run(verdict, ['--version'], { cwd: alone }), 'verdict --version').stdout).toBe(`verdict ${packed[0]!.version}\n`);
    const r = ok(run(verdict, ['eval', '--policy', 'policy.yaml'], { cwd: alone, input: '{"toolName":"read","input":"{}"}\n' }), 'verdict eval');
    expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'allow' });
  });
});

describe('the tarballs', () => {
  it('pass publint and arethetypeswrong, hold no test file, and export only dist/', async () => {
    const problems: string[] = [];
    for (const p of packed) problems.push(...((await tarballProblems(p)) as string[]));
    expect(problems).toEqual([]);
  }, 300_000);

  it('are refused when exports point back at src/', () => {
    const [{ pkg }] = packages() as { pkg: Record<string, unknown> }[];
    const pointedAtSrc = { ...pkg, exports: { '.': { types: './src/index.ts', default: './src/index.ts' } } };
    expect(manifestProblems(pointedAtSrc)).toEqual([
      'exports . → types points at `./src/index.ts`, outside dist/: Node cannot run TypeScript from node_modules',
      'exports . → default points at `./src/index.ts`, outside dist/: Node cannot run TypeScript from node_modules',
    ]);
  });
});
