/**
 * Issue 17 ("a CLI that never loses a byte and behaves like the tools CI already runs"), done when
 * each item has a golden CLI test: fixtures/cli/<name>/, run by golden.test.ts. Which goldens cover
 * which item (the test below checks that every one named here exists):
 *
 *  1. fmt never loses anything: fmt-agent-config (comments and foreign keys kept), fmt-check,
 *     fmt-check-yaml (`--check`), fmt-to-verdict-lossy, fmt-to-yaml-lossy (refused without --force)
 *  2. folders are not sniffed: lint-debug-skipped (a YAML file that is not a policy is skipped, and
 *     --debug says why), lint-no-files
 *  3. configuration found upward, --config, --no-config-lookup: lint-config-nearest, lint-config-flag,
 *     lint-no-config-lookup, lint-stdin-filename-config
 *  4. `-` reads standard input: lint-stdin, lint-stdin-filename-config, lint-stdin-filename-syntax,
 *     lint-stdin-filename-alone, lint-stdin-not-utf8, compile-stdin, compile-stdin-dsl, fmt-stdin,
 *     fmt-stdin-check, fmt-stdin-write, check-stdin, test-stdin, explain-stdin-policy,
 *     explain-stdin-twice, diff-stdin, diff-stdin-twice, fuzz-stdin, eval-policy-stdin, hook-policy-stdin
 *     (bounds: stdin.test.ts)
 *  5. globs, --ignore-pattern, .gitignore, one walker: lint-glob, test-glob, the *-glob-no-match runs,
 *     lint-glob-invalid, lint-ignore-pattern(-invalid), test-ignore-pattern, lint-gitignore
 *  6. --max-warnings says why, also under --quiet, -1 is no limit: lint-max-warnings,
 *     lint-max-warnings-quiet, lint-max-warnings-unlimited
 *  7. colour: lint-color-tty, lint-color-tty-no-color-env, lint-color-tty-dumb,
 *     lint-color-force-color-env, lint-color-force-color-0, lint-color-flag, lint-color-no-color-flag,
 *     lint-color-last-wins (the decision against Node's own: color.test.ts)
 *  8. -o makes missing folders, on every command that writes a report: lint-output-missing-folder,
 *     test-junit-output (the report files are compared too)
 *  9. did-you-mean: unknown-command-near, unknown-option-near
 * 10. --fix: lint-fix-dry-run, lint-fix-json, lint-fix-sarif, lint-fix-two-pass, lint-fix-stylish (the
 *     files it writes: lint-fix.test.ts)
 * 11. -v is --version: version, version-short
 * 12. exit codes and configuration that cannot mislead CI: lint-no-files (nothing to lint is exit 2),
 *     lint-config-cannot-lower-compiler-errors (neither a configuration nor a suppression turns off
 *     a compiler error), lint-config-duplicate-keys, compile-bad-driver, lint-output-unwritable
 *     (one line, exit 2), fuzz-negative-runs; invalid and linear globs: the `globs` branch
 * 13. fmt --to verdict escapes control characters; long number literals: fmt-to-verdict-controls,
 *     fmt-long-number, test-long-number
 * 14. JSON Schemas: schema-list, schema-policy (the published set; `exports` and offline `$ref`s:
 *     release/consumer.test.ts, scripts/release.mjs, src/commands/schema-out.test.ts)
 * 15. the normative semantics in the repository: no command of its own; check-c4.test.ts and the
 *     check-* goldens run its acceptance tables, docs-links.test.ts keeps every link inside
 * 16. every documented example runs: no command of its own; readme.test.ts (the README's examples
 *     through the CLI), packages/lint/test/docs-examples.test.ts (rule pages),
 *     packages/compiler/test/dsl/docs.test.ts (DSL.md)
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './harness.ts';

/** The goldens of each item, as listed above; an item with none names its tests or its branch. */
const ITEMS: Record<number, { goldens: string[]; tests?: string[] }> = {
  1: { goldens: ['fmt-agent-config', 'fmt-check', 'fmt-check-yaml', 'fmt-to-verdict-lossy', 'fmt-to-yaml-lossy', 'fmt-check-folder', 'fmt-check-glob', 'fmt-check-glob-clean', 'fmt-several-needs-check'] },
  2: { goldens: ['lint-debug-skipped', 'lint-no-files'] },
  3: { goldens: ['lint-config-nearest', 'lint-config-flag', 'lint-no-config-lookup', 'lint-stdin-filename-config'] },
  4: {
    goldens: [
      'lint-stdin',
      'lint-stdin-filename-config',
      'lint-stdin-filename-syntax',
      'lint-stdin-filename-alone',
      'lint-stdin-not-utf8',
      'compile-stdin',
      'compile-stdin-dsl',
      'fmt-stdin',
      'fmt-stdin-check',
      'fmt-stdin-write',
      'check-stdin',
      'test-stdin',
      'explain-stdin-policy',
      'explain-stdin-twice',
      'diff-stdin',
      'diff-stdin-twice',
      'fuzz-stdin',
      'eval-policy-stdin',
      'hook-policy-stdin',
    ],
    tests: ['packages/cli/test/stdin.test.ts'],
  },
  5: { goldens: ['lint-glob', 'test-glob', 'lint-glob-no-match', 'lint-glob-ignored', 'test-glob-no-match', 'fmt-glob-no-match', 'lint-glob-invalid', 'lint-ignore-pattern', 'lint-ignore-pattern-invalid', 'test-ignore-pattern', 'lint-gitignore'] },
  6: { goldens: ['lint-max-warnings', 'lint-max-warnings-quiet', 'lint-max-warnings-unlimited'] },
  7: {
    goldens: [
      'lint-color-tty',
      'lint-color-tty-no-color-env',
      'lint-color-tty-dumb',
      'lint-color-force-color-env',
      'lint-color-force-color-0',
      'lint-color-flag',
      'lint-color-no-color-flag',
      'lint-color-last-wins',
    ],
    tests: ['packages/cli/test/color.test.ts'],
  },
  8: { goldens: ['lint-output-missing-folder', 'test-junit-output'] },
  9: { goldens: ['unknown-command-near', 'unknown-option-near'] },
  10: { goldens: ['lint-fix-dry-run', 'lint-fix-json', 'lint-fix-sarif', 'lint-fix-two-pass', 'lint-fix-stylish'], tests: ['packages/cli/test/lint-fix.test.ts', 'packages/cli/test/lint-fix-property.test.ts'] },
  11: { goldens: ['version', 'version-short'] },
  12: {
    goldens: ['lint-no-files', 'lint-config-cannot-lower-compiler-errors', 'lint-compiler-errors-stay', 'lint-config-duplicate-keys', 'lint-config-duplicate-key', 'lint-config-bad-glob', 'compile-bad-driver', 'lint-output-unwritable', 'fuzz-negative-runs'],
  },
  13: { goldens: ['fmt-to-verdict-controls', 'fmt-long-number', 'test-long-number'] },
  14: { goldens: ['schema-list', 'schema-policy'], tests: ['release/consumer.test.ts', 'packages/cli/src/commands/schema-out.test.ts'] },
  15: { goldens: [], tests: ['packages/cli/test/check-c4.test.ts', 'packages/cli/test/docs-links.test.ts', 'docs/semantics.md'] },
  16: { goldens: [], tests: ['packages/cli/test/readme.test.ts', 'packages/lint/test/docs-examples.test.ts', 'packages/compiler/test/dsl/docs.test.ts'] },
};

describe('issue 17: every item has its golden CLI test', () => {
  it('lists the sixteen items', () => {
    expect(Object.keys(ITEMS).map(Number)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
  });
  for (const [item, { goldens, tests = [] }] of Object.entries(ITEMS)) {
    it(`item ${item}: ${goldens.length > 0 ? goldens.join(', ') : tests.join(', ')}`, () => {
      for (const g of goldens) {
        expect(existsSync(join(repoRoot, 'fixtures/cli', g, 'args.json')), `fixtures/cli/${g}/args.json`).toBe(true);
        expect(existsSync(join(repoRoot, 'fixtures/cli', g, 'exit')), `fixtures/cli/${g}/exit`).toBe(true);
      }
      for (const t of tests) expect(existsSync(join(repoRoot, t)), t).toBe(true);
      // An item is covered by goldens, by named tests (no command of its own), or is owned by a branch still open.
      expect(goldens.length + tests.length > 0).toBe(true);
    });
  }
});
