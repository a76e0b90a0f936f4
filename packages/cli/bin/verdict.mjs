#!/usr/bin/env node
// The `verdict` command: built JavaScript (`pnpm build` writes dist/), no transpiler at run time.
// It runs once per tool call in an agent hook, so start-up is its cost: most of what is left after
// bundling is V8 compiling the bundle, which a code cache skips on every run after the first.
// Node 22.1+ has one built in (module.enableCompileCache); on older Node, code-cache.cjs keeps
// V8's own cache for the bundle's files.
import module from 'node:module';

const require = module.createRequire(import.meta.url);
if (typeof module.enableCompileCache === 'function') module.enableCompileCache();
else require('./code-cache.cjs').install(new URL('../dist/', import.meta.url));
const { main } = require('../dist/cli.cjs');
process.exitCode = await main(process.argv.slice(2));
