/**
 * Every reader of bytes decodes invalid UTF-8 as Go's `encoding/json` does, one U+FFFD per byte
 * where no valid sequence starts (`E2 82` is two, where Node's decoder gives one): `verdict hook`,
 * `verdict serve`'s hook route and `verdict explain --input -` decide such input exactly as
 * `verdict eval` does. The policy denies two U+FFFD in a row, which only the Go reading of a
 * cut-short sequence produces.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './harness.ts';
import { readAnswer } from './hook-agent-models.ts';
import { INVALID_UTF8, shellPayload, withBytes } from './hook-payloads.ts';
import { killAll, post, type Served, serve } from './serve-harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'verdict-utf8-'));
const POLICY = join(dir, 'policy.yaml');
writeFileSync(
  POLICY,
  `approver:
  mode: pattern
  default: allow
  deny:
    - {tool: Bash, match: '\\x{FFFD}\\x{FFFD}'}
`,
);
const socket = join(dir, 's.sock');
let server: Served;
beforeAll(async () => {
  server = await serve(POLICY, socket);
});
afterAll(async () => {
  await server?.stop();
  killAll();
  rmSync(dir, { recursive: true, force: true });
});

/** What Go reads: one U+FFFD per byte of these (none starts a valid sequence). */
const GO_REPLACEMENTS = new Map([['ff', 1], ['c0af', 2], ['eda080', 3], ['e282', 2], ['80', 1]]);

describe('invalid UTF-8 is read as Go reads it by every command that reads bytes', () => {
  for (const bytes of INVALID_UTF8) {
    const hex = bytes.toString('hex');
    const want = GO_REPLACEMENTS.get(hex)! >= 2 ? 'deny' : 'allow';

    it(`${hex}: eval, explain, hook and serve's hook route decide alike (${want})`, async () => {
      const request = withBytes(JSON.stringify({ toolName: 'Bash', input: { command: 'ls \ue000' } }), bytes);
      const evaluated = await runCli(['eval', '--policy', POLICY], Buffer.concat([request, Buffer.from('\n')]));
      expect(JSON.parse(evaluated.stdout) as { decision: string }).toMatchObject({ decision: want });

      const input = withBytes(JSON.stringify({ command: 'ls \ue000' }), bytes);
      const explained = await runCli(['explain', '--policy', POLICY, '--tool', 'Bash', '--input', '-', '--format', 'json'], input);
      expect(JSON.parse(explained.stdout) as { decision: string }).toMatchObject({ decision: want });

      const payload = withBytes(shellPayload('claude', 'PreToolUse', 'ls \ue000'), bytes);
      const hooked = await runCli(['hook', '--agent', 'claude', '--policy', POLICY], payload);
      expect(readAnswer('claude', 'PreToolUse', hooked)).toBe(want === 'deny' ? 'blocked' : 'runs');

      // Claude Code's http hook: a deny is the deny JSON, an allow an empty body.
      const served = await post(socket, '/v1/hooks/claude', payload);
      expect({ status: served.status, decision: served.headers['verdict-decision'] }).toEqual({ status: 200, decision: want });
      expect(readAnswer('claude', 'PreToolUse', { code: 0, stdout: served.body, stderr: '' })).toBe(want === 'deny' ? 'blocked' : 'runs');
    });
  }
});
