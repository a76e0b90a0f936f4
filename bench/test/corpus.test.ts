import { describe, expect, it } from 'vitest';
import { naiveRe2js, naiveRegExp, toJsRegExp } from '../src/baselines.ts';
import { makeAdversarialInputs, makeCalls, makePolicy, makeSizedCalls, sizeStats } from '../src/corpus.ts';
import { verdictEngine } from '../src/engines.ts';

describe('benchmark corpus', () => {
  it('is the same on every run (seeded)', () => {
    expect(makeCalls(50)).toEqual(makeCalls(50));
    expect(makePolicy(1000)).toEqual(makePolicy(1000));
    expect(makeCalls(5, 1)).not.toEqual(makeCalls(5, 2));
  });

  it('has the 100-rule policy shape of the issue: 50 deny, 50 allow, six tools plus four rules without a tool', () => {
    const p = makePolicy(100);
    expect(p.deny).toHaveLength(50);
    expect(p.allow).toHaveLength(50);
    const rules = [...p.deny, ...p.allow];
    expect(rules.filter((r) => r.tool === '')).toHaveLength(4);
    expect(new Set(rules.filter((r) => r.tool !== '').map((r) => r.tool.toLowerCase())).size).toBe(6);
    expect(makePolicy(10_000).deny.length + makePolicy(10_000).allow.length).toBe(10_000);
  });

  it('has realistic input sizes: median near 100 B and a tail of several KB', () => {
    const s = sizeStats(makeCalls(10_000));
    expect(s.median).toBeGreaterThan(70);
    expect(s.median).toBeLessThan(160);
    expect(s.p99).toBeGreaterThan(4000);
    expect(s.p99).toBeLessThan(12_000);
  });

  it('makes fixed-size inputs of the requested size', () => {
    for (const bytes of [100, 4096]) {
      for (const c of makeSizedCalls(20, bytes)) {
        expect(c.input.length).toBeGreaterThan(bytes * 0.8);
        expect(c.input.length).toBeLessThanOrEqual(bytes * 1.05);
      }
    }
    for (const { call } of makeAdversarialInputs(65_536)) expect(call.input.length).toBeLessThanOrEqual(65_536);
  });
});

describe('decision equality across engines', () => {
  const calls = makeCalls(800);

  it('the naive re2js loop and the RegExp loop agree on every call of the 100- and 1,000-rule policies', () => {
    for (const size of [100, 1000]) {
      const p = makePolicy(size);
      const a = naiveRe2js(p);
      const b = naiveRegExp(p);
      for (const c of calls) expect(b.decide(c), JSON.stringify(c)).toEqual(a.decide(c));
    }
  });

  it('the corpus exercises every outcome: deny by rule, allow by rule and the default', () => {
    const a = naiveRe2js(makePolicy(100));
    const kinds = new Set(calls.map((c) => a.decide(c)).map((o) => (o.rule === 'default' ? 'default' : o.rule.split(':')[0])));
    expect([...kinds].sort()).toEqual(['allow', 'default', 'deny']);
  });

  it('Verdict decides (approve) and explains every call as the naive loop does', () => {
    const p = makePolicy(100);
    const a = naiveRe2js(p);
    const v = verdictEngine(p);
    for (const c of calls) {
      const want = a.decide(c);
      const got = v.decide(c);
      expect({ decision: got.decision, reason: got.reason }, JSON.stringify(c)).toEqual({ decision: want.decision, reason: want.reason });
      expect(v.explain(c), JSON.stringify(c)).toEqual(want);
    }
  });

  it('translates RE2 to RegExp only where the meaning is the same', () => {
    expect(toJsRegExp('(?i)abc').flags).toBe('i');
    expect(toJsRegExp('a\\sb').test('a\u00a0b')).toBe(false); // RE2 \s is [\t\n\f\r ]
    expect(toJsRegExp('a\\sb').test('a\tb')).toBe(true);
  });
});
