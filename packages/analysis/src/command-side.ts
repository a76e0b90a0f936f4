/**
 * Command rules in a policy diff: what the command side of a shell tool is in each policy, which
 * decision changes the difference between two policies can make at all, and example commands to
 * look for one with.
 *
 * The analysis cannot see inside a `CommandJudge` (the caller passes `@verdict/shell`'s in); it
 * relies on the judge's documented contract (docs/shell.md, "Semantics"): a deny (or ask) rule
 * decides when it matches any executed command; the policy's `unknown:` decision comes after deny
 * rules and before ask rules; an allow applies only when every executed command (and every write)
 * is allowed by some allow rule; otherwise no command rule decides. Rules match one by one, so a
 * judgement depends on each list as a set. And the engine combines the judgement with the regex
 * rules' outcome as deny > ask > allow, the default only when neither decides.
 *
 * From that contract, one change at a time, holding the rest fixed, can only move a call's decision
 * in the ways below (X is any decision; removing is the reverse of adding):
 *   command or regex deny rule added: X → deny     command or regex ask rule added: X → ask
 *   command or regex allow rule added: deny → allow  (a call no rule decided, under a deny default)
 *   default allow → deny: allow → deny             `unknown:` U → V: U → V
 *   a shell tool gains a judge with decision U for what it cannot model (no rule yet): X → U
 * Any two policies are joined by a chain of such changes (a judge whose field or wrappers change is
 * dropped and made again), so the pairs (old decision, new decision) a call can show are in the
 * transitive closure of the changes' moves; a pair outside it is proven impossible, exactly.
 */
import { caseFold, commandAlternatives, commandCombinations, isCommandRule, shellsOf, shellToolsOf } from '@verdict/engine';
import type { ApproverIR, Decision, RuleIR, RuledDecision } from '@verdict/engine';
import { makeBudget } from './automaton.ts';
import { LanguageCache } from './model.ts';
import { sample } from './pattern-text.ts';
import { and, atom, findWitness, not } from './search.ts';

export const DECISIONS: readonly RuledDecision[] = ['allow', 'ask', 'deny'];

/** The command side of one shell tool in one policy (one `CommandJudge`). */
export interface CommandSide {
  /** The tool as the `shell:` table (or the default table) writes it. */
  tool: string;
  /** The field holding the command text, as written, and folded (what the engine looks up). */
  field: string;
  foldedField: string;
  unknown: 'ask' | 'deny';
  /** The wrappers table added by the policy (and its `environment:` names), as a canonical text (equal text: equal reading). */
  wrappers: string;
  /** The command rules applying to the tool, per list, by what they say (`commandKeys`). */
  lists: Record<'deny' | 'ask' | 'allow', ReadonlySet<string>>;
  /** The same rules, once each (for example commands). */
  rules: RuleIR[];
  /** Names of the policy's own wrappers (for example commands). */
  wrapperNames: string[];
}

/** Alternatives a rule is spelled out into, at most (past it the rule keeps one key). */
const MAX_SPELLED = 64;

/**
 * What a command rule says, with spelling that cannot change a decision removed: one key per
 * combination of its alternatives where the rule means the union of those combinations (an allow
 * rule, whose words are an exact prefix; a deny or ask rule without `args`: with `args`, which
 * words the pattern reads depends on where the alternatives matched), else one key.
 */
function commandKeys(r: RuleIR, list: 'deny' | 'ask' | 'allow'): string[] {
  const alts = r.command === undefined ? undefined : commandAlternatives(r.command).map((a) => [...new Set(a)].sort());
  const key = (command: string[][] | null): string => JSON.stringify([command, r.args ?? null, r.redirect ?? null]);
  if (alts === undefined) return [key(null)];
  const combos = list !== 'allow' && r.args !== undefined ? null : commandCombinations(alts, MAX_SPELLED);
  if (combos === null) return [key(alts)];
  return combos.map((c) => key(c.map((w) => [w])));
}

