/**
 * Gemini CLI policy TOML (`[[rule]]` tables, `[[safety_checker]]`): every rule with each key's span,
 * the known keys read into typed fields when their type is the one Gemini's schema takes, and every
 * key kept as written (`keys`), so a misspelt or unknown key is seen where it is written.
 */
import type { Diagnostic, Span } from '@verdict/engine';
import { spanOf } from '@verdict/compiler';
import { placeAt, readToml } from './toml.ts';
import type { TomlPlace } from './toml.ts';
import type { Located, LocatedKey, NativeFileBase } from './types.ts';

/** The keys of a `[[rule]]` that Gemini CLI's schema reads; any other is stripped without a word. */
export const GEMINI_RULE_KEYS: readonly string[] = [
  'toolName',
  'mcpName',
  'subagent',
  'argsPattern',
  'commandPrefix',
  'commandRegex',
  'decision',
  'priority',
  'modes',
  'interactive',
  'toolAnnotations',
  'allowRedirection',
  'denyMessage',
];

export type GeminiDecision = 'allow' | 'deny' | 'ask_user';

export interface GeminiRule {
  /** Position among the file's rules. */
  index: number;
  /** The `[[rule]]` header (or the inline table). */
  span: Span;
  /** Every key as written, known or not. */
  keys: LocatedKey[];
  toolName?: Located<string | string[]>;
  mcpName?: Located<string>;
  subagent?: Located<string>;
  argsPattern?: Located<string>;
  /** A string, or a list of alternatives. */
  commandPrefix?: Located<string | string[]>;
  /** The list items of `commandPrefix`, each located. */
  commandPrefixItems?: Located<string>[];
  commandRegex?: Located<string | string[]>;
  decision?: Located<string>;
  priority?: Located<number>;
  modes?: Located<string[]>;
  interactive?: Located<boolean>;
  toolAnnotations?: Located<Record<string, unknown>>;
  allowRedirection?: Located<boolean>;
  denyMessage?: Located<string>;
}

export interface GeminiPolicyFile extends NativeFileBase {
  format: 'gemini-policy';
  agent: 'gemini';
  rules: GeminiRule[];
  /** The `[[safety_checker]]` tables, by header. */
  safetyCheckers: Span[];
  /** The top-level keys (`rule`, `safety_checker`, anything else). */
  topLevelKeys: LocatedKey[];
}

const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

export function readGeminiPolicy(file: string, text: string): GeminiPolicyFile {
  const diagnostics: Diagnostic[] = [];
  const toml = readToml(file, text, diagnostics);
  const out: GeminiPolicyFile = { format: 'gemini-policy', agent: 'gemini', file, text, diagnostics, complete: toml.value !== undefined, rules: [], safetyCheckers: [], topLevelKeys: [] };
  const doc = toml.value;
  if (doc === undefined) return out;
  const whole = spanOf(file, toml.index, 0, 0);
  out.topLevelKeys = keysAt(doc, toml.root, [], whole);
  const rules = doc['rule'];
  if (rules !== undefined) {
    if (!Array.isArray(rules)) {
      diagnostics.push({ code: 'native/type', severity: 'warning', message: '`rule` is not an array of tables; no rule is read', span: placeAt(toml.root, ['rule']).keySpan ?? whole });
    } else {
      rules.forEach((r, i) => {
        const place = placeAt(toml.root, ['rule', i]);
        if (typeof r !== 'object' || r === null || Array.isArray(r)) {
          diagnostics.push({ code: 'native/type', severity: 'warning', message: `rule ${i + 1} is not a table`, span: place.span });
          return;
        }
        out.rules.push(rule(r as Record<string, unknown>, place, i));
      });
    }
  }
  const checkers = doc['safety_checker'];
  if (Array.isArray(checkers)) checkers.forEach((_c, i) => out.safetyCheckers.push(placeAt(toml.root, ['safety_checker', i]).span));
  return out;

  function rule(r: Record<string, unknown>, place: TomlPlace, index: number): GeminiRule {
    const keys = keysAt(r, place, [], place.span);
    const g: GeminiRule = { index, span: place.keySpan ?? place.span, keys };
    const loc = <T>(k: string, v: T): Located<T> => ({ value: v, span: place.entries?.get(k)?.span ?? g.span });
    const v = (k: string): unknown => r[k];
    const s = (k: string): string | undefined => (typeof v(k) === 'string' ? (v(k) as string) : undefined);
    const tn = v('toolName');
    if (typeof tn === 'string' || isStringList(tn)) g.toolName = loc('toolName', tn);
    for (const k of ['mcpName', 'subagent', 'argsPattern', 'decision', 'denyMessage'] as const) {
      const x = s(k);
      if (x !== undefined) g[k] = loc(k, x);
    }
    const cp = v('commandPrefix');
    if (typeof cp === 'string' || isStringList(cp)) {
      g.commandPrefix = loc('commandPrefix', cp);
      if (Array.isArray(cp)) {
        const items = place.entries?.get('commandPrefix')?.items ?? [];
        g.commandPrefixItems = cp.map((x, i) => ({ value: x, span: items[i]?.span ?? g.commandPrefix?.span ?? g.span }));
      }
    }
    const cr = v('commandRegex');
    if (typeof cr === 'string' || isStringList(cr)) g.commandRegex = loc('commandRegex', cr);
    const pr = v('priority');
    if (typeof pr === 'number' || typeof pr === 'bigint') g.priority = loc('priority', Number(pr));
    const modes = v('modes');
    if (isStringList(modes)) g.modes = loc('modes', modes);
    for (const k of ['interactive', 'allowRedirection'] as const) {
      const x = v(k);
      if (typeof x === 'boolean') g[k] = loc(k, x);
    }
    const ta = v('toolAnnotations');
    if (typeof ta === 'object' && ta !== null && !Array.isArray(ta)) g.toolAnnotations = loc('toolAnnotations', ta as Record<string, unknown>);
    return g;
  }
}

/** The keys of a TOML table with their places. */
export function keysAt(table: Record<string, unknown>, place: TomlPlace, _path: readonly string[], fallback: Span): LocatedKey[] {
  return Object.keys(table).map((key) => {
    const p = place.entries?.get(key);
    return { key, keySpan: p?.keySpan ?? p?.span ?? fallback, valueSpan: p?.span ?? fallback, value: table[key] };
  });
}
