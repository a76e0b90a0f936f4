import { it } from 'vitest';
import { LanguageCache } from './model.ts';
import { findWitness, and, atom } from './search.ts';
import { makeBudget } from './automaton.ts';
it('prof', () => {
  const c = new LanguageCache();
  const A = c.rule('"path":"/workspace/5/[^"]*"', undefined, 'raw');
  const D = c.rule('secret7', undefined, 'raw');
  const D2 = c.rule('rm\\s+-rf', undefined, 'raw');
  for (const [name, shape] of [['none', null], ['obj', 'raw-object'], ['flat', 'raw-object-flat']] as const) {
    for (const d of [D, D2]) {
      const t = performance.now();
      const f = shape === null ? and(atom(A.upper as any), atom(d.upper as any)) : and(atom(A.upper as any), atom(d.upper as any), c.shapeFormula(shape));
      const r = findWitness(f, makeBudget({ timeMs: 5000, maxStates: 100000 }));
      console.log(name, JSON.stringify(r), (performance.now() - t).toFixed(1));
      const t2 = performance.now();
      const r2 = findWitness(f, makeBudget({ timeMs: 5000, maxStates: 100000 }));
      console.log(' again', (performance.now() - t2).toFixed(1));
    }
  }
  const t = performance.now();
  const r = findWitness(and(atom(A.upper as any), { op: 'atom', dfa: D.upper as any, neg: true }, c.shapeFormula('raw-object')), makeBudget({ timeMs: 5000, maxStates: 100000 }));
  console.log('notD', JSON.stringify(r), (performance.now() - t).toFixed(1));
});
