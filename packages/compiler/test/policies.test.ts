/**
 * `fixtures/policies/`: every policy at the top level compiles cleanly and passes its own inline
 * tests; every policy in `invalid/` fails with located errors.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getBuiltinDescriptor, validatePolicy } from '@verdict/engine';
import { compileFile } from '../src/index.ts';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'fixtures', 'policies');
const valid = readdirSync(dir).filter((f) => /\.(ya?ml|json)$/.test(f) && f !== 'verdict.config.yaml'); // the folder's lint configuration
const invalid = readdirSync(join(dir, 'invalid')).filter((f) => /\.(ya?ml|json)$/.test(f));

describe('fixtures/policies', () => {
  it.each(valid)('%s compiles cleanly and passes its inline tests, if any', (name) => {
    const r = compileFile(join(dir, name));
    // Command rules need @verdict/shell's judge, which the compiler does not depend on: such a file
    // is checked clean here and decided (its inline tests run) by packages/cli/test/shell-rules.test.ts.
    if (r.diagnostics.some((d) => d.code === 'command/no-judge')) {
      expect(compileFile(join(dir, name), { stopAfter: 'validate' }).diagnostics).toEqual([]);
      return;
    }
    expect(r.diagnostics).toEqual([]);
    expect(r.stoppedAfter).toBe('compile');
    expect(r.approver === undefined).toBe(r.ir?.approver === undefined);
    const approver = r.approver;
    if (approver) for (const t of r.ir!.tests) {
      const e = approver.explain({ toolName: t.tool, input: t.input });
      const label = t.name ?? `${t.tool} ${t.input}`;
      expect(e.decision, label).toBe(t.expect);
      if (t.reason !== undefined) expect(e.reason, label).toBe(t.reason);
      if (t.rule !== undefined) expect(e.rule ? `${e.rule.list}[${e.rule.index}]` : 'default', label).toBe(t.rule);
    }
    if (r.policy && r.descriptor) expect(validatePolicy(r.policy, r.descriptor)).toBeNull();
  });

  it('workspace.yaml is a default-deny policy for claude with inline tests', () => {
    const r = compileFile(join(dir, 'workspace.yaml'));
    expect(r.driverName).toBe('claude');
    expect(r.descriptor).toEqual(getBuiltinDescriptor('claude'));
    expect(r.ir?.approver).toMatchObject({ mode: 'pattern', default: 'deny', input: 'canonical' });
    expect(r.ir?.tests.length).toBeGreaterThanOrEqual(8);
    expect(r.policy?.approvals.timeout).toBe(120_000_000_000n);
    expect(r.approver?.approve({ toolName: 'unknown_tool', input: '{}' }).decision).toBe('deny');
  });

  it('the seed approver blocks are read under `agent: approver:`', () => {
    const r = compileFile(join(dir, 'seed-pattern.yaml'));
    expect(r.ir?.approverPlacement).toBe('agent.approver');
    expect(r.ir?.approver?.allow[2]?.match).toBe('"path":"/workspace/[^"]*"');
    const a = r.approver!;
    expect(a.approve({ toolName: 'edit', input: '{"path":"/workspace/x.go"}' }).decision).toBe('allow');
    expect(a.approve({ toolName: 'bash', input: '{"command":"sudo ls"}' })).toEqual({
      decision: 'deny',
      reason: 'denied by pattern policy',
    });
    const worked = compileFile(join(dir, 'seed-worked-patterns.yaml'));
    expect(worked.ir?.approver?.deny[0]?.match).toBe('rm\\s+-rf|sudo|:\\(\\)\\{ :\\|:& \\};:');
    expect(worked.approver?.approve({ toolName: 'bash', input: '{"command":":(){ :|:& };:"}' }).decision).toBe('deny');
  });

  it('a descriptor path is relative to the policy file', () => {
    const r = compileFile(join(dir, 'newer-claude.yaml'));
    expect(r.descriptor?.run_policy_caps.permission.ask).toBe(true);
    expect(validatePolicy(r.policy!, r.descriptor!)).toBeNull();
  });

  it.each(invalid)('invalid/%s fails with located errors', (name) => {
    const r = compileFile(join(dir, 'invalid', name));
    const errors = r.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.length).toBeGreaterThan(0);
    for (const d of errors) expect(d.span?.start.line).toBeGreaterThan(0);
  });
});