/** A value with object keys sorted (a canonical text for comparing wrapper tables). */
function sortedJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    const entries = Object.entries(v as Record<string, unknown>).filter(([k, x]) => k !== 'span' && x !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${sortedJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * The command sides of a pattern policy by folded tool name: one per tool of its `shell:` table
 * (first entry per tool, as the engine builds them), and none at all without command rules.
 */
export function commandSides(ir: ApproverIR): Map<string, CommandSide> {
  const out = new Map<string, CommandSide>();
  const all = [...ir.deny, ...(ir.ask ?? []), ...ir.allow];
  if (!all.some(isCommandRule)) return out;
  const unknown = ir.unknown === 'ask' ? 'ask' : 'deny';
  // The policy's harmless variables change the reading as its wrappers do: both in the one text compared.
  const reading = ir.environment === undefined ? (ir.wrappers ?? {}) : { wrappers: ir.wrappers ?? {}, environment: [...ir.environment].sort() };
  for (const t of shellToolsOf(ir)) {
    // Which shells may run the text changes the reading too (a narrower list reads more).
    const shells = shellsOf(ir, t);
    const named = shells === undefined || shells.includes('any') ? ['bash', 'sh', 'zsh'] : [...new Set(shells)].sort();
    const wrappers = sortedJson(named.join(' ') === 'bash sh zsh' ? reading : { reading, shells: named });
    const tool = caseFold(t.tool);
    if (out.has(tool)) continue;
    const lists = { deny: new Set<string>(), ask: new Set<string>(), allow: new Set<string>() };
    const applying: RuleIR[] = [];
    for (const list of ['deny', 'ask', 'allow'] as const) {
      const rules = list === 'allow' ? ir.allow : list === 'deny' ? ir.deny : (ir.ask ?? []);
      for (const r of rules) {
        if (!isCommandRule(r) || (r.tool !== '' && caseFold(r.tool) !== tool)) continue;
        for (const k of commandKeys(r, list)) lists[list].add(k);
        applying.push(r);
      }
    }
    out.set(tool, { tool: t.tool, field: t.field, foldedField: caseFold(t.field), unknown, wrappers, lists, rules: applying, wrapperNames: Object.keys(ir.wrappers ?? {}) });
  }
  return out;
}

/** The regex side of one tool class in one pattern policy: its rules' languages per list, and the default. */
export interface RegexSide {
  lists: Record<'deny' | 'ask' | 'allow', ReadonlySet<string>>;
  def: Decision;
}

/** One side of a tool class: a mode approver's constant decision, or a pattern approver's sides. */
export type ClassSide = { kind: 'const'; decision: Decision } | { kind: 'pattern'; regex: RegexSide; command: CommandSide | null };

/** A set of moves "a call decided `from` is decided `to`", as `from>to` keys. */
export type Moves = Set<string>;

const move = (from: RuledDecision, to: RuledDecision): string => `${from}>${to}`;

function into(moves: Moves, to: RuledDecision): void {
  for (const d of DECISIONS) if (d !== to) moves.add(move(d, to));
}

function outOf(moves: Moves, from: RuledDecision): void {
  for (const d of DECISIONS) if (d !== from) moves.add(move(from, d));
}

/** The moves of a list's rules added (`added`) or removed. */
function listMoves(moves: Moves, list: 'deny' | 'ask' | 'allow', added: boolean): void {
  if (list === 'allow') moves.add(added ? move('deny', 'allow') : move('allow', 'deny'));
  else if (added) into(moves, list);
  else outOf(moves, list);
}

function differ(a: ReadonlySet<string>, b: ReadonlySet<string>): { added: boolean; removed: boolean } {
  let added = false;
  let removed = false;
  for (const k of b.keys()) if (!a.has(k)) added = true;
  for (const k of a.keys()) if (!b.has(k)) removed = true;
  return { added, removed };
}

/** The moves of a shell tool's judge appearing (`gained`) or going, with all its rules. */
function judgeMoves(moves: Moves, side: CommandSide, gained: boolean): void {
  if (gained) into(moves, side.unknown);
  else outOf(moves, side.unknown);
  for (const list of ['deny', 'ask', 'allow'] as const) if (side.lists[list].size > 0) listMoves(moves, list, gained);
}

/** The decisions a side can take for the class (a superset). */
function possible(s: ClassSide): Set<RuledDecision> {
  if (s.kind === 'const') return new Set([s.decision]);
  const c = s.command;
  const out = new Set<RuledDecision>(['deny']);
  if (s.regex.def === 'allow' || s.regex.lists.allow.size > 0 || (c !== null && c.lists.allow.size > 0)) out.add('allow');
  if (s.regex.lists.ask.size > 0 || (c !== null && (c.lists.ask.size > 0 || c.unknown === 'ask'))) out.add('ask');
  return out;
}

/**
 * Every pair (old decision, new decision) with a call the two sides may decide so (a superset,
 * see the module comment); an empty set proves the class decides every call alike.
 */
export function possibleMoves(oldSide: ClassSide, newSide: ClassSide): Moves {
  const moves: Moves = new Set();
  if (oldSide.kind === 'const' || newSide.kind === 'const') {
    for (const a of DECISIONS) for (const b of DECISIONS) if (a !== b) moves.add(move(a, b));
  } else {
    const [o, n] = [oldSide.regex, newSide.regex];
    for (const list of ['deny', 'ask', 'allow'] as const) {
      const d = differ(o.lists[list], n.lists[list]);
      if (d.added) listMoves(moves, list, true);
      if (d.removed) listMoves(moves, list, false);
    }
    if (o.def !== n.def) moves.add(move(o.def, n.def));
    const [co, cn] = [oldSide.command, newSide.command];
    if (co !== null && cn !== null && co.foldedField === cn.foldedField && co.wrappers === cn.wrappers) {
      if (co.unknown !== cn.unknown) moves.add(move(co.unknown, cn.unknown));
      for (const list of ['deny', 'ask', 'allow'] as const) {
        const d = differ(co.lists[list], cn.lists[list]);
        if (d.added) listMoves(moves, list, true);
        if (d.removed) listMoves(moves, list, false);
      }
    } else {
      // Through a policy without a judge for the tool: the old judge goes, the new one comes.
      if (co !== null) judgeMoves(moves, co, false);
      if (cn !== null) judgeMoves(moves, cn, true);
    }
  }
  closeMoves(moves);
  const [po, pn] = [possible(oldSide), possible(newSide)];
  for (const m of [...moves]) {
    const [a, b] = m.split('>') as [RuledDecision, RuledDecision];
    if (!po.has(a) || !pn.has(b)) moves.delete(m);
  }
  return moves;
}

/** Adds every move a chain of moves makes (a → b → c gives a → c; a → b → a changes nothing). */
function closeMoves(moves: Moves): void {
  for (const via of DECISIONS) {
    for (const a of DECISIONS) {
      for (const b of DECISIONS) {
        if (a !== b && moves.has(move(a, via)) && moves.has(move(via, b))) moves.add(move(a, b));
      }
    }
  }
}

export function hasMove(moves: Moves, from: RuledDecision, to: RuledDecision): boolean {
  return moves.has(move(from, to));
}

/* ----------------------------------------------------------------------------------------------- */

/** Example commands for a shell tool, shortest and most telling first; capped. */
const MAX_COMMANDS = 2_000;
/** Regexes sampled per policy and kind, and pairs of them whose difference is sampled. */
const MAX_REGEXES = 64;
const MAX_REGEX_PAIRS = 48;

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** A word as a shell reads it back: bare when it is plain, else in single quotes. */
export function shellQuote(w: string): string {
  return SAFE_WORD.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/** Words whose static join by single spaces is `text` (what `args` and redirect rules read). */
function tailWords(text: string): string {
  return text === '' ? '' : text.split(' ').map(shellQuote).join(' ');
}

/** A few strings `pattern` matches whole, and (against each of `others`) ones only it matches. */
function regexSamples(cache: LanguageCache, group: string, patterns: readonly string[], others: readonly string[], budget: { timeMs?: number; maxStates?: number }): string[] {
  const out: string[] = [];
  let pairs = 0;
  for (const p of patterns.slice(0, MAX_REGEXES)) {
    const dp = cache.valueDfa(group, p);
    if (dp === null) continue;
    const some = findWitness(atom(dp), makeBudget(budget));
    if (some.status === 'witness') out.push(some.text);
    for (const q of others) {
      if (q === p || pairs++ >= MAX_REGEX_PAIRS) continue;
      const dq = cache.valueDfa(group, q);
      if (dq === null) continue;
      const only = findWitness(and(atom(dp), not(atom(dq))), makeBudget(budget));
      if (only.status === 'witness') out.push(only.text);
    }
  }
  return out;
}

/** The alternatives of a command prefix, each one at least once: `[git, [status, diff]]` → `git status`, `git diff`. */
function prefixes(command: readonly (string | readonly string[])[]): string[][] {
  const alts = commandAlternatives(command);
  const widest = Math.max(1, ...alts.map((a) => a.length));
  const out: string[][] = [];
  for (let k = 0; k < widest; k++) out.push(alts.map((a) => a[Math.min(k, a.length - 1)] as string));
  return out;
}

/**
 * Example command texts for a shell tool under two command sides (either may be `null`) and the
 * regex rules applying to it: what the regex rules match; each rule's prefix with each
 * alternative, with samples of `args` (and of the difference between two `args` regexes), with an
 * extra word, an inserted option, at a path, in capitals, behind a wrapper, with an argument or a
 * write target known only at run time, with a write (samples of `redirect` too); texts the judge
 * cannot model; pairs joined by `&&`, and next to `$x`; what the regex rules match as arguments.
 * Deduplicated, in that order, capped.
 */
export function exampleCommands(
  sides: ReadonlyArray<CommandSide | null>,
  regexRules: readonly RuleIR[],
  cache: LanguageCache,
  budget: { timeMs?: number; maxStates?: number },
): string[] {
  const present = sides.filter((s): s is CommandSide => s !== null);
  const rules = present.flatMap((s) => s.rules);
  const byRegex = (key: 'args' | 'redirect', side: CommandSide): string[] => [...new Set(side.rules.flatMap((r) => (r[key] === undefined ? [] : [r[key]])))];
  const samples = (key: 'args' | 'redirect'): string[] => {
    const [a, b] = [present[0], present[1]];
    const pa = a === undefined ? [] : byRegex(key, a);
    const pb = b === undefined ? [] : byRegex(key, b);
    return [...new Set([...regexSamples(cache, `shell-${key}`, pa, pb, budget), ...regexSamples(cache, `shell-${key}`, pb, pa, budget)])];
  };
  const argSamples = samples('args');
  const targets = [...samples('redirect'), 'out.txt'];
  const out = new Set<string>();
  const add = (t: string): void => {
    if (out.size < MAX_COMMANDS) out.add(t);
  };
  const plain: string[] = [];
  // What the tool's regex rules match: a field rule's value whole, another rule's pattern sampled.
  for (const r of regexRules) {
    if (r.field !== undefined) {
      const d = cache.valueDfa('shell-field', r.match);
      const w = d === null ? null : findWitness(atom(d), makeBudget(budget));
      if (w?.status === 'witness') plain.push(w.text);
    } else {
      // A pattern over the input text: what follows a leading `{"field":"` is the command text.
      const w = sample(r.match)?.replace(/^\{?\s*"[^"]*"\s*:\s*"/, '');
      if (w !== undefined && w !== '') plain.push(w);
    }
  }
  for (const t of plain) add(t);
  // What the regex rules match, as the arguments of each rule's command (`cat secret`).
  const asArgs = plain.filter((t) => t.split(' ').every((w) => SAFE_WORD.test(w))).slice(0, 8);
  for (const r of rules) {
    if (r.command === undefined) continue;
    for (const words of prefixes(r.command)) {
      const text = words.map(shellQuote).join(' ');
      plain.push(text);
      add(text);
      for (const s of argSamples) add(s === '' ? text : `${text} ${tailWords(s)}`);
    }
  }
  for (const r of rules) {
    if (r.command === undefined) continue;
    for (const words of prefixes(r.command)) {
      const [program, ...rest] = words as [string, ...string[]];
      const text = words.map(shellQuote).join(' ');
      add(`${text} x`);
      if (rest.length > 0) add([program, '-x', ...rest].map(shellQuote).join(' '));
      const base = program.slice(program.lastIndexOf('/') + 1);
      if (base !== '') {
        add([`/usr/bin/${base}`, ...rest].map(shellQuote).join(' '));
        add([`./${base}`, ...rest].map(shellQuote).join(' '));
        add([base.toUpperCase(), ...rest].map(shellQuote).join(' '));
      }
      add(`timeout 5 ${text}`);
      add(`env A=1 ${text}`);
      add(`bash -c ${shellQuote(text)}`);
      // An argument and a write target known only when the command runs.
      add(`${text} "$x"`);
      add(`${text} > "$x"`);
      add(`${text} "$(${text})"`);
      for (const s of present) for (const w of s.wrapperNames) add(`${shellQuote(w)} ${text}`);
      for (const t of targets) add(`${text} > ${shellQuote(t)}`);
    }
  }
  for (const t of targets) add(`echo x > ${shellQuote(t)}`);
  for (const t of ['$x', 'eval "$x"', 'echo $(', '', 'echo x', 'ls', 'true']) add(t);
  const few = [...new Set(plain)].slice(0, 16);
  for (const a of few) for (const b of few) if (a !== b) add(`${a} && ${b}`);
  for (const a of few) {
    add(`${a} | ${few[0] as string}`);
    // With what the judge cannot model, and with a write, beside a command the regex rules may match.
    add(`${a}; $x`);
    add(`$x ${a}`);
    for (const t of targets) add(`${a} > ${shellQuote(t)}`);
  }
  for (const r of rules) {
    if (r.command === undefined) continue;
    for (const words of prefixes(r.command)) for (const a of asArgs) add(`${words.map(shellQuote).join(' ')} ${a}`);
  }
  return [...out];
}

/**
 * Example command texts for one shell tool of one policy (`exampleCommands` over its command side and the
 * regex rules on that tool): what `verdict diff` decides when the other side is an agent's own file.
 */
export function policyExampleCommands(ir: ApproverIR, tool: string, budget: { timeMs?: number; maxStates?: number } = { timeMs: 200 }): string[] {
  const folded = caseFold(tool);
  const side = commandSides(ir).get(folded) ?? null;
  const regexRules = [...ir.deny, ...(ir.ask ?? []), ...ir.allow].filter((r) => !isCommandRule(r) && (r.tool === '' || caseFold(r.tool) === folded));
  const cache = new LanguageCache({});
  try {
    return exampleCommands([side], regexRules, cache, budget);
  } finally {
    cache.release();
  }
}
