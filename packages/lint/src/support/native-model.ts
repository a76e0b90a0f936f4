/**
 * The agents' own matching, for the `native/*` rules: every "does this rule match this command" and
 * "what does this file decide for it" question of a Codex or Gemini CLI file goes to the exact models
 * of `@verdict/native` (proven against the agents' engines by e2e/native-diff), never to a matcher
 * of lint's own. What those models leave open is said with the answer (`bound`), and the rules treat
 * it as the looser outcome.
 *
 * - Codex: `checkCodexCommand` over the command's words (`codex execpolicy check`, host executables
 *   resolved as the agent does); the strictest matching rule decides.
 * - Gemini CLI: the rules as `loadGeminiPolicies` loads them (a `commandPrefix = []` loads none, a
 *   `commandPrefix = "git "` compiles to a pattern only `git  status` matches) and the rule the agent's
 *   lookup settles on (`geminiLookup`), with the re-check of an `sh -c` script. The witnesses are simple
 *   commands, so the sub-command re-checks add nothing; the built-in heuristics, which need the
 *   workspace, may turn the ask of a rule without a pattern, or of the no-rule default, into an allow.
 *
 * A file the agent drops whole (a Codex load error, a Gemini table failing the schema) is
 * `native/file-not-loaded`'s finding; its rules are judged here as they load once that is fixed.
 */
import type { Span } from '@verdict/engine';
import { checkCodexCommand, codexRulesInput, compileCodexRules, GEMINI_TIERS, geminiLookup, geminiPolicyFileInput, geminiStripWrapper, loadGeminiPolicies } from '@verdict/native';
import type { CodexPolicy, CodexRulesFile, GeminiLoadedRule, GeminiLookup, GeminiMode, GeminiPolicyFile, NativeFile } from '@verdict/native';

export type ModelDecision = 'allow' | 'ask' | 'deny';

/** A command as a witness: its words, and the text the agent is given (they differ where quoting is the point). */
export interface Witness {
  words: readonly string[];
  text: string;
}

export interface ModelVerdict {
  /** Undefined: no rule matches and the agent's own heuristics decide (Codex). Gemini CLI's no-rule default is ask. */
  decision?: ModelDecision;
  /** The decision as the agent names it (`forbidden`, `ask_user`…). */
  written?: string;
  /** The line of the rule that decides. */
  line?: number;
  /** What the agent may decide beyond `decision`, and why the model cannot say (undefined: exact). */
  bound?: string;
}

/** The run a question is asked in: Gemini CLI rules may hold for some modes, or (non-)interactive sessions only. */
export interface ModelRun {
  mode?: GeminiMode;
  nonInteractive?: boolean;
}

export interface NativeModel {
  /** What the file decides for a command, under the agent's own engine, in a run where `run` holds. */
  decide(w: Witness, run?: ModelRun): ModelVerdict;
}

export const RANK: Readonly<Record<ModelDecision, number>> = { allow: 0, ask: 1, deny: 2 };

const CODEX: Readonly<Record<string, ModelDecision>> = { allow: 'allow', prompt: 'ask', forbidden: 'deny' };
const GEMINI: Readonly<Record<string, ModelDecision>> = { allow: 'allow', ask_user: 'ask', deny: 'deny' };

const GEMINI_HEURISTICS = "Gemini CLI's built-in shell heuristics, which need the workspace and the folder's trust (not modelled here), may allow it";

/* ---------------------------------------------------------------------------------------------- */
/* Codex                                                                                             */

const codexPolicies = new WeakMap<NativeFile, CodexPolicy>();

function codexPolicy(file: Extract<NativeFile, { agent: 'codex' }>): CodexPolicy {
  let policy = codexPolicies.get(file);
  if (policy === undefined) {
    const rulesFile: CodexRulesFile = file.format === 'codex-rules' ? file : { ...file, format: 'codex-rules', hostExecutables: [], networkRules: [] };
    // The loader's errors fail the whole load (`native/file-not-loaded`); the rules that compile are judged as written.
    policy = compileCodexRules(codexRulesInput([{ ...rulesFile, loadErrors: [], complete: true }]).input).policy;
    codexPolicies.set(file, policy);
  }
  return policy;
}

/** Whether a Codex prefix rule (by its index in the file) matches the words, by Codex's own matching. */
export function codexRuleMatches(file: Extract<NativeFile, { agent: 'codex' }>, index: number, words: readonly string[]): boolean {
  const rule = file.prefixRules[index];
  if (rule === undefined) return false;
  return checkCodexCommand(codexPolicy(file), words, { resolveHostExecutables: true }).matchedRules.some((m) => m.at?.start.offset === rule.span.start.offset);
}

/* ---------------------------------------------------------------------------------------------- */
/* Gemini CLI                                                                                        */

