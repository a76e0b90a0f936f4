#!/usr/bin/env node
// The `verdict` command as the package's `bin` and as hooks installed before verdict.cjs name it:
// verdict.cjs is the entry (a CommonJS file, which starts faster; `verdict hook install` names it).
import module from 'node:module';

module.createRequire(import.meta.url)('./verdict.cjs');
