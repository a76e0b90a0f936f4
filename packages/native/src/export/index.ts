/**
 * `verdict export`'s library side: a Verdict approver written as each agent's own permission file,
 * never looser than the policy (native-formats.md §7.4), with every rule it does not carry listed.
 */
import type { ApproverIR, RuleList } from '@verdict/engine';
import type { NativeAgent } from '../types.ts';
import { exportClaude } from './claude.ts';
import { exportCodex } from './codex.ts';
import { exportCursor } from './cursor.ts';
import { exportGemini } from './gemini.ts';
import { namesOf, SHELL_TOOL } from './plan.ts';
import type { ExportDropped, ExportOptions, ExportResult } from './plan.ts';

export { SHELL_TOOL } from './plan.ts';

/** The names the agent's shell call answers to in Verdict (its own tool name, then `shell`), as the hook asks them. */
export function exportShellNames(agent: NativeAgent): string[] {
  return namesOf(agent, SHELL_TOOL[agent]);
}

export type { ExportCarried, ExportDropped, ExportOptions, ExportResult, ExportRuleRef } from './plan.ts';

/** The agents `verdict export` writes for. */
export const EXPORT_AGENTS: readonly NativeAgent[] = ['claude', 'codex', 'gemini', 'cursor'];

const LIST_ORDER: Record<RuleList, number> = { deny: 0, ask: 1, allow: 2 };

/** Rules in the policy's order (deny, ask, allow, each by index), then the approver's settings and the general notes. */
function sortDropped(dropped: readonly ExportDropped[]): ExportDropped[] {
  return dropped
    .map((d, i) => ({ d, i }))
    .sort((a, b) => {
      const ra = a.d.rule;
      const rb = b.d.rule;
      if (ra && rb) return LIST_ORDER[ra.list] - LIST_ORDER[rb.list] || ra.index - rb.index || a.i - b.i;
      if (ra) return -1;
      if (rb) return 1;
      return a.i - b.i;
    })
    .map((x) => x.d);
}

export function exportNative(ir: ApproverIR, agent: NativeAgent, options: ExportOptions = {}): ExportResult {
  const r = ((): ExportResult => {
    switch (agent) {
      case 'codex':
        return exportCodex(ir, options);
      case 'gemini':
        return exportGemini(ir, options);
      case 'claude':
        return exportClaude(ir, options);
      case 'cursor':
        return exportCursor(ir, options);
    }
  })();
  return { ...r, dropped: sortDropped(r.dropped) };
}
