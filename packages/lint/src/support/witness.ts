/**
 * Witnesses: a tool input (a JSON object) that a rule matches, built from a sample of its
 * pattern and confirmed with the engine's matcher. Probing rules start from a witness and change
 * it (extend a command, nest a key, escape characters) to show what else the rule lets through.
 */
import type { InputMode, RuleIR, RuleList } from '@verdict/engine';
import type { RegexCache } from './regex-cache.ts';
import { ruleMatchesInput } from './rule-match.ts';
import { sample } from './regex-text.ts';

export interface Witness {
  /** The input as JSON text (compact). */
  text: string;
  /** The parsed object. */
  value: Record<string, unknown>;
}

const COMMON_KEYS = ['command', 'cmd', 'path', 'file_path', 'input'];

/** A compact JSON object input the rule matches, or `undefined` when none was found. */
export function findWitness(
  regexes: RegexCache,
  rule: Pick<RuleIR, 'match' | 'field'>,
  list: RuleList,
  mode: InputMode,
): Witness | undefined {
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
  for (const text of candidates) {
    const value = parseObject(text);
    if (value === undefined) continue;
    // The compact re-encoding is what probes extend, so it must match too.
    const compact = JSON.stringify(value);
    if (ruleMatchesInput(regexes, rule, list, mode, compact) === true) return { text: compact, value };
    if (compact !== text && ruleMatchesInput(regexes, rule, list, mode, text) === true) {
      // Formatting-sensitive pattern: keep the original text, probes use the object form only.
      return { text, value };
    }
  }
  return undefined;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // not JSON
  }
  return undefined;
}

/** The top-level keys whose value is a string. */
export function stringKeys(value: Record<string, unknown>): string[] {
  return Object.keys(value).filter((k) => typeof value[k] === 'string');
}
