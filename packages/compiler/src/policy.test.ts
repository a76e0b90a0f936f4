/** The run Policy in files (semantics.md B1, B5.1 and the bad inputs of the policy issue). */
import { describe, expect, it } from 'vitest';
import { materialize, validatePolicy, getBuiltinDescriptor } from '@verdict/engine';
import { compileSource, goMessage, lowerPolicy } from './index.ts';

function policy(yaml: string) {
  return compileSource(`policy:\n${yaml.replace(/^/gm, '  ')}\n`, 'p.yaml');
}
const where = (r: ReturnType<typeof compileSource>) =>
  r.diagnostics.map((d) => `${d.code}@${d.span?.start.line}:${d.span?.start.column}`);

describe('policy: lowering', () => {
  it('`{}` lowers to the zero policy, which materialises to the SDK defaults', () => {
    const r = compileSource('policy: {}\n', 'p.yaml');
    expect(r.diagnostics).toEqual([]);
    expect(r.policy).toEqual({
      sandbox: '',
      webSearch: '',
      browser: '',
      approvals: { permission: '', planReview: '', question: '', timeout: 0n, onTimeout: '', onReject: '', maxRetries: 0 },
    });
    expect(materialize(r.policy!).approvals).toMatchObject({ permission: 'ask', question: 'auto_reject', maxRetries: 3 });
  });

  it('no `policy:` means no policy (not validated)', () => {
    expect(compileSource('approver: {}\n', 'p.yaml').policy).toBeUndefined();
  });

  it('lowers every field, durations to bigint nanoseconds', () => {
    const r = policy(
      'sandbox: workspace_write\nweb_search: deny\nbrowser: allow\napprovals:\n  permission: auto_approve\n  plan_review: ask\n  question: auto_reject\n  timeout: 1m30s\n  on_timeout: retry\n  on_reject: continue\n  max_retries: 5',
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.policy).toEqual({
      sandbox: 'workspace_write',
      webSearch: 'deny',
      browser: 'allow',
      approvals: {
        permission: 'auto_approve',
        planReview: 'ask',
        question: 'auto_reject',
        timeout: 90_000_000_000n,
        onTimeout: 'retry',
        onReject: 'continue',
        maxRetries: 5,
      },
    });
  });

  it('a negative timeout is valid: no deadline', () => {
    const r = policy('approvals: {timeout: -5s}');
    expect(r.diagnostics).toEqual([]);
    expect(r.policy?.approvals.timeout).toBe(-5_000_000_000n);
  });

  it('the approvals_auto_deny preset, then keys beside it replace its values', () => {
    const r = policy('preset: approvals_auto_deny');
    expect(r.policy?.approvals).toMatchObject({ permission: 'auto_reject', planReview: 'auto_reject', question: 'auto_reject' });
    expect(validatePolicy(r.policy!, getBuiltinDescriptor('codex')!)?.message).toBe(
      'agentadaptor: human decision mode unsupported by driver: driver=codex kind=permission mode=auto_reject',
    );
    const r2 = policy('preset: read_only\napprovals: {question: ask}');
    expect(r2.policy).toMatchObject({ sandbox: 'read_only', approvals: { question: 'ask', permission: '' } });
  });

  it('an unknown preset is an error with a suggestion', () => {
    const r = policy('preset: readonly');
    expect(where(r)).toEqual(['policy/unknown-preset@2:11']);
    expect(r.diagnostics[0]?.help).toBe('did you mean `read_only`?');
  });

  it('lowerPolicy never throws, even on unvalidated IR', () => {
    expect(lowerPolicy({ approvals: { timeout: { value: '1d' }, maxRetries: { value: -0 } } }).approvals).toMatchObject({
      timeout: 0n,
      maxRetries: 0,
    });
  });
});

