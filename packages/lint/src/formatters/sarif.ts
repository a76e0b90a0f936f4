/**
 * `sarif`: SARIF 2.1.0 for code-scanning services. Every rule of the catalogue is listed in
 * `tool.driver.rules` (with its docs page as `helpUri`), plus the compiler codes that occur;
 * results carry stable `partialFingerprints`, and suppressed findings are included with an
 * `inSource` suppression. A file that failed to parse still yields valid SARIF: its findings
 * point at the file, with a region when the compiler gave one.
 */
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FileResult, Formatter, FormatterContext, LintMessage, Rule } from '../types.ts';
import { ruleFileName } from '../create-rule.ts';
import { allRules } from '../rules/index.ts';

export const DEFAULT_DOCS_BASE_URL = 'https://github.com/verdict-policy/verdict/blob/main/packages/lint/docs/';
const LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;

interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  helpUri: string;
  help: { text: string };
  defaultConfiguration: { level: 'error' | 'warning' | 'note' | 'none'; enabled?: boolean };
  properties: { category: string; tags: string[] };
}

function fileUri(file: string): { uri: string; uriBaseId?: string } {
  if (isAbsolute(file)) return { uri: pathToFileURL(file).href };
  return { uri: file.split('/').map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
}

function ruleName(id: string): string {
  return id
    .split(/[/-]/)
    .map((w) => (w === '' ? w : w[0]?.toUpperCase() + w.slice(1)))
    .join('');
}

function describeRule(rule: Rule, base: string): SarifRule {
  const level = rule.meta.severity === 'off' ? 'none' : LEVEL[rule.meta.severity];
  return {
    id: rule.id,
    name: ruleName(rule.id),
    shortDescription: { text: rule.meta.description.replace(/`/g, '') },
    helpUri: `${base}rules/${ruleFileName(rule.id)}.md`,
    help: { text: rule.meta.description },
    defaultConfiguration: rule.meta.severity === 'off' ? { level: 'none', enabled: false } : { level },
    properties: { category: rule.meta.category, tags: [rule.meta.category] },
  };
}

function compilerRule(code: string, base: string, sample: LintMessage): SarifRule {
  return {
    id: code,
    name: ruleName(code),
    shortDescription: { text: `compiler diagnostic ${code}` },
    helpUri: `${base}compiler-diagnostics.md`,
    help: { text: `reported by the verdict compiler; see the compiler diagnostics page` },
    defaultConfiguration: { level: LEVEL[sample.severity] },
    properties: { category: 'compiler', tags: ['compiler'] },
  };
}

export const sarif: Formatter = (results: readonly FileResult[], ctx: FormatterContext = {}): string => {
  const base = ctx.docsBaseUrl ?? DEFAULT_DOCS_BASE_URL;
  const catalogue = ctx.rules ?? allRules;
  const rules: SarifRule[] = catalogue.map((r) => describeRule(r, base));
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const artifacts: { location: { uri: string; uriBaseId?: string } }[] = [];
  const artifactIndex = new Map<string, number>();
  const sarifResults: unknown[] = [];

  const emit = (r: FileResult, m: LintMessage, suppressed: boolean): void => {
    if (!index.has(m.ruleId)) {
      index.set(m.ruleId, rules.length);
      rules.push(compilerRule(m.ruleId, base, m));
    }
    let ai = artifactIndex.get(r.file);
    if (ai === undefined) {
      ai = artifacts.length;
      artifactIndex.set(r.file, ai);
      artifacts.push({ location: fileUri(r.file) });
    }
    const physical = (span: LintMessage['span'], file: string) => ({
      artifactLocation: { ...fileUri(file), ...(file === r.file ? { index: ai } : {}) },
      ...(span !== undefined
        ? {
            region: {
              startLine: span.start.line,
              startColumn: span.start.column,
              endLine: span.end.line,
              endColumn: span.end.column,
              charOffset: span.start.offset,
              charLength: Math.max(0, span.end.offset - span.start.offset),
            },
          }
        : {}),
    });
    const text = m.help !== undefined ? `${m.message}. ${m.help}` : m.message;
    sarifResults.push({
      ruleId: m.ruleId,
      ruleIndex: index.get(m.ruleId),
      level: LEVEL[m.severity],
      message: { text },
      locations: [{ physicalLocation: physical(m.span, r.file) }],
      partialFingerprints: { 'verdictFindingHash/v1': m.fingerprint },
      ...(m.related !== undefined && m.related.length > 0
        ? {
            relatedLocations: m.related.map((rel, id) => ({
              id,
              message: { text: rel.message },
              ...(rel.span !== undefined ? { physicalLocation: physical(rel.span, rel.span.file) } : {}),
            })),
          }
        : {}),
      ...(suppressed ? { suppressions: [{ kind: 'inSource' }] } : {}),
      // The safe rewrite, as SARIF's `fixes` (offsets in UTF-16 code units, as `charOffset` above).
      ...(m.fix !== undefined && !suppressed
        ? {
            fixes: [
              {
                description: { text: `fix \`${m.ruleId}\`` },
                artifactChanges: [
                  {
                    artifactLocation: { ...fileUri(r.file), index: ai },
                    replacements: [
                      { deletedRegion: { charOffset: m.fix.range[0], charLength: m.fix.range[1] - m.fix.range[0] }, insertedContent: { text: m.fix.text } },
                    ],
                  },
                ],
              },
            ],
          }
        : {}),
      properties: { category: m.category },
    });
  };
  for (const r of results) {
    for (const m of r.messages) emit(r, m, false);
    for (const m of r.suppressed) emit(r, m, true);
  }
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'verdict',
            informationUri: base.replace(/packages\/lint\/docs\/$/, ''),
            version: ctx.toolVersion ?? '0.1.0',
            rules,
          },
        },
        ...(ctx.cwd !== undefined
          ? { originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(ctx.cwd.endsWith('/') ? ctx.cwd : `${ctx.cwd}/`).href } } }
          : {}),
        artifacts,
        columnKind: 'utf16CodeUnits',
        results: sarifResults,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
};
