/**
 * Exact reasoning about field rules under `input: canonical` when every rule in play is one.
 *
 * Such rules look only at the decoded string values of top-level keys (compared under case
 * folding), so a call is, to them, a map from key groups to "absent" or a string. A formula over
 * these rules is satisfiable when the rules can be given truth values that satisfy it
 * propositionally and, for every key group, one value lies in the languages of the group's true
 * rules and outside those of its false rules (a group with no true rule can be absent). This is a
 * small DPLL search with the value-language check as its theory; no text approximation is involved.
 */
import { caseFold, type RuleIR } from '@verdict/engine';
import { makeBudget, type SearchDfa } from './automaton.ts';
import { and, andOf, assign, atom, findWitness, firstAtom, type Formula, not } from './search.ts';
import type { Outcome, Session } from './session.ts';

export interface FieldAtoms {
  /** The proposition "`rule` matches", or `null` when the rule is not a modelled field rule. */
  of(rule: RuleIR): Formula | null;
  /** Solves a formula built from `of` (see the module comment); the witness is a JSON object text. */
  solve(formula: Formula): Outcome;
}

export function fieldAtoms(session: Session): FieldAtoms {
  const group = new Map<SearchDfa, { key: string; name: string }>();
  const of = (rule: RuleIR): Formula | null => {
    if (rule.field === undefined) return null;
    const key = caseFold(rule.field);
    const dfa = session.cache.valueDfa(key, rule.match);
    if (dfa === null) return null;
    if (!group.has(dfa)) group.set(dfa, { key, name: rule.field });
    return atom(dfa);
  };

  const solve = (formula: Formula): Outcome => {
    let checks = 400;
    let limited: string | undefined;
    /** The values that realise an assignment, or `null` when some group has none. */
    const theory = (assigned: Map<SearchDfa, boolean>): Map<string, { name: string; value: string }> | null => {
      const byGroup = new Map<string, { name: string; pos: SearchDfa[]; neg: SearchDfa[] }>();
      for (const [dfa, v] of assigned) {
        const g = group.get(dfa) as { key: string; name: string };
        let e = byGroup.get(g.key);
        if (e === undefined) {
          e = { name: g.name, pos: [], neg: [] };
          byGroup.set(g.key, e);
        }
        (v ? e.pos : e.neg).push(dfa);
      }
      const out = new Map<string, { name: string; value: string }>();
      for (const [key, e] of byGroup) {
        if (e.pos.length === 0) continue; // the key is absent
        if (--checks < 0) {
          limited = 'too many cases';
          return null;
        }
        const r = findWitness(andOf([...e.pos.map((d) => atom(d)), ...e.neg.map((d) => not(atom(d)))]), makeBudget(session.questionBudget()));
        if (r.status === 'limit') limited = r.why;
        if (r.status !== 'witness') return null;
        out.set(key, { name: e.name, value: r.text });
      }
      return out;
    };
    const go = (f: Formula, assigned: Map<SearchDfa, boolean>): Map<string, { name: string; value: string }> | null => {
      if (f.op === 'const') return f.value ? theory(assigned) : null;
      if (limited !== undefined) return null;
      if (session.outOfTime()) {
        limited = 'time limit';
        return null;
      }
      const v = firstAtom(f) as SearchDfa;
      for (const value of [true, false]) {
        const next = new Map(assigned).set(v, value);
        const r = go(assign(f, v, value), next);
        if (r !== null) return r;
      }
      return null;
    };
    const found = go(formula, new Map());
    if (found !== null) {
      const obj: Record<string, string> = {};
      for (const { name, value } of found.values()) obj[name] = value;
      return { status: 'witness', text: JSON.stringify(obj) };
    }
    return limited === undefined ? { status: 'empty' } : { status: 'unknown', why: `the ${limited} was reached` };
  };

  return { of, solve };
}
