/**
 * The formats of a `verdict diff` report that has a native side (and, for github, sarif and markdown, of
 * two Verdict policies too): text, json, GitHub workflow annotations on the new file's rule lines, SARIF
 * 2.1.0 through lint's formatter, and a Markdown pull-request comment.
 */
import { createHash } from 'node:crypto';
import type { Span } from '@verdict/engine';
import { ruleLabel } from '@verdict/engine';
import type { DiffChange, PolicyDiff } from '@verdict/analysis';
import { formatters } from '@verdict/lint';
import type { FileResult, LintMessage, Rule } from '@verdict/lint';
import type { Direction, NativeDiffChange, NativeDiffReport, SideDecision, SideInfo } from './native-diff.ts';
import { VERSION } from './version.ts';

const KIND: Readonly<Record<SideInfo['kind'], string>> = {
  verdict: 'Verdict policy',
  'claude-settings': 'Claude Code settings',
  'codex-rules': 'Codex rules',
  'codex-requirements': 'Codex requirements',
  'gemini-policy': 'Gemini CLI policy',
  'gemini-settings': 'Gemini CLI settings',
  'cursor-cli': 'Cursor CLI permissions',
};

const NO_RULE: Readonly<Record<string, string>> = {
  claude: "no rule: Claude Code's permission mode decides",
  codex: "no rule: Codex's own heuristics and approval_policy decide",
  gemini: 'no rule: Gemini CLI asks (its default)',
  cursor: "no rule: Cursor's approval mode decides",
};

const TITLE: Readonly<Record<Direction, string>> = {
  'newly-allowed': 'newly allowed (the new side allows what the old one does not)',
  'newly-unruled': 'newly left to the agent (no rule of the new side decides what a rule of the old side did)',
  'newly-asked': 'newly asked (the new side asks where the old one does not)',
  'newly-denied': 'newly denied (the new side denies what the old one does not)',
};

const SHORT: Readonly<Record<Direction, string>> = {
  'newly-allowed': 'newly allowed',
  'newly-unruled': 'newly left to the agent',
  'newly-asked': 'newly asked',
  'newly-denied': 'newly denied',
};

const DIRECTIONS: readonly Direction[] = ['newly-allowed', 'newly-unruled', 'newly-asked', 'newly-denied'];

function decidedText(d: SideDecision, side: SideInfo): string {
  if (d.rule !== undefined) {
    const where = `${d.rule.file}:${d.rule.line}:${d.rule.column}`;
    return side.kind === 'verdict' ? `${d.decision} by ${d.rule.text} (${where})` : `${d.decision} by \`${d.rule.text}\` (${where})`;
  }
  if (d.decision === 'none') return NO_RULE[side.agent ?? ''] ?? 'no rule';
  return `${d.decision} by ${d.reason ?? 'no rule'}`;
}

export function renderNativeText(r: NativeDiffReport): string {
  const lines = [`verdict: ${r.verdict}`, `old: ${r.old.file} (${KIND[r.old.kind]})`, `new: ${r.new.file} (${KIND[r.new.kind]})`];
  if (r.proof !== undefined) lines.push(`proof: ${r.proof}`);
  for (const direction of DIRECTIONS) {
    const changes = r.changes.filter((c) => c.direction === direction);
    lines.push('', `${TITLE[direction]}: ${changes.length === 0 ? 'none' : `${changes.length} program${changes.length === 1 ? '' : 's'}`}`);
    for (const c of changes) lines.push(`  ${c.command}`, `    old: ${decidedText(c.old, r.old)}`, `    new: ${decidedText(c.new, r.new)}`);
  }
  if (r.unknown.length > 0) lines.push('');
  for (const why of r.unknown) lines.push(`unknown: ${why}`);
  lines.push('', `(${r.candidates} candidate commands decided by both sides; one witness per program and direction)`);
  return `${lines.join('\n')}\n`;
}

/* ------------------------------------------------------------------------------------------------ */
/* Two Verdict policies in the review formats                                                         */

/** `diffPolicies`' answer in the native report's shape (for github, sarif and markdown only: text and json stay as they are). */
export function policyDiffReport(d: PolicyDiff, oldFile: string, newFile: string): NativeDiffReport {
  const side = (s: DiffChange['old']): SideDecision => {
    const out: SideDecision = { decision: s.decision, cannotDecide: [] };
    if (s.rule !== null) out.rule = { file: s.rule.span?.file ?? '', text: ruleLabel(s.rule), written: s.decision, line: s.rule.span?.start.line ?? 1, column: s.rule.span?.start.column ?? 1, ...(s.rule.span ? { span: s.rule.span } : {}) };
    else out.reason = s.by === 'command' ? `the command rules: ${s.reason}` : 'the default';
    return out;
  };
  const rank = { allow: 0, ask: 2, deny: 3 } as const;
  return {
    verdict: d.verdict,
    old: { file: oldFile, kind: 'verdict', loadErrors: [] },
    new: { file: newFile, kind: 'verdict', loadErrors: [] },
    changes: d.changes.map((c): NativeDiffChange => ({ direction: c.direction, looser: rank[c.new.decision] < rank[c.old.decision], program: c.toolName, tool: c.toolName, command: `${c.toolName} ${c.input}`, old: side(c.old), new: side(c.new) })),
    candidates: 0,
    unknown: d.unknown,
  };
}

