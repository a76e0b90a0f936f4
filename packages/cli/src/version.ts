/** The version of the `verdict` command, from its package.json (one place: `--version`, SARIF's tool version). */
import { createRequire } from 'node:module';

// `src/` in the workspace and `dist/` once built both sit one level below the package root.
export const VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string }).version;
