/**
 * Languages of rules: what set of tool inputs each rule matches, as search DFAs, plus the
 * regular shapes of the input domain (JSON object texts, canonical texts).
 *
 * A rule's language is given as a pair of bounds: `upper` holds every input the rule matches,
 * `lower` only inputs it matches. They coincide for ordinary patterns (exact); field rules under
 * `input: canonical` and anything this module cannot model get a wider upper and a smaller lower
 * bound. Formulas pick the bound by polarity, so an emptiness proof is always sound.
 */
import { type Budget, LimitExceeded, makeBudget, NfaBuilder, SearchDfa } from './automaton.ts';
import { type CharSet, fromRanges, has, intersect, partition, single, subtract } from './charset.ts';
import { and, andOf, atom, FALSE, type Formula, not, or, orOf, TRUE } from './search.ts';
import { parseRegex, type RegexNode, UnsupportedPattern } from './syntax.ts';
import { orbit, WORD } from './unicode.ts';

export type Domain = 'raw' | 'canonical';

/** `'all'`: every input (unknown upper bound); `'none'`: no input (unknown lower bound). */
export interface RuleLanguage {
  upper: SearchDfa | 'all';
  lower: SearchDfa | 'none';
  exact: boolean;
  /** Why the language is not exact, when it is not. */
  note?: string;
}

/**
 * Which bound a formula uses: `over` proves emptiness, `under` finds witnesses that are real;
 * `symbolic` keeps one proposition per rule (for propositional reasoning before any bound is
 * chosen, see `lowerSymbolic`).
 */
export type Approx = 'over' | 'under' | 'symbolic';

const proxyOf = new WeakMap<RuleLanguage, SearchDfa>();
const languageOf = new WeakMap<SearchDfa, RuleLanguage>();

/** The proposition "this rule matches": a stand-in atom, never stepped, one per language. */
function proxy(lang: RuleLanguage): SearchDfa {
  let p = proxyOf.get(lang);
  if (p === undefined) {
    p = Object.create(SearchDfa.prototype) as SearchDfa;
    proxyOf.set(lang, p);
    languageOf.set(p, lang);
  }
  return p;
}

/** The rule matches (positive literal), bounded in the direction `mode` asks for. */
export function matches(lang: RuleLanguage, mode: Approx): Formula {
  if (mode === 'symbolic') return atom(proxy(lang));
  const b = mode === 'over' ? lang.upper : lang.lower;
  if (b === 'all') return TRUE;
  if (b === 'none') return FALSE;
  return atom(b);
}

/** The rule does not match (negative literal). */
export function misses(lang: RuleLanguage, mode: Approx): Formula {
  if (mode === 'symbolic') return not(atom(proxy(lang)));
  const b = mode === 'over' ? lang.lower : lang.upper;
  if (b === 'all') return FALSE;
  if (b === 'none') return TRUE;
  return not(atom(b));
}

/** The rule languages a symbolic formula mentions, with the polarities they occur in. */
export function symbolicLiterals(f: Formula): Map<RuleLanguage, { pos: boolean; neg: boolean }> {
  const out = new Map<RuleLanguage, { pos: boolean; neg: boolean }>();
  const walk = (g: Formula): void => {
    if (g.op === 'atom') {
      const lang = languageOf.get(g.dfa);
      if (lang === undefined) return;
      const e = out.get(lang) ?? { pos: false, neg: false };
      if (g.neg) e.neg = true;
      else e.pos = true;
      out.set(lang, e);
    } else if (g.op === 'and' || g.op === 'or') g.xs.forEach(walk);
  };
  walk(f);
  return out;
}

/** A symbolic formula's rule propositions replaced by their bounds for `mode`. */
export function lowerSymbolic(f: Formula, mode: 'over' | 'under'): Formula {
  switch (f.op) {
    case 'const':
      return f;
    case 'atom': {
      const lang = languageOf.get(f.dfa);
      if (lang === undefined) return f;
      return f.neg ? misses(lang, mode) : matches(lang, mode);
    }
    case 'and':
      return andOf(f.xs.map((x) => lowerSymbolic(x, mode)));
    case 'or':
      return orOf(f.xs.map((x) => lowerSymbolic(x, mode)));
  }
}

/** The stand-in atom of a rule (for case splits on it). */
export function symbol(lang: RuleLanguage): SearchDfa {
  return proxy(lang);
}

const UNKNOWN = (note: string): RuleLanguage => ({ upper: 'all', lower: 'none', exact: false, note });

