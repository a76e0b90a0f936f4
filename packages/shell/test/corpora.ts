/**
 * The public corpora of fixtures/shell/ (bypass shapes, benign agent commands) and the rule sets
 * beside them, for the corpus, differential and property tests.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileCommandRules, type CommandRules, type CompiledCommandRules } from '../src/index.ts';

export const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'shell');

export interface BypassCase {
  category: string;
  command: string;
  source?: string;
  note?: string;
}
export interface BenignCase {
  command: string;
  source?: string;
}

function jsonl<T>(name: string): T[] {
  return readFileSync(join(FIXTURES, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

/** The rule set of `fixtures/shell/<name>` (`read-only.json`, `starter.json`), as written. */
export function ruleSet(name: string): CommandRules {
  return JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as CommandRules;
}

/** The rule set of `fixtures/shell/<name>`, compiled. */
export function rules(name: string): CompiledCommandRules {
  const r = compileCommandRules(ruleSet(name));
  if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.errors)}`);
  return r.rules;
}

export const bypasses = jsonl<BypassCase>('bypass.jsonl');
export const benign = jsonl<BenignCase>('benign.jsonl');

/** Texts the shells read unlike the parser, or unlike one another (issue 24's classes, several spellings each). */
export interface ReadingCase {
  class: string;
  command: string;
  /** The shells that read it unlike the parser or the others: it is unknown whenever one of them may run the text (absent: all). */
  shells?: ('bash' | 'zsh' | 'sh')[];
}
export const readings = jsonl<ReadingCase>('readings.jsonl');
