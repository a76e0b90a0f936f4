/**
 * Every rule page's examples run, as a user would meet them: each policy is linted with the whole
 * catalogue on (the rules that are off by default too, as `info`). The policy under `## Bad` draws
 * the page's rule on exactly the lines marked `# flagged`, and the policy under `## Good` does not
 * draw it and has no error. A page whose example stopped showing its rule would teach the wrong
 * thing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ruleFileName } from '../src/create-rule.ts';
import { nativeFormatOf } from '@verdict/native';
import { emptyConfig, fixSource, lintNativeSource, lintSource, rules } from '../src/index.ts';

const docsDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'rules');
const MARK = /(#|\/\/)\s*flagged\s*$/;

interface Example {
  lang: string;
  text: string;
  /** For a `native/*` page: the path the example file has (```` ```json .claude/settings.json ````). */
  path?: string;
}

/** The fenced code blocks of one `## Title` section. */
function examples(page: string, title: string): Example[] {
  const start = page.indexOf(`\n## ${title}\n`);
  if (start < 0) return [];
  const rest = page.slice(start + title.length + 5);
  const section = rest.slice(0, rest.search(/\n## |$/));
  return [...section.matchAll(/```(\w+)(?: ([^\n]+))?\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, text: m[3]!, ...(m[2] !== undefined ? { path: m[2] } : {}) }));
}

/** Every rule on, those that are off by default too (as `info`): a page shows its rule at work. */
function everyRuleOn() {
  const config = emptyConfig();
  for (const r of rules) if (r.meta.severity === 'off') config.rules[r.id] = { severity: 'info' };
  return config;
}

const ext: Record<string, string> = { yaml: 'yaml', yml: 'yaml', json: 'json', verdict: 'verdict' };

/** Rules whose Bad example cannot be shown by linting one policy text, and why. */
const NOT_FROM_ONE_FILE: Record<string, string> = {
  'lint/internal-error': 'drawn only when a rule itself crashes',
};

const pages = readdirSync(docsDir)
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((f) => ({ file: f, page: readFileSync(join(docsDir, f), 'utf8'), id: rules.find((r) => `${ruleFileName(r.id)}.md` === f)?.id }));

/** The 1-based lines of an example marked `# flagged`. */
const markedLines = (text: string): number[] => text.split('\n').flatMap((line, i) => (MARK.test(line) ? [i + 1] : []));

describe('rule pages: Bad draws the rule on the marked lines, Good is clean', () => {
  it('finds every page and its rule', () => {
    expect(pages.length).toBe(rules.length);
    for (const p of pages) expect(p.id, p.file).toBeDefined();
  });

  for (const { file, page, id } of pages) {
    if (id === undefined) continue;
    if (id.startsWith('native/')) {
      nativeExamples(file, page, id);
      continue;
    }
    const bad = examples(page, 'Bad').filter((e) => ext[e.lang] !== undefined && e.path === undefined);
    const good = examples(page, 'Good').filter((e) => ext[e.lang] !== undefined && e.path === undefined);
    if (id in NOT_FROM_ONE_FILE) continue;

    it(`${file}: has a policy example under Bad and under Good`, () => {
      expect(bad.length).toBeGreaterThan(0);
      expect(good.length).toBeGreaterThan(0);
    });

    bad.forEach((example, i) =>
      it(`${file}: Bad example ${i + 1} draws \`${id}\` on exactly the lines marked \`# flagged\``, () => {
        const marked = markedLines(example.text);
        expect(marked, 'the example marks no line `# flagged`').not.toEqual([]);
        const result = lintSource(example.text, `bad.${ext[example.lang]}`, { config: everyRuleOn() });
        const lines = result.messages.filter((m) => m.ruleId === id).map((m) => m.span?.start.line);
        const all = result.messages.map((m) => `${m.span?.start.line}: ${m.ruleId}: ${m.message}`).join('\n');
        expect([...new Set(lines)].sort((x, y) => (x ?? 0) - (y ?? 0)), all).toEqual(marked);
      }),
    );

    good.forEach((example, i) =>
      it(`${file}: Good example ${i + 1} is clean of \`${id}\` and of errors`, () => {
        const result = lintSource(example.text, `good.${ext[example.lang]}`, { config: everyRuleOn() });
        const wrong = result.messages.filter((m) => m.ruleId === id || m.severity === 'error');
        expect(wrong.map((m) => `${m.ruleId}: ${m.message}`)).toEqual([]);
        expect(markedLines(example.text), 'a Good example marks no line `# flagged`').toEqual([]);
      }),
    );
  }
});

/**
 * A `native/*` page's examples are agents' own files, each fenced with the path it would have
 * (```` ```toml .gemini/policies/p.toml ````). JSON has no comments: a `// flagged` mark is taken
 * off before the file is read.
 */
function nativeExamples(file: string, page: string, id: string): void {
  const bad = examples(page, 'Bad').filter((e) => e.path !== undefined);
  const good = examples(page, 'Good').filter((e) => e.path !== undefined);
  const lint = (e: Example) => {
    const format = nativeFormatOf(e.path!, { explicit: true });
    if (format === undefined) throw new Error(`${file}: \`${e.path}\` names no native format`);
    return lintNativeSource(e.text.replace(/\s*\/\/\s*flagged\s*$/gm, ''), e.path!, format, { config: everyRuleOn() });
  };
  it(`${file}: has an example file under Bad and under Good`, () => {
    expect(bad.length).toBeGreaterThan(0);
    expect(good.length).toBeGreaterThan(0);
  });
  bad.forEach((example, i) =>
    it(`${file}: Bad example ${i + 1} draws \`${id}\` on exactly the lines marked flagged`, () => {
      const marked = markedLines(example.text);
      expect(marked, 'the example marks no line flagged').not.toEqual([]);
      const result = lint(example);
      const lines = result.messages.filter((m) => m.ruleId === id).map((m) => m.span?.start.line);
      const all = result.messages.map((m) => `${m.span?.start.line}: ${m.ruleId}: ${m.message}`).join('\n');
      expect([...new Set(lines)].sort((x, y) => (x ?? 0) - (y ?? 0)), all).toEqual(marked);
    }),
  );
  good.forEach((example, i) =>
    it(`${file}: Good example ${i + 1} is clean of \`${id}\` and of errors`, () => {
      const result = lint(example);
      expect(result.messages.filter((m) => m.ruleId === id || m.severity === 'error').map((m) => `${m.ruleId}: ${m.message}`)).toEqual([]);
      expect(markedLines(example.text)).toEqual([]);
    }),
  );
}

describe('rule pages: the Fix example is what `verdict lint --fix` makes of it', () => {
  for (const { file, page, id } of pages) {
    if (id === undefined || !page.includes('\n## Fix\n')) continue;
    it(`${file}: the first example under Fix becomes the second`, () => {
      const [before, after, ...rest] = examples(page, 'Fix');
      expect(rest).toEqual([]);
      expect(before?.lang).toBe(after?.lang);
      const fixed = fixSource(before!.text, `fix.${ext[before!.lang]}`, { only: [id] });
      expect(fixed.diagnostics).toEqual([]);
      expect(fixed.output).toBe(after!.text);
    });
  }
});
