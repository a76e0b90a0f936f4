/**
 * `verdict hook` runs once per tool call, so its start-up is paid on every call: it must not load
 * the linter, the DSL's parser library or fast-check. The built command runs as a real process with a
 * preload that records every module file it loads (the bundle's chunks are CommonJS).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from './harness.ts';
import { toolPayload } from './hook-payloads.ts';

it('the hook path loads neither lint, chevrotain nor fast-check', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-hook-lazy-'));
  try {
    const trace = join(dir, 'trace.txt');
    const preload = join(dir, 'trace.cjs');
    writeFileSync(
      preload,
      `const Module = require('node:module');\nconst fs = require('node:fs');\nconst load = Module._load;\n` +
        `Module._load = function (request, parent, isMain) {\n  let file = request;\n  try { file = Module._resolveFilename(request, parent, isMain); } catch {}\n` +
        `  fs.appendFileSync(${JSON.stringify(trace)}, file + '\\n');\n  return load.apply(this, arguments);\n};\n`,
    );
    const r = spawnSync(process.execPath, ['--require', preload, join(repoRoot, 'packages/cli/bin/verdict.mjs'), 'hook', '--agent', 'claude', '--policy', 'fixtures/policies/claude-code.yaml'], {
      cwd: repoRoot,
      input: toolPayload('claude', 'PreToolUse', 'Read', '{"file_path":"/workspace/a"}'),
      encoding: 'utf8',
      env: { ...process.env, VERDICT_NO_CODE_CACHE: '1' },
    });
    expect([r.status, r.stdout, r.stderr]).toEqual([0, '', '']);
    const loaded = readFileSync(trace, 'utf8').split('\n').filter((f) => f.startsWith('/'));
    expect(loaded.some((f) => /dist\/chunks\/hook-[^/]*\.cjs$/.test(f))).toBe(true);
    for (const heavy of [/node_modules\/.*\/(chevrotain|fast-check|just-bash)\//, /dist\/chunks\/(lint|fuzz|properties|test)-[^/]*\.cjs$/]) {
      expect(loaded.filter((f) => heavy.test(f))).toEqual([]);
    }
    // The lint catalogue is in no chunk the hook loads (a rule id is a marker of it).
    for (const file of loaded.filter((f) => f.endsWith('.cjs'))) expect(readFileSync(file, 'utf8'), file).not.toContain('rules/shell-injection');
    // Nor the shell parser, for a policy without command rules (a sentence of @verdict/shell's judge is a marker of it).
    for (const file of loaded.filter((f) => f.endsWith('.cjs'))) expect(readFileSync(file, 'utf8'), file).not.toContain('the command cannot be judged');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