/**
 * What `LanguageCache`s share across analysis runs (files): languages, value DFAs and shapes by
 * key, for one state limit. Patterns recur across the files of a repository, and a DFA's states,
 * transitions and distance table are built once. Bounded: past `SHARED_MAX` entries it starts over.
 * A DFA is kept past the run that built it only when it was explored in full (its distance table
 * exists), so that what a later run finds never depends on which files came before.
 */
interface SharedStore {
  byKey: Map<string, RuleLanguage>;
  values: Map<string, SearchDfa | null>;
  shapes: Map<string, SearchDfa | null>;
  /** DFA states held (a bound on memory, with the number of entries). */
  states: number;
}

const SHARED_MAX = 2_000;
const SHARED_MAX_STATES = 200_000;
const shared = new Map<number, SharedStore>();

function sharedStore(maxStates: number): SharedStore {
  let s = shared.get(maxStates);
  if (s === undefined || s.byKey.size + s.values.size > SHARED_MAX || s.states > SHARED_MAX_STATES) {
    s = { byKey: new Map(), values: new Map(), shapes: s?.shapes ?? new Map(), states: 0 };
    shared.set(maxStates, s);
  }
  return s;
}

function statesOf(...ds: (SearchDfa | 'all' | 'none' | null)[]): number {
  let n = 0;
  for (const d of ds) if (typeof d === 'object' && d !== null) n += d.size;
  return n;
}

/**
 * Whether a DFA may be handed to later runs (see `SharedStore`): explored in full, or not explored
 * at all (only its start state exists), so that it behaves as a fresh one would. Exploring a DFA
 * only to share it would cost every file that brings a new pattern.
 */
function keepable(d: SearchDfa | 'all' | 'none' | null): boolean {
  return typeof d !== 'object' || d === null || d.complete() || d.size <= 2;
}

/** Builds search DFAs and caches them by pattern, shared (see `SharedStore`) across runs. */
export class LanguageCache {
  private readonly byKey: Map<string, RuleLanguage>;
  private readonly shapes: Map<string, SearchDfa | null>;
  private readonly values: Map<string, SearchDfa | null>;
  private readonly store: SharedStore;
  /** Keys this run built, and keys it took from the shared store (checked by `release`). */
  private readonly added: { lang: string[]; value: string[]; shape: string[] } = { lang: [], value: [], shape: [] };
  private readonly used: { lang: Set<string>; value: Set<string>; shape: Set<string> } = {
    lang: new Set(),
    value: new Set(),
    shape: new Set(),
  };
  private budget: Budget;

  constructor(readonly options: { maxStates?: number } = {}) {
    this.budget = makeBudget({ timeMs: 1e9, ...options });
    this.store = sharedStore(this.budget.maxStates);
    this.byKey = new Map();
    this.values = new Map();
    this.shapes = new Map();
  }

  /**
   * Ends the run: what it built goes to the shared store when `keepable`; what it took from the
   * store and explored in part leaves it. The rest is forgotten with this cache.
   */
  release(): void {
    const store = this.store;
    for (const key of this.used.lang) {
      const lang = store.byKey.get(key);
      if (lang !== undefined && !(keepable(lang.upper) && keepable(lang.lower))) store.byKey.delete(key);
    }
    for (const key of this.used.value) if (!keepable(store.values.get(key) ?? null)) store.values.delete(key);
    for (const key of this.used.shape) if (!keepable(store.shapes.get(key) ?? null)) store.shapes.delete(key);
    this.used.lang.clear();
    this.used.value.clear();
    this.used.shape.clear();
    for (const key of this.added.lang) {
      const lang = this.byKey.get(key) as RuleLanguage;
      if (keepable(lang.upper) && keepable(lang.lower)) {
        this.store.byKey.set(key, lang);
        this.store.states += statesOf(lang.upper, lang.lower === lang.upper ? null : lang.lower);
      }
    }
    for (const key of this.added.value) {
      const d = this.values.get(key) ?? null;
      if (keepable(d)) {
        this.store.values.set(key, d);
        this.store.states += statesOf(d);
      }
    }
    for (const key of this.added.shape) {
      const d = this.shapes.get(key) ?? null;
      if (keepable(d)) this.store.shapes.set(key, d);
    }
    this.added.lang.length = 0;
    this.added.value.length = 0;
    this.added.shape.length = 0;
  }

  private dfa(build: (b: NfaBuilder) => number): SearchDfa {
    const b = new NfaBuilder(this.budget.maxNfa);
    const start = build(b);
    return new SearchDfa(b.build(start), this.budget);
  }

