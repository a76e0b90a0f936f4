/**
 * Chevrotain, loaded on the first use of the `.verdict` DSL and not when the compiler is imported:
 * YAML and JSON policies never pay for it. Every value the DSL takes from chevrotain comes through
 * `chevrotain()`; the other files import its types only.
 *
 * Why (measured on Node 20.20): the package entry is some 700 ES modules (lodash-es), about 1 s to
 * load in plain Node and 4-5 s under tsx, whose loader hook sees each module. The package also
 * ships the same API as one bundled module, `lib/chevrotain.mjs` (under 0.1 s), which is what we
 * load when it is there. `require` loads ES modules synchronously since Node 20.19, so parsing
 * stays synchronous; it resolves only the npm package, never a TypeScript file, so it works the
 * same under tsx and vitest.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type Chevrotain = typeof import('chevrotain');

let loaded: Chevrotain | undefined;

export function chevrotain(): Chevrotain {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  // The entry is `<package>/lib/src/api.js`; the bundle sits beside `src/`.
  const bundle = join(dirname(require.resolve('chevrotain')), '..', 'chevrotain.mjs');
  loaded = (existsSync(bundle) ? require(bundle) : require('chevrotain')) as Chevrotain;
  return loaded;
}

/** Whether chevrotain has been loaded in this module instance (for tests of the lazy loading). */
export function chevrotainLoaded(): boolean {
  return loaded !== undefined;
}
