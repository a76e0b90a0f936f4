/**
 * What `verdict export` writes loads in the agent: each exported file, written where the agent reads it and
 * read back with the project's own reader (`readNativeFile`), has no load error and no `native/*` finding of
 * the load-time-trap kind (a rule the agent never consults, a file or rule it drops, a key it strips, a tool
 * it does not have) — for the golden runs' team policy and for the starter policies.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { compileFile } from '@verdict/compiler';
import { decideCall } from '@verdict/engine';
import { lintNativeSource } from '@verdict/lint';
import { EXPORT_AGENTS, exportNative, exportShellNames, readNativeFile } from '@verdict/native';
import { afterAll, describe, expect, it } from 'vitest';
import { DECIDING } from '../src/command-rules.ts';
import { repoRoot } from './harness.ts';

/** The findings that mean the agent does not load, or never consults, part of the file. */
const TRAPS = ['native/never-consulted', 'native/file-not-loaded', 'native/regex-dropped', 'native/unknown-key', 'native/unknown-tool', 'native/syntax', 'native/type', 'native/not-static'];
const isTrap = (id: string | null | undefined): boolean => id != null && (TRAPS.includes(id) || id.startsWith('load/'));

const POLICIES = ['fixtures/cli/export-claude/team.yaml', 'fixtures/policies/claude-code.yaml', 'fixtures/policies/codex.yaml', 'fixtures/policies/gemini-cli.yaml', 'fixtures/policies/cursor.yaml'];

const tmp = mkdtempSync(join(tmpdir(), 'verdict-export-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('exported files load in the agent, with no load-time trap', () => {
  for (const policy of POLICIES) {
    for (const agent of EXPORT_AGENTS) {
      it(`${policy} → ${agent}`, () => {
        const compiled = compileFile(join(repoRoot, policy), DECIDING);
        const ir = compiled.ir?.approver;
        const approver = compiled.approver;
        expect(ir && approver, policy).toBeTruthy();
        const names = exportShellNames(agent);
        const exported = exportNative(ir!, agent, { decideShell: (command) => decideCall(approver!, { names, input: JSON.stringify({ command }) }).decision, source: policy });
        // Where the agent reads it (Gemini CLI: a user policy under the home folder).
        const path = join(tmp, policy.replace(/\W+/g, '-'), agent === 'gemini' ? exported.path.replace('.gemini/policies', 'home/.gemini/policies') : exported.path);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, exported.text);
        const read = readNativeFile(path);
        expect(read.format, path).toBeDefined();
        expect(read.diagnostics.filter((d) => d.severity === 'error'), exported.text).toEqual([]);
        if (read.format !== undefined) expect(read.complete, exported.text).toBe(true);
        const lint = lintNativeSource(exported.text, path, read.format!);
        const traps = lint.messages.filter((m) => isTrap(m.ruleId));
        expect(traps.map((m) => `${m.ruleId}: ${m.message}`), exported.text).toEqual([]);
      });
    }
  }
});
