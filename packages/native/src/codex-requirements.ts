/**
 * Codex `requirements.toml` (admin): `[rules] prefix_rules = [{ pattern = [{ token = "git" },
 * { any_of = ["push", "pull"] }], decision = "prompt" | "forbidden", justification }]`, read into
 * the same rule shape as a `.rules` file. `allow` is refused there, as Codex refuses it.
 */
import type { Diagnostic, Span } from '@verdict/engine';
import { spanOf } from '@verdict/compiler';
import type { CodexLoadError, CodexPatternToken, CodexPrefixRule } from './codex-rules.ts';
import { keysAt } from './gemini-policy.ts';
import { placeAt, readToml } from './toml.ts';
import type { LocatedKey, NativeFileBase } from './types.ts';

export interface CodexRequirementsFile extends NativeFileBase {
  format: 'codex-requirements';
  agent: 'codex';
  prefixRules: CodexPrefixRule[];
  loadErrors: CodexLoadError[];
  topLevelKeys: LocatedKey[];
}

export function readCodexRequirements(file: string, text: string): CodexRequirementsFile {
  const diagnostics: Diagnostic[] = [];
  const toml = readToml(file, text, diagnostics);
  const out: CodexRequirementsFile = { format: 'codex-requirements', agent: 'codex', file, text, diagnostics, complete: toml.value !== undefined, prefixRules: [], loadErrors: [], topLevelKeys: [] };
  const doc = toml.value;
  if (doc === undefined) return out;
  const whole = spanOf(file, toml.index, 0, 0);
  out.topLevelKeys = keysAt(doc, toml.root, [], whole);
  const rules = doc['rules'];
  if (typeof rules !== 'object' || rules === null) return out;
  const list = (rules as Record<string, unknown>)['prefix_rules'];
  if (list === undefined) return out;
  const refuse = (message: string, span: Span): void => {
    out.loadErrors.push({ message, span });
  };
  if (!Array.isArray(list)) {
    refuse('`rules.prefix_rules` must be an array', placeAt(toml.root, ['rules', 'prefix_rules']).span);
    return out;
  }
  list.forEach((r, i) => {
    const place = placeAt(toml.root, ['rules', 'prefix_rules', i]);
    if (typeof r !== 'object' || r === null || Array.isArray(r)) {
      refuse('each prefix rule is a table', place.span);
      return;
    }
    const o = r as Record<string, unknown>;
    const pattern = o['pattern'];
    const pPlace = placeAt(toml.root, ['rules', 'prefix_rules', i, 'pattern']);
    if (!Array.isArray(pattern) || pattern.length === 0) {
      refuse('`pattern` must be a non-empty array', pPlace.span);
      return;
    }
    const tokens: CodexPatternToken[] = [];
    for (const [j, t] of pattern.entries()) {
      const tPlace = placeAt(toml.root, ['rules', 'prefix_rules', i, 'pattern', j]);
      const tok = (t as Record<string, unknown> | null)?.['token'];
      const any = (t as Record<string, unknown> | null)?.['any_of'];
      if (typeof tok === 'string') tokens.push({ alternatives: [tok], list: false, span: tPlace.span });
      else if (Array.isArray(any) && any.length > 0 && any.every((x) => typeof x === 'string')) tokens.push({ alternatives: any as string[], list: true, span: tPlace.span });
      else {
        refuse('each pattern element is `{ token = "…" }` or `{ any_of = ["…", …] }`', tPlace.span);
        return;
      }
    }
    const d = o['decision'];
    const dPlace = placeAt(toml.root, ['rules', 'prefix_rules', i, 'decision']);
    if (d !== 'prompt' && d !== 'forbidden') {
      refuse(d === 'allow' ? '`allow` is not accepted in requirements.toml (only `prompt` and `forbidden`)' : '`decision` must be `prompt` or `forbidden`', dPlace.span);
      return;
    }
    const rule: CodexPrefixRule = { kind: 'prefix_rule', span: place.span, pattern: tokens, patternSpan: pPlace.span, decision: d, decisionSpan: dPlace.span, match: [], notMatch: [], extra: [] };
    const j = o['justification'];
    if (typeof j === 'string') rule.justification = { value: j, span: placeAt(toml.root, ['rules', 'prefix_rules', i, 'justification']).span };
    out.prefixRules.push(rule);
  });
  return out;
}
