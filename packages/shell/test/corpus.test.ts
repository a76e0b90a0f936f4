/**
 * The public corpora in fixtures/shell/: bypass shapes (none may be allowed under a read-only
 * policy) and benign agent commands (at least 95 % allowed under the starter rules; the misses are
 * listed in packages/shell/README.md, and this test checks that list is exactly the misses).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileCommandRules, judge } from '../src/index.ts';
import { benign, bypasses, rules } from './corpora.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');

const CATEGORIES = [
  'chaining', 'substitution', 'wrappers', 'quoting', 'env-prefix', 'absolute-path', 'cd-prefix', 'brace', 'process-substitution',
  'heredoc', 'xargs', 'find-exec', 'interpreter', 'alias', 'line-continuation', 'unicode', 'redirect', 'eval', 'dynamic',
];

describe('the bypass corpus', () => {
  const readOnly = rules('read-only.json');

  it('has at least 300 shapes, in the categories the README lists, none twice', () => {
    expect(bypasses.length).toBeGreaterThanOrEqual(300);
    expect(new Set(bypasses.map((b) => b.category))).toEqual(new Set(CATEGORIES));
    expect(new Set(bypasses.map((b) => b.command)).size).toBe(bypasses.length);
  });

  it('allows none of them under the read-only policy', () => {
    const allowed = bypasses.filter((b) => judge(readOnly, b.command).decision === 'allow').map((b) => b.command);
    expect(allowed).toEqual([]);
  });

  it('denies every one that runs `rm` under a policy that only denies `rm` (unknown: deny)', () => {
    const denyRm = compileCommandRules({ deny: [{ command: ['rm'] }] });
    if (!denyRm.ok) throw new Error('rules');
    // Shapes that run rm as a program (not `python … shutil.rmtree`, not an argument of `ssh` or an interpreter's code).
    const runsRm = bypasses.filter((b) => /(^|[\s;&|(`{'"\\]|\$\(|\/)r[\\'"]*\n?['"]*m\b/.test(b.command) && !['interpreter', 'unicode'].includes(b.category));
    expect(runsRm.length).toBeGreaterThan(150);
    const missed = runsRm.filter((b) => judge(denyRm.rules, b.command).decision !== 'deny').map((b) => b.command);
    expect(missed).toEqual([]);
  });

  it('the read-only policy still allows what it is for', () => {
    for (const c of ['ls -la', 'git status && git diff --stat | head -20', 'find . -name "*.ts" | sort | uniq -c', 'grep -rn foo src | wc -l', 'git log --oneline -5']) {
      expect(judge(readOnly, c).decision, c).toBe('allow');
    }
  });
});

describe('the benign corpus', () => {
  const starter = rules('starter.json');
  const misses = benign.filter((b) => judge(starter, b.command).decision !== 'allow').map((b) => b.command);

  it('has at least 200 commands, none twice', () => {
    expect(benign.length).toBeGreaterThanOrEqual(200);
    expect(new Set(benign.map((b) => b.command)).size).toBe(benign.length);
  });

  it('allows at least 95 % under the starter rules', () => {
    expect(misses.length / benign.length).toBeLessThanOrEqual(0.05);
  });

  it('lists exactly the misses in packages/shell/README.md', () => {
    const readme = readFileSync(join(ROOT, 'packages', 'shell', 'README.md'), 'utf8');
    const section = readme.split('<!-- benign-misses -->')[1] ?? '';
    const listed = [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!.replace(/⏎/g, '\n').replace(/\\\|/g, '|'));
    expect(listed).toEqual(misses);
  });
});