  /** The DFA of "`pattern` is found in the text" (Go's unanchored search). */
  private patternDfa(pattern: string): SearchDfa {
    const node = parseRegex(pattern);
    return this.dfa((b) => b.regex(node, b.match()));
  }

  /**
   * The DFA of "`pattern` matches the whole text", built from the tree (`\A` tree `\z`) rather than
   * by wrapping the text in `^(?:…)$`, which `\Q…` without `\E` would swallow; the engine matches
   * field values whole the same way (`testWhole`).
   */
  private wholeDfa(pattern: string): SearchDfa {
    const node = parseRegex(pattern);
    return this.dfa((b) => {
      const end = b.add({ op: 'assert', kind: 'eot', out: b.match() });
      return b.add({ op: 'assert', kind: 'bot', out: b.regex(node, end) });
    });
  }

  /** The language of a rule's `match` (and `field`) over the texts of `domain`. */
  rule(match: string, field: string | undefined, domain: Domain): RuleLanguage {
    const key = `${domain}\u0000${field ?? '\u0001'}\u0000${match}`;
    let lang = this.byKey.get(key);
    if (lang === undefined) {
      lang = this.store.byKey.get(key);
      if (lang !== undefined) this.used.lang.add(key);
    }
    if (lang === undefined) {
      lang = this.build(match, field, domain);
      this.byKey.set(key, lang);
      this.added.lang.push(key);
    }
    return lang;
  }

  private build(match: string, field: string | undefined, domain: Domain): RuleLanguage {
    try {
      if (field === undefined) {
        const d = this.patternDfa(match);
        return { upper: d, lower: d, exact: true };
      }
      return this.fieldLanguage(match, field, domain);
    } catch (e) {
      if (e instanceof UnsupportedPattern) return UNKNOWN(e.message);
      if (e instanceof LimitExceeded) return UNKNOWN(`the pattern is too large to analyse (${e.message})`);
      throw e;
    }
  }

  /**
   * A field rule under `input: canonical` matches when the top-level key equal to `field` under
   * case folding holds a string whose decoded value matches `^(?:match)$`. In canonical text such a
   * value appears as `"KEY":"ESCAPED"`, so the upper bound is "that substring occurs" and the lower
   * bound is a flat object holding the pair `"field":"ESCAPED"`.
   */
  private fieldLanguage(match: string, field: string, domain: Domain): RuleLanguage {
    const value = this.wholeDfa(match);
    const valueNfa = (b: NfaBuilder, next: number): number => escapedLanguage(b, value, next, this.budget);
    const keyFolded = (b: NfaBuilder, next: number): number => {
      let n = next;
      const cps = Array.from(field, (c) => c.codePointAt(0) as number);
      for (let i = cps.length - 1; i >= 0; i--) {
        const set = fromRanges(orbit(cps[i] as number).map((c) => [c, c] as [number, number]));
        n = escapedClass(b, set, n);
      }
      return n;
    };
    if (domain === 'raw') {
      // Under raw input the engine parses the text for the lookup, and an unreadable text makes deny
      // field rules match: only the lower bound (a plain single-key object) is known.
      const lower = this.dfa((b) => {
        const eot = b.add({ op: 'assert', kind: 'eot', out: b.match() });
        const v = valueNfa(b, b.literal('"}', eot));
        return b.add({ op: 'assert', kind: 'bot', out: b.literal(`{${JSON.stringify(field)}:"`, v) });
      });
      return { upper: 'all', lower, exact: false, note: 'a `field` rule under `input: raw` is bounded from below only' };
    }
    const upper = this.dfa((b) => {
      const end = b.anything(b.match());
      const afterValue = b.literal('"', end);
      const v = valueNfa(b, afterValue);
      const k = keyFolded(b, b.literal('":"', v));
      return b.anything(b.literal('"', k));
    });
    // A flat object around the pair: its key is top-level, and a text with another key equal to
    // `field` under folding is rejected, so never canonical.
    const lower = this.dfa((b) => {
      const eot = b.add({ op: 'assert', kind: 'eot', out: b.match() });
      const v = valueNfa(b, b.literal('"', b.regex(canonTail(), eot)));
      const pair = b.literal(`${JSON.stringify(field)}:"`, v);
      return b.add({ op: 'assert', kind: 'bot', out: b.regex(canonHead(), pair) });
    });
    return {
      upper,
      lower,
      exact: false,
      note: 'a `field` rule is modelled by the key-value text it needs in the canonical input',
    };
  }

