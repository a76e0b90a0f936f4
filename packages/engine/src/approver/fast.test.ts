import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileRegex } from '../regex/regex.ts';
import type { CompiledRegex } from '../regex/regex.ts';
import { caseFold } from '../canonical/casefold.ts';
import { buildPlan, decide } from './decide.ts';
import { decidingRule } from './definition.ts';
import type { Rule, Subject } from './definition.ts';
import { stepMatches, stepOf } from './steps.ts';

function re(pattern: string): CompiledRegex {
  const r = compileRegex(pattern);
  if (!r.ok) throw new Error(r.error);
  return r.regex;
}

function rule(list: 'allow' | 'deny', index: number, tool: string, match: string, field?: string): Rule {
  return {
    list,
    index,
    foldedTool: caseFold(tool),
    regex: match === '' && field === undefined ? null : re(match),
    field: field === undefined ? undefined : caseFold(field),
  };
}

function subject(text: string, fields: Record<string, string> | null = {}): Subject {
  return {
    text,
    field: (k) => (fields === null ? null : Object.hasOwn(fields, k) ? fields[k] : undefined),
  };
}

const name = (r: Rule | null) => (r === null ? 'default' : `${r.list}[${r.index}]`);

describe('the plan and its steps', () => {
  const rules = [
    rule('allow', 0, 'bash', 'ls'),
    rule('allow', 1, '', 'cat'),
    rule('allow', 2, 'BASH', ''),
    rule('deny', 0, 'read', 'secret'),
    rule('deny', 1, '', 'sudo'),
    rule('deny', 2, 'Bash', 'rm'),
  ];
  const plan = buildPlan(rules);

  it('groups rules by folded tool, wildcards merged in source order', () => {
    const steps = (tool: string | null, tier: 'first' | 'last') =>
      (tool === null ? plan.anyGroup : plan.groups.get(tool))?.[tier].steps.map((s) => name(s.rule));
    expect(steps('BASH', 'last')).toEqual(['allow[0]', 'allow[1]', 'allow[2]']);
    expect(steps('BASH', 'first')).toEqual(['deny[1]', 'deny[2]']);
    expect(steps('READ', 'first')).toEqual(['deny[0]', 'deny[1]']);
    expect(steps(null, 'last')).toEqual(['allow[1]']);
  });

  it('decides deny first, then allow, then default', () => {
    expect(name(decide(plan, 'BASH', subject('sudo ls')))).toBe('deny[1]');
    expect(name(decide(plan, 'BASH', subject('rm x')))).toBe('deny[2]');
    expect(name(decide(plan, 'BASH', subject('ls')))).toBe('allow[0]');
    expect(name(decide(plan, 'BASH', subject('pwd')))).toBe('allow[2]');
    expect(name(decide(plan, 'EDIT', subject('cat x')))).toBe('allow[1]');
    expect(name(decide(plan, 'EDIT', subject('pwd')))).toBe('default');
    expect(name(decide(plan, 'READ', subject('/secret')))).toBe('deny[0]');
  });

  it('field rules: whole-value match, missing never matches, unreadable input denies only', () => {
    const allowField = rule('allow', 0, '', 'ls.*', 'command');
    const denyField = rule('deny', 0, '', 'rm.*', 'Command');
    const ruleMatches = (r: Rule, s: Subject) => stepMatches(stepOf(r), s);
    expect(ruleMatches(allowField, subject('', { COMMAND: 'ls -l' }))).toBe(true);
    expect(ruleMatches(allowField, subject('', { COMMAND: 'x; ls' }))).toBe(false);
    expect(ruleMatches(allowField, subject('', {}))).toBe(false);
    expect(ruleMatches(allowField, subject('', null))).toBe(false);
    expect(ruleMatches(denyField, subject('', null))).toBe(true);
  });

  it('decide agrees with the definition (property)', () => {
    const tools = ['bash', 'read', 'edit', ''];
    const matches = ['', 'a', 'b', '^a', 'a$', '.'];
    const ruleArb = fc.record({ tool: fc.constantFrom(...tools), match: fc.constantFrom(...matches) });
    fc.assert(
      fc.property(
        fc.array(ruleArb, { maxLength: 5 }),
        fc.array(ruleArb, { maxLength: 5 }),
        fc.constantFrom('bash', 'READ', 'Edit', 'other'),
        fc.constantFrom('', 'a', 'b', 'ab', 'ba', 'xyz'),
        (allow, deny, tool, text) => {
          const all = [
            ...deny.map((r, i) => rule('deny', i, r.tool, r.match)),
            ...allow.map((r, i) => rule('allow', i, r.tool, r.match)),
          ];
          const s = subject(text);
          expect(name(decide(buildPlan(all), caseFold(tool), s))).toBe(name(decidingRule(all, tool, s)));
        },
      ),
    );
  });
});