interface GeminiModel {
  rules: GeminiLoadedRule[];
  /** The lookup by run (`mode`, then `i` for non-interactive). */
  lookups: Map<string, GeminiLookup>;
}

function lookupFor(model: GeminiModel, run: ModelRun = {}): GeminiLookup {
  const key = `${run.mode ?? 'default'}${run.nonInteractive === true ? ' i' : ''}`;
  let lookup = model.lookups.get(key);
  if (lookup === undefined) {
    lookup = geminiLookup(model.rules, { mode: run.mode ?? 'default', nonInteractive: run.nonInteractive === true });
    model.lookups.set(key, lookup);
  }
  return lookup;
}

/** A run in which a loaded Gemini CLI rule applies (its first mode; a session of the kind it names). */
export function geminiRunOf(rule: GeminiLoadedRule): ModelRun {
  const mode = rule.modes?.[0] as GeminiMode | undefined;
  return { ...(mode !== undefined ? { mode } : {}), ...(rule.interactive === false ? { nonInteractive: true } : {}) };
}

const geminiModels = new WeakMap<NativeFile, GeminiModel>();

function geminiModel(file: GeminiPolicyFile): GeminiModel {
  let model = geminiModels.get(file);
  if (model === undefined) {
    const input = geminiPolicyFileInput(file, GEMINI_TIERS.workspace);
    let rules = loadGeminiPolicies([input]).rules;
    // A file dropped whole: each table as it loads once the file-level trap is fixed.
    if (rules.length === 0 && Array.isArray(input.rule) && input.unreadable === undefined) {
      rules = input.rule.flatMap((table, i) => loadGeminiPolicies([{ file: input.file, tier: input.tier, rule: [table], ruleAt: [input.ruleAt?.[i]] }]).rules);
    }
    model = { rules, lookups: new Map() };
    geminiModels.set(file, model);
  }
  return model;
}

const sameSpan = (a: Span | undefined, b: Span): boolean => a !== undefined && a.start.offset === b.start.offset;

/** The rules Gemini CLI loads from one `[[rule]]` table (none for `commandPrefix = []` or a pattern it drops). */
export function geminiLoaded(file: GeminiPolicyFile, ruleSpan: Span): GeminiLoadedRule[] {
  return geminiModel(file).rules.filter((r) => sameSpan(r.at, ruleSpan));
}

const shellCall = (command: string) => ({ name: 'run_shell_command', args: { command } });

/** Whether a loaded Gemini CLI rule matches a shell command, by the agent's own pattern, in a run where the rule applies. */
export function geminiRuleMatches(rule: GeminiLoadedRule, command: string): boolean {
  return geminiLookup([rule], geminiRunOf(rule)).first(shellCall(command)) !== undefined;
}

/* ---------------------------------------------------------------------------------------------- */

/** The agent's own model of a file, for Codex and Gemini CLI policy files; undefined for the others. */
export function nativeModel(file: NativeFile): NativeModel | undefined {
  if (file.agent === 'codex') {
    return {
      decide(w) {
        const check = checkCodexCommand(codexPolicy(file), w.words, { resolveHostExecutables: true });
        if (check.decision === undefined) return {};
        const by = check.matchedRules.find((m) => m.decision === check.decision);
        return { decision: CODEX[check.decision]!, written: check.decision, ...(by?.at !== undefined ? { line: by.at.start.line } : {}) };
      },
    };
  }
  if (file.format === 'gemini-policy') {
    const model = geminiModel(file);
    return {
      decide(w, run) {
        const lookup = lookupFor(model, run);
        // The whole text first, then an `sh -c` script from the top (a re-check, without the heuristics):
        // the stricter decides.
        const top = lookup.first(shellCall(w.text));
        const stripped = geminiStripWrapper(w.text);
        const recheck = stripped !== w.text ? lookup.first(shellCall(stripped)) : undefined;
        const rank = (r: GeminiLoadedRule | undefined): number => (r === undefined ? RANK.ask : RANK[GEMINI[r.decision]!]);
        const by = stripped !== w.text && rank(recheck) > rank(top) ? recheck : top;
        const decision: ModelDecision = by === undefined ? 'ask' : GEMINI[by.decision]!;
        // The heuristics run for the whole text alone: they may turn its ask into an allow, unless a re-check asks too.
        const heuristic = by === top && decision === 'ask' && top?.argsPattern === undefined && (stripped === w.text || rank(recheck) === RANK.allow);
        return {
          decision,
          ...(by !== undefined ? { written: by.decision } : {}),
          ...(by?.at !== undefined ? { line: by.at.start.line } : {}),
          ...(heuristic ? { bound: GEMINI_HEURISTICS } : {}),
        };
      },
    };
  }
  return undefined;
}
