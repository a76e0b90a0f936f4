/**
 * Witnesses: a tool input (a JSON object) that a rule matches, confirmed with the engine's matcher.
 * Probing rules start from a witness and change it (extend a command, nest a key, escape
 * characters) to show what else the rule lets through, and quote it in their messages.
 *
 * Candidates come from a sample of the pattern's first branch wrapped in a few common shapes (an
 * input a person would write, `{"command":"rm -rf"}`), and, when none of those matches, from the
 * exact search (`search.ts`): a shortest flat JSON object in the rule's language.
 */
import type { InputMode, RuleIR, RuleList } from '@verdict/engine';
import { makeBudget } from './automaton.ts';
import { LanguageCache } from './model.ts';
import { ruleMatchesInput } from './oracle.ts';
import { sample } from './pattern-text.ts';
import type { RegexCache } from './regex-cache.ts';
import { and, atom, findWitness, type Formula } from './search.ts';
import { parseJsonObject } from './session.ts';

export interface InputWitness {
  /** The input as JSON text (compact). */
  text: string;
  /** The parsed object. */
  value: Record<string, unknown>;
}

const COMMON_KEYS = ['command', 'cmd', 'path', 'file_path', 'input'];

/**
 * Witnesses found so far, per run (regex cache): rules that probe the same pattern in the same
 * list and mode share one search. Bounded: cleared when it grows past `WITNESS_CACHE_LIMIT`.
 */
const witnesses = new WeakMap<RegexCache, Map<string, Map<string, InputWitness | undefined>>>();
const WITNESS_CACHE_LIMIT = 4096;
let cachedWitnesses = 0;

/** A compact JSON object input the rule matches, or `undefined` when none was found. */
export function findInputWitness(
  regexes: RegexCache,
  rule: Pick<RuleIR, 'match' | 'field'>,
  list: RuleList,
  mode: InputMode,
): InputWitness | undefined {
  let byKind = witnesses.get(regexes);
  if (byKind === undefined) {
    byKind = new Map();
    witnesses.set(regexes, byKind);
  }
  // `list` and `mode` never contain `|`, so the field (last) keeps the key unambiguous.
  const kind = `${list}|${mode}|${rule.field === undefined ? 'n' : `f${rule.field}`}`;
  let byPattern = byKind.get(kind);
  if (byPattern === undefined) {
    byPattern = new Map();
    byKind.set(kind, byPattern);
  }
  if (byPattern.has(rule.match)) return byPattern.get(rule.match);
  const found = searchWitness(regexes, rule, list, mode);
  if (found !== undefined) Object.freeze(found.value);
  if (cachedWitnesses >= WITNESS_CACHE_LIMIT) {
    for (const m of byKind.values()) m.clear();
    cachedWitnesses = 0;
  }
  byPattern.set(rule.match, found === undefined ? undefined : Object.freeze(found));
  cachedWitnesses++;
  return found;
}

function searchWitness(
  regexes: RegexCache,
  rule: Pick<RuleIR, 'match' | 'field'>,
  list: RuleList,
  mode: InputMode,
): InputWitness | undefined {
  const samples = [sample(rule.match), sample(rule.match, true)].filter((s): s is string => s !== null);
  if (rule.match === '') samples.push('');
  const candidates: string[] = [];
  for (const s of new Set(samples)) {
    if (rule.field !== undefined) {
      candidates.push(JSON.stringify({ [rule.field]: s }));
      continue;
    }
    candidates.push(s, `{${s}"}`, `{${s}}`, `{${s}"x"}`, `{${s}x"}`);
    for (const key of COMMON_KEYS) {
      candidates.push(`{"${key}":"${s}"}`, JSON.stringify({ [key]: s }));
    }
  }
  // The matcher is deterministic: an input already tried (and not matched) is not tried again.
  const tried = new Set<string>();
  const matches = (input: string): boolean => {
    if (tried.has(input)) return false;
    tried.add(input);
    return ruleMatchesInput(regexes, rule, list, mode, input) === true;
  };
  const seen = new Set<string>();
  const found = firstMatching(candidates, seen, matches);
  return found ?? firstMatching(exactCandidates(regexes, rule, mode), seen, matches);
}

/** The first candidate that parses to an object the rule matches (see `searchWitness`). */
function firstMatching(candidates: Iterable<string>, seen: Set<string>, matches: (input: string) => boolean): InputWitness | undefined {
  for (const text of candidates) {
    // The same candidate twice gives the same answer: no match the first time.
    if (seen.has(text)) continue;
    seen.add(text);
    const value = parseJsonObject(text);
    if (value === undefined) continue;
    // The compact re-encoding is what probes extend, so it must match too.
    const compact = JSON.stringify(value);
    if (matches(compact)) return { text: compact, value };
    if (compact !== text && matches(text)) {
      // Formatting-sensitive pattern: keep the original text, probes use the object form only.
      return { text, value };
    }
  }
  return undefined;
}

/** Per run: the languages the exact search builds (patterns recur across a run's files). */
const languages = new WeakMap<RegexCache, LanguageCache>();
/** CPU time for one exact search, in ms: a fallback, so kept short. */
const EXACT_TIME_MS = 50;

/**
 * A shortest flat JSON object text the rule's language holds (for a `field` rule, the object of
 * that one key and a shortest value), or nothing when the search finds none within its limits.
 */
function exactCandidates(regexes: RegexCache, rule: Pick<RuleIR, 'match' | 'field'>, mode: InputMode): string[] {
  let cache = languages.get(regexes);
  if (cache === undefined) {
    cache = new LanguageCache();
    languages.set(regexes, cache);
  }
  let formula: Formula;
  if (rule.field !== undefined) {
    const value = cache.valueDfa(rule.field, rule.match);
    if (value === null) return [];
    formula = atom(value);
  } else {
    const lang = cache.rule(rule.match, undefined, mode);
    if (lang.lower === 'none') return [];
    formula = and(atom(lang.lower), cache.shapeFormula(mode === 'canonical' ? 'canonical-object-flat' : 'raw-object-flat'));
  }
  const r = findWitness(formula, makeBudget({ timeMs: EXACT_TIME_MS }));
  if (r.status !== 'witness') return [];
  return [rule.field === undefined ? r.text : JSON.stringify({ [rule.field]: r.text })];
}

/** The top-level keys whose value is a string. */
export function stringKeys(value: Record<string, unknown>): string[] {
  return Object.keys(value).filter((k) => typeof value[k] === 'string');
}
