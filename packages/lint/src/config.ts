/**
 * `verdict.config.yaml`: severities per rule and per category, folders' include and ignore globs,
 * and a default driver. Problems are returned as diagnostics (never thrown); a configuration with
 * errors is still returned with the valid parts applied.
 *
 * ```yaml
 * driver: claude
 * hook-agent: codex          # the agent whose hook runs these policies (the hook/* rules)
 * include: ["policies/**"]
 * ignore: ["**\/generated/**"]
 * categories: {policy: error}
 * rules:
 *   approver/default-allow: off
 *   rules/missing-tool: [warning, {lists: [allow, deny]}]
 *   regex/shell-extension: {severity: error}
 * ```
 */
import { existsSync } from 'node:fs';
import { compileGlob, CONFIG_FILE_NAMES, editDistance, LineIndex, parseTree, readSourceFile } from '@verdict/compiler';
import { printable } from '@verdict/engine';
import { join } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import { hookAgentChoices, hookAgentOf } from '@verdict/engine';
import type { Diagnostic, HookAgent, Span } from '@verdict/engine';
import { CATEGORIES, SEVERITY_LEVELS } from './types.ts';
import type { Category, LintConfig, RuleSetting, SeverityLevel } from './types.ts';

export { CONFIG_FILE_NAMES };

export interface LoadedConfig {
  config: LintConfig;
  diagnostics: Diagnostic[];
}

export function emptyConfig(): LintConfig {
  return { rules: {}, categories: {}, include: [], ignore: [] };
}

/** The configuration file in `cwd`, if there is one. */
export function findConfigFile(cwd: string): string | undefined {
  for (const name of CONFIG_FILE_NAMES) {
    const p = join(cwd, name);
    if (existsSync(p)) return p;
  }
  return undefined;
}

/**
 * Reads and checks the configuration at `path`; diagnostics name it `shownAs` (the path as the
 * user would write it, relative to the working directory), `config.file` stays `path`.
 */
export function loadLintConfig(path: string, knownRuleIds: readonly string[] = [], shownAs: string = path): LoadedConfig {
  // The one bounded, strict reader every command uses (regular files only, size cap, UTF-8).
  const read = readSourceFile(shownAs, path);
  if (read.text === undefined) {
    const first = read.diagnostics[0];
    const reason = first?.code === 'load/not-found' ? 'it does not exist' : (first?.message ?? 'it cannot be read');
    return {
      config: emptyConfig(),
      diagnostics: [
        {
          code: 'lint/config-invalid',
          severity: 'error',
          message: `cannot read the configuration \`${printable(shownAs)}\`: ${reason}`,
          ...(first?.help !== undefined ? { help: first.help } : {}),
          ...(first?.span !== undefined && first.code !== 'load/not-found' ? { span: first.span } : {}),
        },
      ],
    };
  }
  const loaded = parseLintConfig(read.text, shownAs, knownRuleIds);
  loaded.config.file = path;
  return loaded;
}