describe('policy: values out of domain are reported, and the policy is still lowered', () => {
  it.each([
    ['sandbox: READ_ONLY', 'Policy.Sandbox', 'READ_ONLY', 'did you mean `read_only`?'],
    ['sandbox: ReadOnly', 'Policy.Sandbox', 'ReadOnly', 'did you mean `read_only`?'],
    ['approvals: {permission: auto_deny}', 'Policy.Approvals.Permission', 'auto_deny', 'did you mean `auto_reject`?'],
    ['approvals: {on_reject: Retry}', 'Policy.Approvals.OnReject', 'Retry', 'did you mean `retry`?'],
    ['approvals: {question: auto_approve}', 'Policy.Approvals.Question', 'auto_approve', 'a question needs a real answer'],
    ['approvals: {max_retries: -1}', 'Policy.Approvals.MaxRetries', '-1', '`max_retries` must be 0'],
    ['web_search: inherit', 'Policy.WebSearch', 'inherit', 'to inherit'],
    ['sandbox: SandboxInherit', 'Policy.Sandbox', 'SandboxInherit', 'to inherit'],
    ['approvals: {question: QuestionInherit}', 'Policy.Approvals.Question', 'QuestionInherit', 'to inherit'],
    ['web_search: FeatureDeny', 'Policy.WebSearch', 'FeatureDeny', 'did you mean `deny`?'],
    ['browser: FeatureAllow', 'Policy.Browser', 'FeatureAllow', 'did you mean `allow`?'],
    ['approvals: {on_reject: FallbackRetry}', 'Policy.Approvals.OnReject', 'FallbackRetry', 'did you mean `retry`?'],
  ])('%s', (src, field, value, help) => {
    const r = policy(src);
    expect(r.diagnostics).toHaveLength(1);
    const d = r.diagnostics[0]!;
    expect([d.code, d.severity]).toEqual(['policy/invalid-value', 'error']);
    expect(d.message).toBe(`invalid value \`${value}\` for \`${field}\``);
    expect(d.help).toContain(help);
    // `verdict check` goes on: the policy is lowered and the SDK reports it
    expect(r.stoppedAfter).toBe('compile');
    expect(r.policy).toBeDefined();
    const err = validatePolicy(r.policy!, getBuiltinDescriptor('codebuddy')!);
    expect(err?.message).toContain(`field=${field}`);
  });

  it('reports every field out of domain, each at its value', () => {
    const r = policy('sandbox: bogus\nweb_search: bogus');
    expect(where(r)).toEqual(['policy/invalid-value@2:12', 'policy/invalid-value@3:15']);
  });
});

describe('policy: bad inputs are located errors', () => {
  it.each([
    ['"30"', 'time: missing unit in duration "30"', /write `30s`/],
    ['30', 'time: missing unit in duration "30"', /write `30s`/],
    ['1d', 'time: unknown unit "d" in duration "1d"', /no days/],
    ['--1s', 'time: invalid duration "--1s"', /Go duration/],
    ['1.5.s', 'time: missing unit in duration "1.5.s"', /Go duration/],
    ['9999999999h', 'time: invalid duration "9999999999h"', /largest Go duration is `2562047h47m16.854775807s`/],
    ['2562048h', 'time: invalid duration "2562048h"', /largest Go duration is `2562047h47m16.854775807s`/],
    ['-9223372036854775809ns', 'time: invalid duration "-9223372036854775809ns"', /smallest is `-2562047h47m16.854775808s`/],
    ['.s', 'time: invalid duration ".s"', /write a Go duration/],
  ])('timeout %s', (value, go, help) => {
    const r = policy(`approvals:\n  timeout: ${value}`);
    expect(where(r)).toEqual(['policy/invalid-duration@3:14']);
    const d = r.diagnostics[0]!;
    expect(goMessage(d)).toBe(go);
    expect(d.help).toMatch(help);
    expect(r.policy).toBeUndefined();
  });

  it('max_retries "3" is a type error at the value, with advice', () => {
    const r = policy('approvals:\n  max_retries: "3"');
    expect(where(r)).toEqual(['schema/type@3:18']);
    expect(r.diagnostics[0]?.message).toBe('`max_retries` must be an integer, not a string');
    expect(r.diagnostics[0]?.help).toBe('write the number without quotes: `3`');
  });

  it('unknown keys, with suggestions', () => {
    const r = policy('websearch: deny\napprovals:\n  permision: ask');
    expect(where(r)).toEqual(['schema/unknown-key@2:3', 'schema/unknown-key@4:5']);
    expect(r.diagnostics.map((d) => d.help)).toEqual(['did you mean `web_search`?', 'did you mean `permission`?']);
  });

  it('negative zero is zero: a warning, and the defaults apply', () => {
    const r = policy('approvals:\n  timeout: -0s\n  max_retries: -0');
    expect(r.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ['policy/negative-zero', 'warning'],
      ['policy/negative-zero', 'warning'],
    ]);
    expect(r.policy?.approvals.timeout).toBe(0n);
    expect(Object.is(r.policy?.approvals.maxRetries, 0)).toBe(true);
    // JSON's -0 too
    const j = compileSource('{"policy": {"approvals": {"max_retries": -0}}}', 'p.json');
    expect(Object.is(j.policy?.approvals.maxRetries, 0)).toBe(true);
  });

  it('an integer too large for Go is out of range', () => {
    expect(where(policy('approvals: {max_retries: 1e30}'))).toEqual(['policy/out-of-range@2:28']);
  });
});

describe('driver: an empty name', () => {
  it('says the name is empty instead of quoting nothing', () => {
    const r = compileSource('driver: ""\npolicy: {}\n', 'p.yaml');
    expect(where(r)).toEqual(['driver/unknown@1:9']);
    expect(r.diagnostics[0]?.message).toBe('the driver name is empty');
    expect(r.diagnostics[0]?.help).toMatch(/^the built-in drivers are `codex`/);
  });
});
