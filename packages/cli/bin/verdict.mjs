#!/usr/bin/env node
// The `verdict` command: built JavaScript (`pnpm build` writes dist/), no transpiler at run time.
// Where the running Node has a compile cache (22.1+), the bundle's modules are compiled once and
// reused by later runs: the command runs once per tool call in a hook, so start-up is its cost.
import module from 'node:module';

module.enableCompileCache?.();
const { main } = await import('../dist/cli.js');
process.exitCode = await main(process.argv.slice(2));
