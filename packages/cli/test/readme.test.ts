/** The root README's examples are what a new user copies first: they must keep working. */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileSource } from '@verdict/compiler';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './harness.ts';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

function block(fence: string, startsWith: string): string {
  const open = readme.indexOf(`\`\`\`${fence}\n${startsWith}`);
  expect(open).toBeGreaterThanOrEqual(0);
  const from = open + fence.length + 4;
  return readme.slice(from, readme.indexOf('```', from));
}

function withoutSpans(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSpans);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== 'span' && !k.endsWith('Span') && k !== 'file' && k !== 'approverPlacement')
        .map(([k, v]) => [k, withoutSpans(v)]),
    );
  }
  return value;
}

describe('README', () => {
  it('gives the two commands of a new user', () => {
    expect(readme).toContain('npm i -g pnpm@12.4.2 && pnpm install --frozen-lockfile && pnpm build && pnpm verdict eval --policy fixtures/policies/workspace.yaml < fixtures/requests/sample.jsonl');
    expect(readme).toContain('pnpm check');
  });

  it('shows `verdict lint` on an agent\'s own settings file, which reports what the agent never consults', async () => {
    const line = block('sh', 'verdict lint .claude/settings.json').split('\n')[0]!;
    const argv = line.replace(/#.*$/, '').trim().split(/\s+/).slice(1);
    expect(argv).toEqual(['lint', '.claude/settings.json']);
    const dir = mkdtempSync(join(tmpdir(), 'verdict-readme-native-'));
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude/settings.json'), '{ "permissions": { "allow": ["Write(docs/**)", "Bash(sed:*)"] } }\n');
    const run = await runCli(['lint', join(dir, argv[1]!)]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('native/never-consulted');
    expect(run.stdout).toContain("also allows `sed -e '1e id' README.md`");
  });

  it('shows one policy in YAML and in the DSL that compile to the same IR, with passing examples', () => {
    const yaml = compileSource(block('yaml', 'driver'), 'readme.yaml');
    const dsl = compileSource(block('verdict', 'driver'), 'readme.verdict');
    expect(yaml.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(dsl.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(withoutSpans(dsl.ir)).toEqual(withoutSpans(yaml.ir));
    const test = yaml.ir!.tests[0]!;
    expect(yaml.approver!.approve({ toolName: test.tool, input: test.input }).decision).toBe(test.expect);
  });

  it('shows a policy that passes its own `verdict check`, `verdict lint` and `verdict test`', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verdict-readme-'));
    const yaml = join(dir, 'policy.yaml');
    const dsl = join(dir, 'policy.verdict');
    writeFileSync(yaml, block('yaml', 'driver'));
    writeFileSync(dsl, block('verdict', 'driver'));
    for (const file of [yaml, dsl]) {
      const check = await runCli(['check', file]);
      expect(check.code, check.stdout + check.stderr).toBe(0);
      expect(check.stdout).toMatch(/valid for codex/);
      const lint = await runCli(['lint', file]);
      expect(lint.code, lint.stdout + lint.stderr).toBe(0);
      expect((await runCli(['test', file])).code).toBe(0);
    }
  });
});
