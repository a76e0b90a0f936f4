import { LanguageCache, atom, findWitness, makeBudget } from '@verdict/analysis';
import { commandAlternatives, commandCombinations, isCommandRule, type ApproverIR, type RuleIR, type RuleList } from '@verdict/engine';
import { programKey, show, showPrefix, type ShellCommand } from '@verdict/shell';
import { createRule } from '../create-rule.ts';
import { ruleLabel, sameTool } from '../support/approver-facts.ts';
import { asCommandValue, MAX_COMBINATIONS, wrappedCommands } from '../support/command-rules.ts';
import { PRIVILEGED } from './rules-command-allows-anything.ts';

/**
 * A command rule (docs/shell.md) that cannot decide any call:
 *
 * - an `args` or `redirect` regex whose language (matched whole) is empty, decided on the regex's
 *   automaton by the analysis module (`findWitness`), as `analysis/dead-rule` decides patterns;
 * - an allow rule whose prefix makes a wrapper run a command (`[timeout, 5, ls]`): the extraction
 *   judges the inner command, never the wrapper, so the rule matches nothing. Decided by running the
 *   extraction of `@verdict/shell` on the prefix words (every combination of alternatives, up to a
 *   bound; over it, nothing is said);
 * - an allow rule that a deny or ask command rule always overrides: that rule has no `args` or
 *   `redirect`, names every program of the allow rule (by base name, case-folded), and its further
 *   words are found, in order, among the allow rule's prefix words (each alternative included).
 *
 * A command rule for a tool outside `shell:` is the compiler's error (`command/not-shell-tool`).
 */
export default createRule({
  id: 'rules/command-never-matches',
  meta: {
    description: 'a command rule that can never decide a call: an `args` or `redirect` regex that matches nothing, an allow of a wrapper already given its command (`[nohup, make]`), an allow a deny or ask command rule always overrides',
    severity: 'warning',
    category: 'rules',
    messages: {
      emptyArgs: 'this allow rule never applies: its `args` pattern `{{pattern}}` matches no text, not even the empty one',
      emptyArgsLoose: 'the `args` pattern `{{pattern}}` of this {{list}} rule matches no text: the rule applies only when a word after `{{prefix}}` is not static (`$x`, a glob), never to plain words',
      emptyRedirect: 'this allow rule never applies: its `redirect` pattern `{{pattern}}` matches no path',
      emptyRedirectWithCommand: 'the `redirect` pattern `{{pattern}}` of this allow rule matches no path: the rule never allows a write, only `{{prefix}}` writing nowhere',
      emptyRedirectLoose: 'the `redirect` pattern `{{pattern}}` of this {{list}} rule matches no path: the rule applies only to a write whose target is not static (`> $f`)',
      wrapped: 'this allow rule never applies: `{{words}}` runs `{{inner}}`, and command rules judge the command a wrapper runs, not `{{wrapper}}` itself',
      overridden: 'this allow rule never applies: every command it matches is also matched by {{list}} rule {{label}} `{{by}}`, and {{list}} wins over allow',
      overriddenBy: '{{list}} rule that overrides it',
    },
    help: {
      emptyArgs: 'the pattern contradicts itself (an anchor or a boundary that cannot hold where it stands); rewrite or delete the rule',
      emptyArgsLoose: 'the pattern contradicts itself (an anchor or a boundary that cannot hold where it stands); rewrite it',
      emptyRedirect: 'the pattern contradicts itself (an anchor or a boundary that cannot hold where it stands); rewrite or delete the rule',
      emptyRedirectWithCommand: 'rewrite the pattern, or drop `redirect` if the command is not meant to write',
      emptyRedirectLoose: 'the pattern contradicts itself (an anchor or a boundary that cannot hold where it stands); rewrite it',
      wrapped: 'write the rule for the command itself, e.g. `command: {{innerPrefix}}`: the judge looks through `{{wrapper}}`, so that rule allows it run under `{{wrapper}}` too',
      overridden: 'narrow the {{list}} rule (with further words or `args`), or delete this allow rule',
    },
    docs: { recommended: true },
  },
  create(ctx) {
    let cache: LanguageCache | undefined;
    /** Whether a regex matches no text at all (matched whole); `false` when undecided. */
    const matchesNothing = (pattern: string): boolean => {
      if (!ctx.regex(pattern).ok) return false;
      cache ??= new LanguageCache();
      const dfa = cache.valueDfa('\u0000command-rule', pattern);
      if (dfa === null) return false;
      return findWitness(atom(dfa), makeBudget()).status === 'empty';
    };

    return {
      rule(rule, list, _index, approver) {
        if (!isWellFormed(rule, ctx.regex)) return;
        const prefix = rule.command === undefined ? '' : shownArgv(rule.command);

        if (rule.args !== undefined && matchesNothing(rule.args)) {
          const data = { pattern: rule.args, list, prefix };
          ctx.report({ span: rule.argsSpan ?? rule.span, messageId: list === 'allow' ? 'emptyArgs' : 'emptyArgsLoose', data });
          if (list === 'allow') return;
        }
        if (rule.redirect !== undefined && matchesNothing(rule.redirect)) {
          const data = { pattern: rule.redirect, list, prefix };
          const messageId = list !== 'allow' ? 'emptyRedirectLoose' : rule.command === undefined ? 'emptyRedirect' : 'emptyRedirectWithCommand';
          ctx.report({ span: rule.redirectSpan ?? rule.span, messageId, data });
          if (messageId === 'emptyRedirect') return;
        }
        if (list !== 'allow' || rule.command === undefined) return;

        const wrapped = wrappedPrefix(rule.command, approver);
        if (wrapped !== null) {
          ctx.report({ span: rule.commandSpan ?? rule.span, messageId: 'wrapped', data: wrapped });
          return;
        }

        const by = overridingRule(rule, approver);
        if (by !== null) {
          ctx.report({
            span: rule.commandSpan ?? rule.span,
            messageId: 'overridden',
            data: { list: by.list, label: ruleLabel(by.list, by.index), by: showPrefix(by.rule.command!) },
            related: [{ messageId: 'overriddenBy', node: by.rule, data: { list: by.list } }],
          });
        }
      },
    };
  },
});