export function parseLintConfig(text: string, file: string, knownRuleIds: readonly string[] = []): LoadedConfig {
  const config: LintConfig = { ...emptyConfig(), file };
  const diagnostics: Diagnostic[] = [];
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: false });
  const spanAt = (range: readonly number[] | null | undefined): Span | undefined => {
    if (!range || range[0] === undefined || range[1] === undefined) return undefined;
    const s = lines.linePos(range[0]);
    const e = lines.linePos(range[1]);
    return {
      file,
      start: { offset: range[0], line: s.line, column: s.col },
      end: { offset: range[1], line: e.line, column: e.col },
    };
  };
  const problem = (code: string, severity: 'error' | 'warning', message: string, node: unknown, help?: string): void => {
    const span = spanAt((node as { range?: number[] } | null | undefined)?.range);
    diagnostics.push({ code, severity, message, ...(help ? { help } : {}), ...(span ? { span } : {}) });
  };
  for (const err of doc.errors) {
    const span = spanAt(err.pos);
    diagnostics.push({
      code: 'lint/config-invalid',
      severity: 'error',
      message: `the configuration is not valid YAML: ${err.message.split('\n')[0] ?? ''}`.replace(/\.$/, ''),
      ...(span ? { span } : {}),
    });
  }
  if (doc.errors.length > 0) return { config, diagnostics };
  // The checks every policy file gets from the compiler's reader (repeated keys, alias bombs,
  // nesting depth, several documents), with the same codes and spans.
  const before = diagnostics.length;
  parseTree(file, text, new LineIndex(text), 'yaml', diagnostics);
  if (diagnostics.length > before) return { config, diagnostics };
  const root = doc.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) return { config, diagnostics };
  if (!isMap(root)) {
    problem('lint/config-invalid', 'error', 'the configuration must be a mapping', root);
    return { config, diagnostics };
  }
  const known = new Set(knownRuleIds);
  const knownPrefixes = new Set(CATEGORIES.map((c) => `${c}/`));
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    const value: unknown = pair.value;
    const js: unknown = isScalar(value) ? value.value : (value as { toJSON?: () => unknown } | null)?.toJSON?.();
    switch (key) {
      case 'driver':
        if (typeof js === 'string' && js !== '') config.driver = js;
        else problem('lint/config-invalid', 'error', '`driver` must be a non-empty string', value ?? pair.key);
        break;
      case 'hook-agent': {
        const agent = hookAgentOf(js);
        if (agent !== undefined) config.hookAgent = agent;
        else problem('lint/config-invalid', 'error', `\`hook-agent\` must be one of ${hookAgentChoices(', ')}`, value ?? pair.key);
        break;
      }
      case 'include':
      case 'ignore': {
        const list = typeof js === 'string' ? [js] : js;
        if (!Array.isArray(list) || !list.every((g): g is string => typeof g === 'string')) {
          problem('lint/config-invalid', 'error', `\`${key}\` must be a list of globs`, value ?? pair.key);
          break;
        }
        // Each glob is checked here, where its line is known: a bad one is a located error and is left out.
        const nodes = isSeq(value) ? value.items : [value];
        config[key] = list.filter((g, i) => {
          const c = compileGlob(g, { gitignore: true });
          if (!c.ok) problem('lint/config-invalid', 'error', `invalid glob \`${printable(g)}\` in \`${key}\`: ${c.error}`, nodes[i] ?? value, GLOB_HELP);
          return c.ok;
        });
        break;
      }
      case 'categories': {
        if (!isMap(value)) {
          problem('lint/config-invalid', 'error', '`categories` must be a mapping of category to severity', value ?? pair.key);
          break;
        }
        for (const item of value.items) {
          const cat = isScalar(item.key) ? String(item.key.value) : '';
          const sev = isScalar(item.value) ? item.value.value : undefined;
          if (!(CATEGORIES as readonly string[]).includes(cat)) {
            problem('lint/config-invalid', 'error', `unknown category \`${cat}\``, item.key, `categories are ${CATEGORIES.join(', ')}`);
          } else if (!isSeverity(sev)) {
            problem('lint/config-invalid', 'error', `invalid severity \`${String(sev)}\` for category \`${cat}\``, item.value ?? item.key, 'use off, info, warning or error');
          } else {
            config.categories[cat as Category] = sev;
          }
        }
        break;
      }
      case 'rules': {
        if (!isMap(value)) {
          problem('lint/config-invalid', 'error', '`rules` must be a mapping of rule id to severity', value ?? pair.key);
          break;
        }
        for (const item of value.items) {
          const id = isScalar(item.key) ? String(item.key.value) : '';
          const raw: unknown = isScalar(item.value) ? item.value.value : (item.value as { toJSON?: () => unknown } | null)?.toJSON?.();
          const setting = ruleSetting(raw);
          if (setting === undefined) {
            problem('lint/config-invalid', 'error', `invalid setting for rule \`${id}\``, item.value ?? item.key, 'use a severity (off, info, warning, error), `[severity, {options}]` or `{severity, options}`');
            continue;
          }
          const prefix = id.includes('/') ? `${id.slice(0, id.indexOf('/'))}/` : '';
          if (!known.has(id) && known.size > 0 && knownPrefixes.has(prefix) && prefix !== 'compiler/') {
            problem('lint/config-unknown-rule', 'warning', `unknown rule \`${id}\``, item.key, didYouMean(id, [...known]));
          }
          config.rules[id] = setting;
        }
        break;
      }
      default:
        problem('lint/config-invalid', 'error', `unknown configuration key \`${key}\``, pair.key, 'keys are driver, hook-agent, include, ignore, categories and rules');
    }
  }
  return { config, diagnostics };
}

const GLOB_HELP =
  'globs are read as `.gitignore` lines: `*`, `?`, `**`, `[…]` and `{a,b}`, `\\` escapes the next character; a glob with no `/` names a file or folder at any depth';

function isSeverity(v: unknown): v is SeverityLevel {
  return typeof v === 'string' && (SEVERITY_LEVELS as readonly string[]).includes(v);
}

function ruleSetting(raw: unknown): RuleSetting | undefined {
  if (isSeverity(raw)) return { severity: raw };
  if (Array.isArray(raw) && isSeverity(raw[0]) && raw.length <= 2) {
    const opts: unknown = raw[1];
    if (opts === undefined) return { severity: raw[0] };
    if (typeof opts === 'object' && opts !== null && !Array.isArray(opts)) {
      return { severity: raw[0], options: opts as Record<string, unknown> };
    }
    return undefined;
  }
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const o = raw as Record<string, unknown>;
    if (!isSeverity(o.severity)) return undefined;
    if (Object.keys(o).some((k) => k !== 'severity' && k !== 'options')) return undefined;
    const opts = o.options;
    if (opts === undefined) return { severity: o.severity };
    if (typeof opts === 'object' && opts !== null && !Array.isArray(opts)) {
      return { severity: o.severity, options: opts as Record<string, unknown> };
    }
  }
  return undefined;
}

function didYouMean(id: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const d = editDistance(id, k);
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(id.length / 4)) ? `did you mean \`${best}\`?` : undefined;
}
