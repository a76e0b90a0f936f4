#!/usr/bin/env node
// `node bench/shell-oracle.mjs N SEED [--findings=FILE] [--max-seconds=S]`: the long run of the
// shell oracles (bench/src/shell-oracle.ts; packages/shell/test/oracle).
const { register } = await import('tsx/esm/api');
register();
const { main } = await import('./src/shell-oracle.ts');
process.exitCode = await main(process.argv.slice(2));
