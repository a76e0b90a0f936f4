/** Ask rules (a Verdict extension) through the YAML and JSON front ends. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ASK_REASON } from '@verdict/engine';
import { compileSource } from './index.ts';

const YAML = `approver:
  mode: pattern
  default: deny
  allow:
    - tool: Bash
  ask:
    - tool: bash
      match: git push
    - field: command
      match: 'rm .*'
  deny:
    - match: --force
tests:
  - tool: Bash
    input: {command: git push}
    expect: ask
    rule: ask[0]
`;

const JSON_TEXT = JSON.stringify({
  approver: {
    mode: 'pattern',
    allow: [{ tool: 'Bash' }],
    ask: [{ tool: 'bash', match: 'git push' }, { field: 'command', match: 'rm .*' }],
    deny: [{ match: '--force' }],
  },
  tests: [{ tool: 'Bash', input: { command: 'git push' }, expect: 'ask', rule: 'ask[0]' }],
});

describe('ask rules in YAML and JSON', () => {
  it.each([
    ['policy.yaml', YAML],
    ['policy.json', JSON_TEXT],
  ])('%s loads the ask list and decides deny > ask > allow', (file, text) => {
    const r = compileSource(text, file);
    expect(r.diagnostics).toEqual([]);
    expect(r.ir?.approver?.ask?.map((x) => [x.tool, x.match, x.field])).toEqual([
      ['bash', 'git push', undefined],
      ['', 'rm .*', 'command'],
    ]);
    expect(r.ir?.tests.map((t) => [t.expect, t.rule])).toEqual([['ask', 'ask[0]']]);
    const a = r.approver!;
    const decide = (command: string) => a.decide({ toolName: 'Bash', input: JSON.stringify({ command }) });
    expect(decide('git push')).toMatchObject({ decision: 'ask', reason: DEFAULT_ASK_REASON, rule: { list: 'ask', index: 0 } });
    expect(decide('rm -rf x')).toMatchObject({ decision: 'ask', rule: { list: 'ask', index: 1 } });
    expect(decide('git push --force')).toMatchObject({ decision: 'deny', rule: { list: 'deny', index: 0 } });
    expect(decide('ls')).toMatchObject({ decision: 'allow', rule: { list: 'allow', index: 0 } });
  });

  it('an empty or null ask list is no ask list', () => {
    for (const list of ['[]', '']) {
      const r = compileSource(`mode: pattern\nask: ${list}\nallow:\n  - tool: Bash\n`, 'p.yaml');
      expect(r.diagnostics).toEqual([]);
      expect(r.ir?.approver).not.toHaveProperty('ask');
    }
  });

  it('an ask list of the wrong type is a located schema error', () => {
    const r = compileSource('mode: pattern\nask: git push\n', 'p.yaml');
    expect(r.diagnostics.map((d) => [d.code, d.span?.start.line])).toEqual([['schema/type', 2]]);
  });

  it('an invalid regex in an ask rule names `ask[N]`', () => {
    const r = compileSource('mode: pattern\nask:\n  - match: ok\n  - match: "("\n', 'p.yaml');
    expect(r.diagnostics.map((d) => [d.code, d.message, d.path, d.span?.start.line])).toEqual([
      ['regex/invalid', 'invalid regular expression `(` in `ask[1]`', ['ask', 1, 'match'], 4],
    ]);
  });

  it('`expect: ask` and `rule: ask[N]` are accepted in tests; other words are not', () => {
    const bad = compileSource('mode: pattern\ntests:\n  - tool: x\n    expect: asks\n    rule: ask[x]\n', 'p.yaml');
    expect(bad.diagnostics.map((d) => [d.message, d.span?.start.line])).toEqual([
      ['`expect` must be `allow` or `deny` or `ask`, not `asks`', 4],
      ['`rule` must be `allow[N]`, `deny[N]`, `ask[N]` or `default`, not `ask[x]`', 5],
    ]);
  });
});