  /**
   * The language of a field rule's value (`^(?:match)$` over the decoded string), one DFA per
   * field group and pattern so that rules on different keys stay different propositions; `null`
   * when the pattern cannot be modelled.
   */
  valueDfa(group: string, match: string): SearchDfa | null {
    const key = `${group}\u0000${match}`;
    const kept = this.store.values.get(key);
    if (kept !== undefined) {
      this.used.value.add(key);
      return kept;
    }
    if (!this.values.has(key)) {
      try {
        this.values.set(key, this.wholeDfa(match));
      } catch (e) {
        if (!(e instanceof UnsupportedPattern) && !(e instanceof LimitExceeded)) throw e;
        this.values.set(key, null);
      }
      this.added.value.push(key);
    }
    return this.values.get(key) ?? null;
  }

  /** A regular shape of the input domain, built once. */
  shape(name: ShapeName): SearchDfa | null {
    const kept = this.store.shapes.get(name);
    if (kept !== undefined) {
      this.used.shape.add(name);
      return kept;
    }
    if (!this.shapes.has(name)) {
      const p = SHAPES[name];
      this.shapes.set(name, p === null ? null : this.patternDfa(p));
      this.added.shape.push(name);
    }
    return this.shapes.get(name) ?? null;
  }

  /** The shape as a formula (`TRUE` for "no constraint"). */
  shapeFormula(name: ShapeName): Formula {
    const d = this.shape(name);
    return d === null ? TRUE : atom(d);
  }
}

// --- Shapes of the input domain ---

const WS = '[\\t\\n\\r ]*';
const RAW_STR = '"(?:[^"\\\\\\x00-\\x1f]|\\\\["\\\\/bfnrt]|\\\\u[0-9a-fA-F]{4})*"';
const NUM = '-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?';
const RAW_VAL = `(?:${RAW_STR}|${NUM}|true|false|null|\\{${WS}\\}|\\[${WS}(?:${RAW_STR}(?:${WS},${WS}${RAW_STR})*)?${WS}\\])`;
const RAW_PAIR = `${RAW_STR}${WS}:${WS}${RAW_VAL}`;
const CANON_STR =
  '"(?:[^"\\\\\\x00-\\x1f\\x{2028}\\x{2029}]|\\\\["\\\\bfnrt]|\\\\u00(?:0[0-7]|0b|0e|0f|1[0-9a-f])|\\\\u202[89])*"';
const CANON_VAL = `(?:${CANON_STR}|${NUM}|true|false|null|\\{\\}|\\[(?:${CANON_STR}(?:,${CANON_STR})*)?\\])`;
const CANON_PAIR = `${CANON_STR}:${CANON_VAL}`;

let canonTrees: { head: RegexNode; tail: RegexNode } | undefined;
const canonParsed = (): { head: RegexNode; tail: RegexNode } =>
  (canonTrees ??= { head: parseRegex(`\\{(?:${CANON_PAIR},)*`), tail: parseRegex(`(?:,${CANON_PAIR})*\\}`) });
/** The pairs before a field's pair in a flat canonical object (parsed once). */
const canonHead = (): RegexNode => canonParsed().head;
/** The pairs after it and the closing brace. */
const canonTail = (): RegexNode => canonParsed().tail;

export type ShapeName = 'raw-any' | 'raw-object' | 'raw-object-flat' | 'canonical-any' | 'canonical-object' | 'canonical-object-flat';

/**
 * `*-object`: a regular over-approximation of the domain's JSON object texts (sound for "never
 * matches an object"): a `{`…`}` sequence of JSON tokens, brackets not matched; `*-object-flat`: a subset of them (objects of scalar and flat values) where
 * witnesses are looked for first; `*-any`: every text the domain can present to a rule.
 */
const LITERAL = '(?:true|false|null)';
const SHAPES: Record<ShapeName, string | null> = {
  'raw-any': null,
  // Tokens without bracket matching: every JSON object text is such a token sequence. An empty
  // or blank input is a real raw input too (a tool without arguments).
  'raw-object': `\\A${WS}(?:\\{(?:${RAW_STR}|${NUM}|${LITERAL}|[\\[\\]{},:]|[\\t\\n\\r ])*\\}${WS})?\\z`,
  'raw-object-flat': `\\A${WS}\\{${WS}(?:${RAW_PAIR}(?:${WS},${WS}${RAW_PAIR})*${WS})?\\}${WS}\\z`,
  // Canonical text is never empty (empty input becomes `{}`) and holds no raw control character.
  'canonical-any': '\\A[^\\x00-\\x1f]+\\z',
  'canonical-object': `\\A\\{(?:${CANON_STR}|${NUM}|${LITERAL}|[\\[\\]{},:])*\\}\\z`,
  'canonical-object-flat': `\\A\\{(?:${CANON_PAIR}(?:,${CANON_PAIR})*)?\\}\\z`,
};

