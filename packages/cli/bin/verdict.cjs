#!/usr/bin/env node
// The `verdict` command: built JavaScript (`pnpm build` writes dist/), no transpiler at run time.
// It runs once per tool call in an agent hook, so start-up is its cost: most of what is left after
// bundling is V8 compiling the bundle, which a code cache skips on every run after the first.
// Node 22.1+ has one built in (module.enableCompileCache); on older Node, code-cache.cjs keeps
// V8's own cache for the bundle's files. A CommonJS file, so that Node does not start its ES module
// loader for it (~10% of a bare `node -e 0`): this is the script `verdict hook install` runs;
// verdict.mjs (the package's `bin`, and what older installed hooks name) runs this one.
'use strict';
const module_ = require('node:module');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

if (typeof module_.enableCompileCache === 'function') module_.enableCompileCache();
else require('./code-cache.cjs').install(pathToFileURL(path.join(__dirname, '..', 'dist') + path.sep));
const { main } = require('../dist/cli.cjs');
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
