/** `verdict explain` under a pattern whose program is large: the decision at once, the span left out and said so. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './harness.ts';

describe('verdict explain: the span within a budget', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-explain-'));
  const policy = join(dir, 'p.yaml');
  writeFileSync(policy, "mode: pattern\ndefault: allow\ndeny:\n  - {tool: bash, match: '(.*){1000}'}\n");
  const input = JSON.stringify({ command: 'x'.repeat(30_000) });

  it('says the span was not looked for (instructions × characters past the budget), and decides', async () => {
    const text = await runCli(['explain', '--policy', policy, '--tool', 'bash', '--input', '-'], input);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('decision: deny\n');
    expect(text.stdout).toContain(
      `span not shown: finding it could take up to 4002 × ${input.length} steps (instructions × characters), past explain's budget of 100000000; the decision is exact\n`,
    );
    const json = await runCli(['explain', '--policy', policy, '--tool', 'bash', '--input', '-', '--format', 'json'], input);
    expect(JSON.parse(json.stdout)).toMatchObject({ decision: 'deny', match: null, spanOmitted: { instructions: 4002, characters: input.length } });
  });

  it('shows the span of a short input', async () => {
    const r = await runCli(['explain', '--policy', policy, '--tool', 'bash', '--input', '{"command":"ls"}']);
    expect(r.stdout).toContain('matched "{\\"command\\":\\"ls\\"}" at raw offsets 0..16\n');
    expect(r.stdout).not.toContain('span not shown');
  });
});
