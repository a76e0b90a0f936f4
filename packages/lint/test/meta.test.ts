/**
 * The catalogue, the rule files, their table tests and their docs pages must agree: a rule without
 * a test or a page, a page without a rule, or an id that does not match its file name fails here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ruleFileName } from '../src/create-rule.ts';
import { allRules } from '../src/rules/index.ts';
import { CATEGORIES } from '../src/types.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rulesDir = join(root, 'src', 'rules');
const docsDir = join(root, 'docs', 'rules');

const ruleFiles = readdirSync(rulesDir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'index.ts');
const docFiles = readdirSync(docsDir).filter((f) => f.endsWith('.md'));

/**
 * A message opens with a lowercase word, user text in backticks, a `{{placeholder}}`, or an acronym
 * (`RE2`, `JSON`): never a capitalised word.
 */
function opensLowercase(text: string): boolean {
  const first = text.split(/\s/)[0] ?? '';
  return /^[a-z`]/.test(first) || first.startsWith('{{') || /^[A-Z][A-Z0-9]+[,:;]?$/.test(first);
}

describe('house style of messages', () => {
  it('tells a lowercase opening from a capitalised one', () => {
    for (const ok of ['the rule never matches', '`x` is shadowed', '{{what}} crashed', 'RE2 has no lookbehind', 'JSON: no']) {
      expect(opensLowercase(ok), ok).toBe(true);
    }
    for (const bad of ['The rule never matches', 'Regex `x` is invalid', 'A', 'Re2 has no lookbehind', '']) {
      expect(opensLowercase(bad), bad).toBe(false);
    }
  });
});

describe('rule catalogue', () => {
  it('has unique ids whose prefix is the rule category', () => {
    const ids = allRules.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of allRules) {
      expect(r.id, r.id).toMatch(/^[a-z0-9]+\/[a-z0-9-]+$/);
      expect(CATEGORIES, r.id).toContain(r.meta.category);
      expect(r.id.split('/')[0], r.id).toBe(r.meta.category);
    }
  });

  it('lists every rule file, and every rule file exports the rule named after it', async () => {
    const catalogued = new Set(allRules.map((r) => `${ruleFileName(r.id)}.ts`));
    expect([...ruleFiles].sort()).toEqual([...catalogued].sort());
    for (const f of ruleFiles) {
      const mod = (await import(join(rulesDir, f))) as { default?: { id?: string } };
      expect(mod.default?.id !== undefined ? `${ruleFileName(mod.default.id)}.ts` : undefined, f).toBe(f);
    }
  });

  it('has a docs page for every rule and a rule for every docs page', () => {
    expect([...docFiles].sort()).toEqual(allRules.map((r) => `${ruleFileName(r.id)}.md`).sort());
  });

  for (const r of allRules) {
    const base = ruleFileName(r.id);
    describe(r.id, () => {
      it('has a table test beside it that imports it', () => {
        const testFile = join(rulesDir, `${base}.test.ts`);
        expect(existsSync(testFile), `${base}.test.ts`).toBe(true);
        expect(readFileSync(testFile, 'utf8')).toContain(`from './${base}.ts'`);
      });

      it('has a docs page with every section, its severity and its options', () => {
        const page = readFileSync(join(docsDir, `${base}.md`), 'utf8');
        expect(page.startsWith(`# \`${r.id}\`\n`)).toBe(true);
        for (const section of ['## What it flags', '## Why', '## Bad', '## Good', '## Options']) expect(page).toContain(section);
        expect(page).toContain(`default severity: \`${r.meta.severity}\``);
        for (const option of Object.keys(r.meta.options ?? {})) expect(page).toContain(`\`${option}\``);
      });

      it('says on its page whether `verdict lint --fix` rewrites its findings, and its tests show the fix', () => {
        const page = readFileSync(join(docsDir, `${base}.md`), 'utf8');
        expect(page.includes('\n## Fix\n'), `${base}.md has a "## Fix" section exactly when the rule is fixable`).toBe(r.meta.fixable !== undefined);
        if (r.meta.fixable !== undefined) expect(readFileSync(join(rulesDir, `${base}.test.ts`), 'utf8')).toMatch(/output: (?!null)/);
      });

      it('writes messages in the house style and tests every message id', () => {
        const testText = readFileSync(join(rulesDir, `${base}.test.ts`), 'utf8');
        const ids = Object.keys(r.meta.messages);
        expect(ids.length).toBeGreaterThan(0);
        for (const [id, text] of Object.entries(r.meta.messages) as [string, string][]) {
          expect(text, id).not.toMatch(/\.\s*$/);
          expect(opensLowercase(text), `message \`${id}\` must start lowercase: ${text}`).toBe(true);
          const stem = text.split('{{')[0] ?? '';
          const tested = testText.includes(`'${id}'`) || (stem.length >= 10 && testText.includes(stem));
          expect(tested, `message id \`${id}\` is not exercised by ${base}.test.ts`).toBe(true);
        }
        for (const id of Object.keys(r.meta.help ?? {})) expect(ids, `help for unknown message ${id}`).toContain(id);
      });
    });
  }
});
