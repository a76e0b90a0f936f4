/** fixtures/README.md describes every fixture folder, and only folders that exist. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './harness.ts';

const fixtures = join(repoRoot, 'fixtures');
const page = readFileSync(join(fixtures, 'README.md'), 'utf8');
/** The folders the page's table names (`cli/<run>/` stands for every golden run, `native/<case>/` for every native case). */
const described = [...page.matchAll(/^\| `([^`]+)\/` \|/gm)].map((m) => m[1] ?? '');

function folders(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, rel)).sort()) {
    const r = rel === '' ? name : `${rel}/${name}`;
    if (!statSync(join(dir, r)).isDirectory()) continue;
    out.push(r);
    // A golden run's folder may hold a repository of its own, and a native case an agent's folders: the run or case describes them.
    if (!r.startsWith('cli/') && !r.startsWith('native/')) out.push(...folders(dir, r));
  }
  return out;
}

describe('fixtures/README.md', () => {
  const onDisk = folders(fixtures).map((f) => (f.startsWith('cli/') ? 'cli/<run>' : f.startsWith('native/') ? 'native/<case>' : f));
  it('describes every fixture folder', () => {
    for (const f of new Set(onDisk)) expect(described, `fixtures/${f}/ is not described in fixtures/README.md`).toContain(f);
  });
  it('describes no folder that does not exist', () => {
    for (const f of described) expect(onDisk, `fixtures/README.md describes fixtures/${f}/, which does not exist`).toContain(f);
  });
});
