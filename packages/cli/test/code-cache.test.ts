import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/verdict.mjs', import.meta.url));

describe('the V8 code cache (bin/code-cache.cjs)', () => {
  it('is never kept in a folder the environment names ($HOME, $XDG_CACHE_HOME: an agent can set them for the hook)', () => {
    const home = mkdtempSync(join(tmpdir(), 'verdict-cc-home-'));
    const xdg = mkdtempSync(join(tmpdir(), 'verdict-cc-xdg-'));
    try {
      for (let i = 0; i < 2; i++) {
        const r = spawnSync(process.execPath, [BIN, '--version'], { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, XDG_CACHE_HOME: xdg }, encoding: 'utf8' });
        expect(r.status, r.stderr).toBe(0);
      }
      expect(readdirSync(home)).toEqual([]);
      expect(readdirSync(xdg)).toEqual([]);
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(xdg, { recursive: true, force: true });
    }
  });
});