// --- JSON string escaping as a transduction (Go encoding/json, as canonical text writes it) ---

const ESCAPED: CharSet = fromRanges([
  [0, 0x1f],
  [0x22, 0x22],
  [0x5c, 0x5c],
  [0x2028, 0x2029],
]);

export function escapeCodePoint(cp: number): string {
  switch (cp) {
    case 0x22:
      return '\\"';
    case 0x5c:
      return '\\\\';
    case 0x0a:
      return '\\n';
    case 0x0d:
      return '\\r';
    case 0x09:
      return '\\t';
    case 0x08:
      return '\\b';
    case 0x0c:
      return '\\f';
    default:
      if (has(ESCAPED, cp)) return `\\u${cp.toString(16).padStart(4, '0')}`;
      return String.fromCodePoint(cp);
  }
}

/** Edges for "one character of `set`, as canonical JSON writes it", continuing at `next`. */
function escapedClass(b: NfaBuilder, set: CharSet, next: number, tries?: Map<string, number>): number {
  const outs: number[] = [];
  const plain = subtract(set, ESCAPED);
  if (plain.length > 0) outs.push(b.add({ op: 'char', set: plain, out: next }));
  const special = intersect(set, ESCAPED);
  if (special.length > 0) {
    const key = `${next}:${special.join(',')}`;
    let entry = tries?.get(key);
    if (entry === undefined) {
      entry = escapeTrie(b, special, next);
      tries?.set(key, entry);
    }
    outs.push(entry);
  }
  if (outs.length === 1) return outs[0] as number;
  return b.add({ op: 'split', outs });
}

/**
 * The escape sequences of the characters in `special` (a subset of `ESCAPED`) as a trie: shared
 * prefixes (`\u00`) once, and the last characters of sequences that end together as one class.
 */
function escapeTrie(b: NfaBuilder, special: CharSet, next: number): number {
  const words: number[][] = [];
  for (let i = 0; i < special.length; i += 2) {
    for (let cp = special[i] as number; cp <= (special[i + 1] as number); cp++) {
      words.push(Array.from(escapeCodePoint(cp), (c) => c.codePointAt(0) as number));
    }
  }
  const node = (ws: readonly number[][], depth: number): number => {
    const groups = new Map<number, number[][]>();
    for (const w of ws) {
      const c = w[depth] as number;
      let g = groups.get(c);
      if (g === undefined) {
        g = [];
        groups.set(c, g);
      }
      g.push(w);
    }
    const outs: number[] = [];
    const last: [number, number][] = [];
    for (const [c, g] of groups) {
      if (g.some((w) => w.length === depth + 1)) last.push([c, c]);
      const longer = g.filter((w) => w.length > depth + 1);
      if (longer.length > 0) outs.push(b.add({ op: 'char', set: single(c), out: node(longer, depth + 1) }));
    }
    if (last.length > 0) outs.push(b.add({ op: 'char', set: fromRanges(last), out: next }));
    return outs.length === 1 ? (outs[0] as number) : b.add({ op: 'split', outs });
  };
  return node(words, 0);
}

/**
 * The image of a value language (a search DFA for `^(?:…)$`) under JSON string escaping: the
 * DFA is explored in full over its alphabet and rewritten edge by edge.
 */
function escapedLanguage(b: NfaBuilder, value: SearchDfa, next: number, budget: Budget): number {
  const blocks = partition([single(0x0a), WORD, ESCAPED, ...value.charSets()]);
  const node = new Map<number, number>();
  const tries = new Map<string, number>();
  const order: number[] = [value.start];
  node.set(value.start, b.add({ op: 'split', outs: [] }));
  for (let i = 0; i < order.length; i++) {
    const s = order[i] as number;
    const outs: number[] = [];
    if (value.isAccepting(s)) outs.push(next);
    if (!value.isDead(s)) {
      for (const { block, rep } of blocks) {
        const t = value.step(s, rep);
        if (value.isDead(t)) continue;
        let target = node.get(t);
        if (target === undefined) {
          if (node.size >= budget.maxStates) throw new LimitExceeded('state limit');
          target = b.add({ op: 'split', outs: [] });
          node.set(t, target);
          order.push(t);
        }
        outs.push(escapedClass(b, block, target, tries));
      }
    }
    (b.insts[node.get(s) as number] as { outs: number[] }).outs = outs;
  }
  return node.get(value.start) as number;
}