/* ------------------------------------------------------------------------------------------------ */
/* github and sarif, through lint's formatters                                                        */

const DOCS = 'https://github.com/verdict-policy/verdict/blob/main/docs/native/README.md#verdict-diff';

const CATALOGUE: readonly Rule[] = DIRECTIONS.map((direction) => ({
  id: `diff/${direction}`,
  meta: {
    description: `a call the new file decides differently: ${TITLE[direction]}`,
    severity: 'warning',
    category: 'native',
    messages: {},
    docs: { recommended: true },
  },
  create() {},
})) as unknown as Rule[];

function message(c: NativeDiffChange, r: NativeDiffReport, annotate: string): LintMessage {
  const span: Span | undefined = c.new.rule?.span !== undefined ? { ...c.new.rule.span, file: annotate } : undefined;
  const text = `\`${c.command}\` is ${SHORT[c.direction]}: old ${decidedText(c.old, r.old)}; new ${decidedText(c.new, r.new)}`;
  return {
    ruleId: `diff/${c.direction}`,
    category: 'native',
    severity: c.looser ? 'warning' : 'info',
    message: text,
    ...(span !== undefined ? { span } : {}),
    source: 'linter',
    fingerprint: createHash('sha256').update(`${c.direction}\0${c.program}\0${c.command}`).digest('hex').slice(0, 32),
  };
}

function results(r: NativeDiffReport, annotate: string): FileResult[] {
  const messages = r.changes.map((c) => message(c, r, annotate));
  const count = (s: LintMessage['severity']) => messages.filter((m) => m.severity === s).length;
  return [{ file: annotate, messages, suppressed: [], errorCount: 0, warningCount: count('warning'), infoCount: count('info') } as unknown as FileResult];
}

/** GitHub workflow annotations on the new file's rule lines (`::warning file=…,line=…::`): a looser call warns, a stricter one is a notice. */
export function renderGithub(r: NativeDiffReport, annotate: string): string {
  const head = `::notice title=verdict diff::${r.verdict}: ${r.changes.length} change${r.changes.length === 1 ? '' : 's'} from ${r.old.file} to ${r.new.file}\n`;
  return head + formatters.github(results(r, annotate));
}

export function renderSarif(r: NativeDiffReport, annotate: string, cwd: string): string {
  const log = JSON.parse(formatters.sarif(results(r, annotate), { rules: CATALOGUE, toolVersion: VERSION, cwd })) as { runs: { tool: { driver: { rules: { helpUri: string }[] } }; properties?: unknown }[] };
  for (const rule of log.runs[0]!.tool.driver.rules) rule.helpUri = DOCS;
  log.runs[0]!.properties = { verdict: r.verdict, unknown: r.unknown };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/* ------------------------------------------------------------------------------------------------ */
/* markdown                                                                                           */

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (s: string): string => {
  const ticks = /`/.test(s) ? '``' : '`';
  return cell(`${ticks}${ticks === '``' ? ' ' : ''}${s}${ticks === '``' ? ' ' : ''}${ticks}`);
};

/** A pull-request comment: the verdict, a table of witnesses, what stays unknown. */
export function renderMarkdown(r: NativeDiffReport): string {
  const lines = [`### verdict diff: **${r.verdict}**`, '', `\`${r.old.file}\` (${KIND[r.old.kind]}) → \`${r.new.file}\` (${KIND[r.new.kind]})`];
  if (r.proof !== undefined) lines.push('', `Proof: ${r.proof}.`);
  if (r.changes.length === 0) lines.push('', 'No candidate call is decided differently.');
  else {
    lines.push('', '| change | witness | old | new |', '|---|---|---|---|');
    for (const c of r.changes) lines.push(`| ${c.looser ? '⚠️ ' : ''}${SHORT[c.direction]} | ${code(c.command)} | ${cell(decidedText(c.old, r.old))} | ${cell(decidedText(c.new, r.new))} |`);
  }
  if (r.unknown.length > 0) {
    lines.push('', '**Unknown**', '');
    for (const u of r.unknown) lines.push(`- ${u}`);
  }
  if (r.candidates > 0) lines.push('', `<sub>${r.candidates} candidate commands decided by both sides; one witness per program and direction.</sub>`);
  return `${lines.join('\n')}\n`;
}
