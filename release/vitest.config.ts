import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'release',
    // consumer/ holds the installed project's own files (its vitest test runs there, not here).
    include: ['*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 900_000,
  },
});
