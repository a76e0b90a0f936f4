/**
 * `verdict hook` runs once per tool call, so its start-up is paid on every call: it must not load
 * the linter, the DSL's parser library or fast-check. A module-resolution hook in the real process
 * records every module it loads.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { repoRoot } from './harness.ts';
import { toolPayload } from './hook-payloads.ts';

it('the hook path loads neither lint, chevrotain nor fast-check', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-hook-lazy-'));
  try {
    const trace = join(dir, 'trace.txt');
    const hooks = join(dir, 'hooks.mjs');
    writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(${JSON.stringify(trace)}, r.url + '\\n'); return r; }\n`);
    const register = join(dir, 'register.mjs');
    writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const r = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, join(repoRoot, 'packages/cli/bin/verdict.mjs'), 'hook', '--agent', 'claude', '--policy', 'fixtures/policies/claude-code.yaml'], {
      cwd: repoRoot,
      input: toolPayload('claude', 'PreToolUse', 'Read', '{"file_path":"/workspace/a"}'),
      encoding: 'utf8',
    });
    expect([r.status, r.stdout, r.stderr]).toEqual([0, '', '']);
    const loaded = readFileSync(trace, 'utf8');
    expect(loaded).toContain('packages/compiler/');
    // (the compiler's own DSL modules load; the chevrotain library they wrap does not)
    for (const heavy of ['packages/lint/', 'node_modules/.pnpm/chevrotain', 'node_modules/.pnpm/fast-check', 'packages/testing/']) expect(loaded, heavy).not.toContain(heavy);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
