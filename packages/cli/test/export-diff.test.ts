/**
 * Export followed by `verdict diff SOURCE EXPORTED` (native-formats.md §7.4 item 5): for the golden runs' team
 * policy and the starter policies, exported to each agent and compared by `verdict diff` with the agent's own
 * decision over the exported file, the diff finds no call newly allowed. It does find calls the exported file
 * leaves to the agent's prompt where Verdict denies (a deny the agent cannot see behind a wrapper, the
 * fallback ask where Verdict's default denies), which its order counts as looser: those are the dropped
 * list's, and the hook still denies them.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { EXPORT_AGENTS } from '@verdict/native';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './harness.ts';

const PATHS = { claude: '.claude/settings.json', codex: '.codex/rules/verdict.rules', gemini: '.gemini/policies/verdict.toml', cursor: '.cursor/cli.json' } as const;
const POLICIES = ['fixtures/cli/export-claude/team.yaml', 'fixtures/policies/claude-code.yaml', 'fixtures/policies/gemini-cli.yaml'];

const tmp = mkdtempSync(join(tmpdir(), 'verdict-export-diff-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Report {
  verdict: string;
  changes: { direction: string; command: string; old: { decision: string }; new: { decision: string } }[];
}

describe('export, then verdict diff against the source: never looser', () => {
  for (const policy of POLICIES) {
    for (const agent of EXPORT_AGENTS) {
      it(`${policy} → ${agent}`, async () => {
        process.chdir(repoRoot);
        const out = join(tmp, policy.replace(/\W+/g, '-'), PATHS[agent]);
        mkdirSync(dirname(out), { recursive: true });
        const exported = await runCli(['export', '--to', agent, policy, '-o', out]);
        expect(exported.code, exported.stderr).toBe(0);
        const diff = await runCli(['diff', '--format', 'json', policy, out]);
        expect(diff.code === 0 || diff.code === 1, diff.stderr).toBe(true);
        const report = JSON.parse(diff.stdout) as Report;
        // No call the exported file allows where the policy asks or denies.
        expect(report.changes.filter((c) => c.direction === 'newly-allowed' || c.new.decision === 'allow').map((c) => c.command), diff.stdout).toEqual([]);
        // What the diff counts as looser is only the agent's fallback (no rule, or the fallback's ask) where Verdict denies or asks.
        for (const c of report.changes) {
          if (c.direction === 'newly-unruled' || c.direction === 'newly-asked') expect(['none', 'ask'], JSON.stringify(c)).toContain(c.new.decision);
        }
      }, 60_000);
    }
  }
});
