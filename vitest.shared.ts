import { defaultServerConditions } from 'vite';

/**
 * Tests run against the TypeScript sources, not `dist/`: every package exports them under the
 * `verdict-source` condition (tsconfig.base.json's `customConditions` does the same for `tsc -b`).
 * Each project's vitest.config.ts spreads this in.
 */
const conditions = ['verdict-source', ...defaultServerConditions];

export const sourceConditions = {
  // Vitest resolves test imports in Vite's server-side environment: `ssr.resolve` is the one read.
  ssr: { resolve: { conditions } },
};
