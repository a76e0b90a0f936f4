/**
 * Inline suppressions: `# verdict-disable-next-line rule-a, rule-b -- why` on its own line (YAML and
 * `.verdict` comments) silences those rules on the next line; with no rule list, every rule. JSON
 * has no comments and so no suppressions.
 */
import type { Span } from '@verdict/engine';
import type { LintMessage } from './types.ts';
import { isBlocking } from '@verdict/compiler';
import type { SourceInfo } from './support/source.ts';

export interface Suppression {
  /** Rule ids; empty means every rule. */
  rules: string[];
  /** The suppressed line (1-based). */
  line: number;
  reason?: string;
  span: Span;
  /** Rule ids (or `*`) that silenced at least one finding. */
  used: Set<string>;
}

const DIRECTIVE = /^([ \t]*)#[ \t]*verdict-disable-next-line(?=[ \t]|$)([^\n\r]*)$/gm;

export function findSuppressions(source: SourceInfo): Suppression[] {
  if (source.syntax === 'json') return [];
  const out: Suppression[] = [];
  for (let m = DIRECTIVE.exec(source.text); m !== null; m = DIRECTIVE.exec(source.text)) {
    const start = m.index + (m[1]?.length ?? 0);
    const span = source.span(start, m.index + m[0].length);
    const rest = m[2] ?? '';
    const sep = rest.indexOf('--');
    const list = sep < 0 ? rest : rest.slice(0, sep);
    const reason = sep < 0 ? undefined : rest.slice(sep + 2).trim();
    const rules = list
      .split(/[,\s]+/)
      .map((s) => s.trim())
      .filter((s) => s !== '');
    out.push({ rules, line: span.start.line + 1, span, used: new Set(), ...(reason ? { reason } : {}) });
  }
  return out;
}

/** Findings that can never be silenced: the linter's own failures, and the compiler's errors (the file cannot load). */
const UNSUPPRESSIBLE = new Set(['lint/internal-error', 'lint/unused-suppression']);
// Nor can an error that stops the compiler: a file no command can load.
const unsuppressible = (m: LintMessage): boolean =>
  UNSUPPRESSIBLE.has(m.ruleId) || (m.source === 'compiler' && isBlocking({ code: m.ruleId, severity: m.severity, message: m.message }));

/** Splits findings into kept and suppressed, marking which suppressions were used. */
export function applySuppressions(
  messages: readonly LintMessage[],
  suppressions: readonly Suppression[],
): { kept: LintMessage[]; suppressed: LintMessage[] } {
  const kept: LintMessage[] = [];
  const suppressed: LintMessage[] = [];
  for (const msg of messages) {
    const line = msg.span?.start.line;
    let hit = false;
    if (line !== undefined && !unsuppressible(msg)) {
      for (const s of suppressions) {
        if (s.line !== line) continue;
        if (s.rules.length === 0) {
          s.used.add('*');
          hit = true;
        } else if (s.rules.includes(msg.ruleId)) {
          s.used.add(msg.ruleId);
          hit = true;
        }
      }
    }
    (hit ? suppressed : kept).push(msg);
  }
  return { kept, suppressed };
}