/** A command rule the engine loads (the compiler reports the others). */
function isWellFormed(rule: RuleIR, regex: (p: string) => { ok: boolean }): boolean {
  if (!isCommandRule(rule) || rule.match !== '' || rule.field !== undefined) return false;
  if (rule.command === undefined ? rule.redirect === undefined || rule.args !== undefined : commandAlternatives(rule.command).some((a) => a.length === 0) || rule.command.length === 0) return false;
  return [rule.args, rule.redirect].every((p) => p === undefined || regex(p).ok);
}

/** `git (status|diff)`: a prefix as a person reads it. */
function shownArgv(command: readonly (string | readonly string[])[]): string {
  return showPrefix(command).slice(1, -1);
}

/**
 * The first argv of an allow rule's prefix, when every argv it stands for makes a wrapper (or a
 * shell's `-c`, or `eval`) run another command. Wrappers that lend privileges are
 * `rules/command-allows-anything`'s to report.
 */
function wrappedPrefix(command: readonly (string | readonly string[])[], approver: ApproverIR): Record<string, string> | null {
  const argvs = commandCombinations(command, MAX_COMBINATIONS);
  if (argvs === null) return null;
  let first: { words: string[]; inner: ShellCommand[] } | undefined;
  for (const words of argvs) {
    if (PRIVILEGED.includes(programKey(words[0]!))) return null;
    const inner = wrappedCommands(words, approver.wrappers ?? {});
    if (inner === null) return null;
    first ??= { words, inner };
  }
  if (first === undefined) return null;
  const cmd = first.inner[0]!;
  return {
    words: show({ program: first.words[0]!, args: first.words.slice(1) }),
    inner: first.inner.map((c) => show(c)).join('`, `'),
    wrapper: first.words[0]!,
    innerPrefix: asCommandValue([cmd.program, ...cmd.args]),
  };
}

/**
 * The first deny (then ask) command rule that matches every command `allow` matches: no `args` or
 * `redirect`, every program of `allow` among its programs by base name (case-folded, at any path),
 * and its further words a subsequence of `allow`'s (every alternative at the position included).
 */
function overridingRule(allow: RuleIR, approver: ApproverIR): { list: RuleList; index: number; rule: RuleIR } | null {
  const mine = commandAlternatives(allow.command!);
  for (const list of ['deny', 'ask'] as const) {
    const rules = list === 'deny' ? approver.deny : (approver.ask ?? []);
    for (const [index, d] of rules.entries()) {
      if (d.command === undefined || d.args !== undefined || d.redirect !== undefined || d.match !== '' || d.field !== undefined) continue;
      if (!(d.tool === '' || (allow.tool !== '' && sameTool(d.tool, allow.tool)))) continue;
      const theirs = commandAlternatives(d.command);
      if (theirs.length === 0 || theirs.some((a) => a.length === 0)) continue;
      const programs = new Set(theirs[0]!.map(programKey));
      if (!mine[0]!.every((p) => programs.has(programKey(p)))) continue;
      // Leftmost matching: a subsequence exists if and only if it finds one.
      let at = 1;
      let found = true;
      for (const words of theirs.slice(1)) {
        while (at < mine.length && !mine[at]!.every((w) => words.includes(w))) at++;
        if (at >= mine.length) {
          found = false;
          break;
        }
        at++;
      }
      if (found) return { list, index, rule: d };
    }
  }
  return null;
}
