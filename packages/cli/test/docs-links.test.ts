/**
 * The project's documents travel with it (a clone, a tarball): a link in any Markdown file must resolve to a
 * file of the repository, never to a place outside it that a reader does not have.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './harness.ts';

const documents = execFileSync('git', ['ls-files', '-z', '--', '*.md'], { cwd: repoRoot, encoding: 'utf8' })
  .split('\0')
  .filter((f) => f !== '');

/** Targets of Markdown links `[text](target)`, without the `#fragment`; web addresses are left out. */
function localLinks(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1]!.split('#')[0]!;
    if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    out.push(target);
  }
  return out;
}

describe('documents', () => {
  it('are found', () => {
    expect(documents).toContain('README.md');
    expect(documents).toContain('docs/semantics.md');
  });

  it.each(documents)('%s names nothing outside the repository', (file) => {
    const text = readFileSync(join(repoRoot, file), 'utf8');
    expect(text).not.toMatch(/\.\.\/shared\b|\/work\/shared/);
    for (const target of localLinks(text)) {
      const path = resolve(repoRoot, dirname(file), decodeURIComponent(target));
      expect(relative(repoRoot, path).startsWith('..'), `${file}: link \`${target}\` leaves the repository`).toBe(false);
      expect(existsSync(path), `${file}: link \`${target}\` points at a missing file`).toBe(true);
    }
  });
});
