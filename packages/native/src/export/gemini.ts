/**
 * A Gemini CLI policy TOML from a Verdict approver. Gemini takes the first rule by priority, so the
 * order is written into the priorities: denies at 900, asks at 500, allows at 100 (an allow can never
 * be tried before a deny or an ask that also matches), and at 0 an `ask_user` for every shell command
 * (with a pattern, so that Gemini's own shell heuristics, which can turn an ask into an allow, never run)
 * and one for every other tool.
 *
 * Shell denies and asks are `commandPrefix` rules (Gemini re-checks each part of a compound command and
 * the script of `sh -c`); shell allows are exact commands only, as a `commandRegex` that ends with the
 * command text's closing quote.
 */
import type { ApproverIR } from '@verdict/engine';
import type { ExportCarried, ExportDropped, ExportOptions, ExportResult } from './plan.ts';
import { checkExact, headerLines, planExport, prefixTexts, settingsDropped } from './plan.ts';

/** Every command text (newlines too): a pattern that keeps Gemini CLI's shell heuristics off. */
const ANY_COMMAND = '[\\s\\S]*';

export const GEMINI_PRIORITY = { deny: 900, ask: 500, allow: 100, fallback: 0 } as const;

/** How many `commandPrefix` alternatives one rule may expand to before its prefix is shortened (broader). */
const MAX_PREFIXES = 64;

function str(s: string): string {
  return JSON.stringify(s);
}

/** A JavaScript regex matching `text` literally. */
function regexLiteral(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}

export function exportGemini(ir: ApproverIR, options: ExportOptions = {}): ExportResult {
  const plan = planExport(ir, 'gemini', options);
  const dropped: ExportDropped[] = [...plan.dropped];
  const carried: ExportCarried[] = [];
  const rules: string[] = [];
  const push = (lines: string[]): void => void rules.push(['[[rule]]', ...lines].join('\n'));

  for (const p of plan.prefixes) {
    const { texts, cut } = prefixTexts(p.command, MAX_PREFIXES);
    const decision = p.decision === 'deny' ? 'deny' : 'ask_user';
    if (texts.length === 0 || texts.some((t) => t.trim() === '')) {
      dropped.push({ rule: p.rule, where: p.where, why: 'its prefix has no text Gemini CLI can match' });
      continue;
    }
    const prefix = texts.length === 1 ? str(texts[0]!) : `[${texts.map(str).join(', ')}]`;
    push([
      `toolName = ${str(plan.shellTool)}`,
      `commandPrefix = ${prefix}`,
      `decision = ${str(decision)}`,
      `priority = ${GEMINI_PRIORITY[p.decision]}`,
      ...(p.decision === 'deny' ? [`denyMessage = ${str(`denied by the Verdict policy: ${p.where}`)}`] : []),
    ]);
    const native = `commandPrefix = ${prefix} (${decision})`;
    carried.push({ rule: p.rule, where: p.where, native });
    const broader = [...p.broader, ...(cut ? [`its alternatives stand for more than ${MAX_PREFIXES} commands: only the first words are carried`] : [])];
    if (broader.length > 0) dropped.push({ rule: p.rule, where: p.where, why: `carried broader: ${broader.join('; ')}`, carriedAs: [native] });
  }

  for (const t of plan.tools) {
    const decision = t.list === 'deny' ? 'deny' : t.list === 'ask' ? 'ask_user' : 'allow';
    const deny = t.list === 'deny' ? [`denyMessage = ${str(`denied by the Verdict policy: ${t.where}`)}`] : [];
    const natives: string[] = [];
    // The shell tool gets a pattern: without one, Gemini CLI's own heuristics may turn its ask into an allow.
    if (t.tools.includes(plan.shellTool)) {
      push([`toolName = ${str(plan.shellTool)}`, `commandRegex = ${str(ANY_COMMAND)}`, `decision = ${str(decision)}`, `priority = ${GEMINI_PRIORITY[t.list]}`, ...deny]);
      natives.push(`toolName = ${str(plan.shellTool)}, commandRegex = ${str(ANY_COMMAND)} (${decision})`);
    }
    const others = t.tools.filter((n) => n !== plan.shellTool);
    if (others.length > 0) {
      const names = others.length === 1 ? str(others[0]!) : `[${others.map(str).join(', ')}]`;
      push([`toolName = ${names}`, `decision = ${str(decision)}`, `priority = ${GEMINI_PRIORITY[t.list]}`, ...deny]);
      natives.push(`toolName = ${names} (${decision})`);
    }
    carried.push({ rule: t.rule, where: t.where, native: natives.join(', ') });
  }

  // Exact allows: Gemini matches the whole text (and each part of a compound command) against the regex;
  // the same text, and no other, is what Verdict is asked about.
  const { kept, dropped: refused } = checkExact(plan, options, (argv) => [argv.join(' ')], 'Gemini CLI matches this text');
  dropped.push(...refused);
  for (const e of kept) {
    const text = e.argv.join(' ');
    const regex = `${regexLiteral(JSON.stringify(text).slice(1, -1))}"`;
    push([`toolName = ${str(plan.shellTool)}`, `commandRegex = ${str(regex)}`, `decision = "allow"`, `priority = ${GEMINI_PRIORITY.allow}`]);
    carried.push({ rule: e.rule, where: e.where, native: `commandRegex = ${str(regex)} (allow: exactly \`${text}\`)` });
  }

  // The fallbacks: every shell command asks (a pattern, so the heuristics stay off), then every other call.
  push([`toolName = ${str(plan.shellTool)}`, `commandRegex = ${str(ANY_COMMAND)}`, `decision = "ask_user"`, `priority = ${GEMINI_PRIORITY.fallback}`]);
  push([`toolName = "*"`, `decision = "ask_user"`, `priority = ${GEMINI_PRIORITY.fallback}`]);

  if (plan.prefixes.length > 0) {
    dropped.push({ where: 'every deny and ask', why: 'Gemini CLI matches the start of the text: a carried rule does not see the program behind a wrapper (`timeout 5 rm`, `env rm`), after an assignment, at another path (`/bin/rm`), quoted (`\\rm`, `"rm"`), or with options before the sub-command (`git -C . push`)' });
  }
  dropped.push({ where: 'where Gemini CLI reads it', why: 'a user policy: Gemini CLI does not load workspace `.gemini/policies` files, so copy it to `~/.gemini/policies/` (not as a symbolic link: those are skipped)' });
  dropped.push(...settingsDropped(ir));
  const header = headerLines('gemini', options).map((l) => `# ${l}`);
  const text = `${header.join('\n')}\n\n${rules.join('\n\n')}\n`;
  return { agent: 'gemini', path: '.gemini/policies/verdict.toml', text, carried, dropped };
}
