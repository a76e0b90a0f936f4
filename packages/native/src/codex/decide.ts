/**
 * Codex's own decision for a command under `.rules` files, modelled exactly (openai/codex `execpolicy`
 * policy.rs/rule.rs and `shell-command` bash.rs; proven against `codex execpolicy check` of `@openai/codex`
 * 0.169.0 by e2e/native-diff):
 *
 * - a `prefix_rule` matches when its tokens equal the first argv words exactly (no globs, no case folding,
 *   longer commands match); alternatives in the first position are separate rules, later ones a set at that
 *   position; every matching rule is collected and the strictest decision wins (forbidden > prompt > allow);
 * - with host-executable resolution (the agent's default; `--resolve-host-executables` in `execpolicy check`)
 *   an argv[0] written as a path that no rule names exactly is made absolute against the working directory,
 *   normalised lexically, and matched by the rules of its basename, unless a `host_executable(name=…)` for
 *   that basename exists and does not list the path (the last definition for a name wins);
 * - in the agent, an argv of exactly `[bash|zsh|sh (any path), -c|-lc, script]` whose script is plain words
 *   joined by `&& || ; |` is split and every command is matched; any other script (a heredoc included: some
 *   sources read a single heredoc command by its words, 0.169.0 does not) is matched as the three words.
 *   `execpolicy check` does not split; e2e/native-diff checks this part against `codex exec` itself.
 */
import type { Span } from '@verdict/engine';
import { type BashNode, type BashParser, children, namedChildren } from '../bash-tree.ts';
import type { CodexDecision, CodexRulesFile } from '../codex-rules.ts';

type CodexAt = Span;

/** One `prefix_rule(...)` call as read: each pattern element a word or a list of alternatives. */
export interface CodexPrefixRuleInput {
  readonly pattern: readonly (string | readonly string[])[];
  /** Omitted in the file means `allow` (Codex's default). */
  readonly decision?: string;
  readonly justification?: string;
  readonly at?: CodexAt | undefined;
}

/** One `host_executable(name=…, paths=[…])` call as read. */
export interface CodexHostExecutableInput {
  readonly name: string;
  readonly paths: readonly string[];
  readonly at?: CodexAt | undefined;
}

export interface CodexRulesInput {
  readonly prefixRules: readonly CodexPrefixRuleInput[];
  readonly hostExecutables?: readonly CodexHostExecutableInput[];
}

/** A load-time error: Codex refuses the whole policy (every rules file) when one is raised. */
export interface CodexModelError {
  readonly message: string;
  readonly at?: CodexAt | undefined;
}

interface CompiledRule {
  readonly program: string;
  readonly rest: readonly (readonly string[])[];
  readonly decision: CodexDecision;
  readonly justification?: string;
  readonly at?: CodexAt | undefined;
}

/** The rules as Codex holds them after loading: by program, in file order. */
export interface CodexPolicy {
  readonly byProgram: ReadonlyMap<string, readonly CompiledRule[]>;
  readonly hostExecutables: ReadonlyMap<string, readonly string[]>;
}

export interface CodexRuleMatch {
  /** The argv words the rule matched (the program as written in the rule). */
  readonly matchedPrefix: readonly string[];
  readonly decision: CodexDecision;
  readonly justification?: string;
  /** Set when the rule matched through host-executable resolution: the absolute path it resolved to. */
  readonly resolvedProgram?: string;
  readonly at?: CodexAt | undefined;
}

export interface CodexCheck {
  readonly matchedRules: readonly CodexRuleMatch[];
  /** Absent when no rule matched (Codex's heuristics and approval policy decide then). */
  readonly decision?: CodexDecision;
}

const DECISIONS: readonly CodexDecision[] = ['allow', 'prompt', 'forbidden'];
const RANK: Record<CodexDecision, number> = { allow: 0, prompt: 1, forbidden: 2 };

/**
 * Validates and compiles rules the way Codex's loader does. Any error fails the load of every file (Codex then
 * falls back to requirements rules only, or refuses to start): the caller must treat errors as "no policy".
 */
export function compileCodexRules(input: CodexRulesInput): { policy: CodexPolicy; errors: CodexModelError[] } {
  const errors: CodexModelError[] = [];
  const byProgram = new Map<string, CompiledRule[]>();
  const hostExecutables = new Map<string, readonly string[]>();
  // Codex evaluates the file top to bottom and stops at the first error; the reader hands the calls in
  // source order, so the first error found here is the one Codex reports.
  type Item =
    | { kind: 'rule'; rule: CodexPrefixRuleInput }
    | { kind: 'host'; host: CodexHostExecutableInput };
  const items: Item[] = [
    ...input.prefixRules.map((rule): Item => ({ kind: 'rule', rule })),
    ...(input.hostExecutables ?? []).map((host): Item => ({ kind: 'host', host })),
  ].sort((a, b) => order(itemAt(a)) - order(itemAt(b)));
  for (const item of items) {
    if (item.kind === 'host') {
      const { name, paths, at } = item.host;
      if (name === '' || name.includes('/')) {
        errors.push({ message: `invalid rule: host_executable name must be a bare executable name (got ${name})`, at });
        continue;
      }
      const bad = paths.find((p) => !p.startsWith('/'));
      if (bad !== undefined) {
        errors.push({ message: `invalid rule: host_executable paths must be absolute (got ${bad})`, at });
        continue;
      }
      const wrong = paths.find((p) => basenameOf(normalizeAbsolute(p)) !== name);
      if (wrong !== undefined) {
        errors.push({ message: `invalid rule: host_executable path \`${wrong}\` must have basename \`${name}\``, at });
        continue;
      }
      hostExecutables.set(name, paths.map(normalizeAbsolute));
      continue;
    }
    const { pattern, at } = item.rule;
    const decision = item.rule.decision ?? 'allow';
    if (pattern.length === 0) {
      errors.push({ message: 'invalid pattern element: pattern cannot be empty', at });
      continue;
    }
    if (!DECISIONS.includes(decision as CodexDecision)) {
      errors.push({ message: `invalid decision: ${decision}`, at });
      continue;
    }
    if (item.rule.justification !== undefined && item.rule.justification.trim() === '') {
      errors.push({ message: 'invalid rule: justification cannot be empty', at });
      continue;
    }
    const elements = pattern.map((e) => (typeof e === 'string' ? [e] : [...e]));
    if (elements.some((alts) => alts.length === 0)) {
      errors.push({ message: 'invalid pattern element: pattern alternatives cannot be empty', at });
      continue;
    }
    const [first, ...rest] = elements as [string[], ...string[][]];
    for (const program of first) {
      const list = byProgram.get(program) ?? [];
      list.push({
        program,
        rest,
        decision: decision as CodexDecision,
        ...(item.rule.justification !== undefined ? { justification: item.rule.justification } : {}),
        ...(at !== undefined ? { at } : {}),
      });
      byProgram.set(program, list);
    }
  }
  return { policy: { byProgram, hostExecutables }, errors };
}

function itemAt(item: { kind: 'rule'; rule: CodexPrefixRuleInput } | { kind: 'host'; host: CodexHostExecutableInput }) {
  return item.kind === 'rule' ? item.rule.at : item.host.at;
}

function order(at: CodexAt | undefined): number {
  return at === undefined ? 0 : at.start.offset;
}

/**
 * The model's input from the reader's files, in load order. Whatever the reader refused (a call it cannot
 * read statically, a value Codex's loader rejects) is returned as errors: Codex loads no rules then.
 */
export function codexRulesInput(files: readonly CodexRulesFile[]): { input: CodexRulesInput; errors: CodexModelError[] } {
  const errors: CodexModelError[] = [];
  const prefixRules: CodexPrefixRuleInput[] = [];
  const hostExecutables: CodexHostExecutableInput[] = [];
  files.forEach((f, fileIndex) => {
    for (const e of f.loadErrors) errors.push({ message: e.message, at: e.span });
    if (!f.complete && f.loadErrors.length === 0) {
      const d = f.diagnostics.find((x) => x.severity === 'error') ?? f.diagnostics[0];
      errors.push({ message: d?.message ?? 'the file was not read completely', ...(d?.span ? { at: d.span } : {}) });
    }
    // Offsets order calls within a file; files follow each other.
    const shift = (s: Span): Span => ({ ...s, start: { ...s.start, offset: s.start.offset + fileIndex * 1e9 } });
    for (const r of f.prefixRules) {
      prefixRules.push({
        pattern: r.pattern.map((t) => (t.list ? [...t.alternatives] : t.alternatives[0]!)),
        decision: r.decision,
        ...(r.justification ? { justification: r.justification.value } : {}),
        at: shift(r.span),
      });
    }
    for (const h of f.hostExecutables) {
      hostExecutables.push({ name: h.name.value, paths: h.paths.map((p) => p.value), at: shift(h.span) });
    }
  });
  return { input: { prefixRules, hostExecutables }, errors };
}

function matchRest(rule: CompiledRule, argv: readonly string[]): string[] | undefined {
  if (argv.length < rule.rest.length + 1) return undefined;
  const matched = [rule.program];
  for (let i = 0; i < rule.rest.length; i++) {
    const word = argv[i + 1]!;
    if (!rule.rest[i]!.includes(word)) return undefined;
    matched.push(word);
  }
  return matched;
}

export interface CodexMatchOptions {
  /** Resolve a path argv[0] against basename rules (on in the agent; `--resolve-host-executables`). */
  readonly resolveHostExecutables?: boolean;
  /** The working directory a relative path program is made absolute against. */
  readonly cwd?: string;
}

/** Every rule matching one argv, in Codex's order, and the strictest decision: `codex execpolicy check`. */
export function checkCodexCommand(policy: CodexPolicy, argv: readonly string[], options: CodexMatchOptions = {}): CodexCheck {
  if (argv.length === 0) return { matchedRules: [] };
  const program = argv[0]!;
  const collect = (rules: readonly CompiledRule[], resolvedProgram?: string): CodexRuleMatch[] => {
    const out: CodexRuleMatch[] = [];
    for (const rule of rules) {
      const matched = matchRest(rule, argv);
      if (matched === undefined) continue;
      out.push({
        matchedPrefix: matched,
        decision: rule.decision,
        ...(rule.justification !== undefined ? { justification: rule.justification } : {}),
        ...(resolvedProgram !== undefined ? { resolvedProgram } : {}),
        ...(rule.at !== undefined ? { at: rule.at } : {}),
      });
    }
    return out;
  };
  let matchedRules = collect(policy.byProgram.get(program) ?? []);
  if (matchedRules.length === 0 && options.resolveHostExecutables && program.includes('/')) {
    const absolute = normalizeAbsolute(program.startsWith('/') ? program : `${options.cwd ?? '/'}/${program}`);
    const base = basenameOf(absolute);
    if (base !== '' && base !== program) {
      const allowed = policy.hostExecutables.get(base);
      if (allowed === undefined || allowed.includes(absolute)) {
        matchedRules = collect(policy.byProgram.get(base) ?? [], absolute);
      }
    }
  }
  const decision = strictest(matchedRules.map((m) => m.decision));
  return decision === undefined ? { matchedRules } : { matchedRules, decision };
}

export function strictest(decisions: readonly CodexDecision[]): CodexDecision | undefined {
  let best: CodexDecision | undefined;
  for (const d of decisions) if (best === undefined || RANK[d] > RANK[best]) best = d;
  return best;
}

/** Lexical normalisation of an absolute path (`.` dropped, `..` pops, repeated `/` collapsed). */
function normalizeAbsolute(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

function basenameOf(absolute: string): string {
  const i = absolute.lastIndexOf('/');
  return absolute.slice(i + 1);
}

// ---------------------------------------------------------------------------------------------------------
// The agent's split of `bash -lc SCRIPT` (codex-rs/shell-command bash.rs, used by core exec_policy.rs).

const SHELLS = new Set(['bash', 'zsh', 'sh']);

/** What the agent matches its rules against for one exec call. */
export type CodexCommandView =
  | { readonly kind: 'argv'; readonly commands: readonly (readonly string[])[] }
  | { readonly kind: 'split'; readonly commands: readonly (readonly string[])[] };

/** Codex's shell detection: the basename of the program, `.exe` removed on any platform. */
function shellName(program: string): string | undefined {
  const base = program.slice(program.lastIndexOf('/') + 1).replace(/\.exe$/i, '');
  return SHELLS.has(base) ? base : undefined;
}

/** The commands the agent checks for an exec argv: the split of a plain `bash|zsh|sh -c|-lc` script, else the argv. */
export function codexCommandsFor(bash: BashParser, argv: readonly string[]): CodexCommandView {
  if (argv.length === 3 && (argv[1] === '-lc' || argv[1] === '-c') && shellName(argv[0]!) !== undefined) {
    const script = argv[2]!;
    const plain = plainCommands(bash, script);
    if (plain !== undefined && plain.length > 0) return { kind: 'split', commands: plain };
  }
  return { kind: 'argv', commands: [argv] };
}

const PLAIN_KINDS = new Set([
  'program', 'list', 'pipeline', 'command', 'command_name', 'word', 'string', 'string_content', 'raw_string',
  'number', 'concatenation',
]);
const PLAIN_PUNCT = new Set(['&&', '||', ';', '|', '"', "'"]);

function plainCommands(bash: BashParser, script: string): string[][] | undefined {
  const tree = bash.parse(script);
  if (!tree) return undefined;
  const root = tree.rootNode;
  if (root.hasError) return undefined;
  const commandNodes: BashNode[] = [];
  const stack: BashNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.isNamed) {
      if (!PLAIN_KINDS.has(node.type)) return undefined;
      if (node.type === 'command') commandNodes.push(node);
    } else if (!PLAIN_PUNCT.has(node.type) && node.type.trim() !== '') {
      return undefined;
    }
    stack.push(...children(node));
  }
  commandNodes.sort((a, b) => a.startIndex - b.startIndex);
  const commands: string[][] = [];
  for (const node of commandNodes) {
    const words = plainWords(node);
    if (words === undefined) return undefined;
    commands.push(words);
  }
  return commands;
}

function plainWords(command: BashNode): string[] | undefined {
  const words: string[] = [];
  for (const child of namedChildren(command)) {
    switch (child.type) {
      case 'command_name': {
        const word = child.namedChild(0);
        if (!word || word.type !== 'word') return undefined;
        words.push(word.text);
        break;
      }
      case 'word':
      case 'number':
        words.push(child.text);
        break;
      case 'string': {
        const s = doubleQuoted(child);
        if (s === undefined) return undefined;
        words.push(s);
        break;
      }
      case 'raw_string': {
        const s = singleQuoted(child);
        if (s === undefined) return undefined;
        words.push(s);
        break;
      }
      case 'concatenation': {
        let joined = '';
        for (const part of namedChildren(child)) {
          if (part.type === 'word' || part.type === 'number') joined += part.text;
          else if (part.type === 'string') {
            const s = doubleQuoted(part);
            if (s === undefined) return undefined;
            joined += s;
          } else if (part.type === 'raw_string') {
            const s = singleQuoted(part);
            if (s === undefined) return undefined;
            joined += s;
          } else return undefined;
        }
        if (joined === '') return undefined;
        words.push(joined);
        break;
      }
      default:
        return undefined;
    }
  }
  return words;
}

function doubleQuoted(node: BashNode): string | undefined {
  if (namedChildren(node).some((p) => p.type !== 'string_content')) return undefined;
  const raw = node.text;
  return raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : undefined;
}

function singleQuoted(node: BashNode): string | undefined {
  const raw = node.text;
  return raw.length >= 2 && raw.startsWith("'") && raw.endsWith("'") ? raw.slice(1, -1) : undefined;
}

/** The agent's decision from its rules for one exec argv: the strictest over every command it checks. */
export interface CodexAgentCheck {
  readonly view: CodexCommandView;
  readonly perCommand: readonly CodexCheck[];
  /**
   * The strictest rule decision when every checked command matched a rule; `undefined` when some command
   * matched none (Codex's heuristics × approval_policy × sandbox decide those, outside its rules).
   */
  readonly decision?: CodexDecision;
  /** Set when any command matched a forbidden or prompt rule: that decision stands whatever the rest is. */
  readonly atLeast?: CodexDecision;
}

export function decideCodexExec(
  policy: CodexPolicy,
  bash: BashParser,
  argv: readonly string[],
  options: CodexMatchOptions = { resolveHostExecutables: true },
): CodexAgentCheck {
  const view = codexCommandsFor(bash, argv);
  const perCommand = view.commands.map((c) => checkCodexCommand(policy, c, options));
  const decided = perCommand.flatMap((c) => (c.decision === undefined ? [] : [c.decision]));
  const atLeast = strictest(decided);
  const all = perCommand.every((c) => c.decision !== undefined);
  return {
    view,
    perCommand,
    ...(all && atLeast !== undefined ? { decision: atLeast } : {}),
    ...(atLeast !== undefined && atLeast !== 'allow' ? { atLeast } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------
// What Verdict's IR cannot say of a Codex policy, each at its place.

/** One part of the agent's decision a Verdict policy cannot reproduce exactly. */
export interface NotExpressible {
  readonly message: string;
  readonly at?: Span | undefined;
}

const SHELL_FLAGS = new Set(['-c', '-lc']);

export function codexNotExpressible(input: CodexRulesInput): NotExpressible[] {
  const out: NotExpressible[] = [];
  for (const r of input.prefixRules) {
    const decision = r.decision ?? 'allow';
    const first = r.pattern[0];
    const programs = first === undefined ? [] : typeof first === 'string' ? [first] : first;
    const second = r.pattern[1];
    if (programs.some((p) => shellName(p) !== undefined) && second !== undefined && (typeof second === 'string' ? [second] : second).some((f) => SHELL_FLAGS.has(f))) {
      out.push({
        message: 'Codex consults this shell-script rule only for scripts it does not split (redirections, `$`, subshells…); Verdict reads every script and judges the commands inside, so it has no rule that matches exactly these',
        at: r.at,
      });
    }
    if (decision === 'allow') {
      out.push({
        message: 'a Codex allow also runs the command outside the sandbox (when every command of the call is allowed); a Verdict allow says nothing about the sandbox',
        at: r.at,
      });
    } else {
      out.push({
        message: `Verdict's ${decision === 'forbidden' ? 'deny' : 'ask'} of this prefix would also apply at any path of the program, behind wrappers and inside every shell script: stricter than Codex, which matches the exact leading words only`,
        at: r.at,
      });
    }
  }
  for (const h of input.hostExecutables ?? []) {
    out.push({
      message: `host_executable(${h.name}) lets Codex match \`${h.name}\` rules on the listed absolute paths only; Verdict's rules match a program at any path and have no per-path list`,
      at: h.at,
    });
  }
  out.push({
    message: "a command no rule matches is decided by Codex's heuristics (known-safe and dangerous commands) under approval_policy and the sandbox mode; Verdict's `default` is allow or deny",
  });
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Unmatched commands under `approval_policy = "never"` (the `--dangerously-bypass-approvals-and-sandbox` and
// `exec` default): Codex runs them, except a command its dangerous-command check flags, which it refuses.
// Measured with `codex exec` 0.169.0 (e2e/native-diff, codex-agent); the safe-command list that decides
// other approval policies is not modelled.

function execName(raw: string): string {
  return raw.slice(raw.lastIndexOf('/') + 1);
}

function rmForces(args: readonly string[]): boolean {
  for (const a of args) {
    if (a === '--') return false;
    if (a === '--force' || (a.startsWith('-') && !a.startsWith('--') && a.slice(1).includes('f'))) return true;
  }
  return false;
}

function dangerousExec(argv: readonly string[]): boolean {
  if (argv.length === 0) return false;
  const name = execName(argv[0]!);
  if (name === 'rm') return rmForces(argv.slice(1));
  if (name === 'sudo') return dangerousExec(argv.slice(1));
  return false;
}

function literalWord(node: BashNode): string | undefined {
  switch (node.type) {
    case 'word':
    case 'number':
      return node.namedChildCount === 0 ? node.text : undefined;
    case 'string':
      return doubleQuoted(node);
    case 'raw_string':
      return singleQuoted(node);
    case 'concatenation': {
      let joined = '';
      for (const part of namedChildren(node)) {
        const w = part.type === 'concatenation' ? undefined : literalWord(part);
        if (w === undefined) return undefined;
        joined += w;
      }
      return joined === '' ? undefined : joined;
    }
    default:
      return undefined;
  }
}

/**
 * Programs through which Codex 0.169.0 was measured to find a forced `rm` (`env` with assignments and options,
 * `sudo` with options, `busybox`): how it reads their options is not known here, so a command behind them that
 * the exact check does not flag is left undecided. `nice`, `timeout`, `nohup`, `time`, `command`, `exec` and
 * `xargs` were measured not to be looked through.
 */
const LOOKED_THROUGH = new Set(['env', 'sudo', 'busybox']);

function behindWrapper(argv: readonly string[]): boolean {
  return argv.length > 1 && LOOKED_THROUGH.has(execName(argv[0]!)) && !dangerousExec(argv);
}

/** The literal words of every command in a script that parses, wherever it sits (control flow, `$( )`…). */
function literalCommands(bash: BashParser, script: string): string[][] | undefined {
  const tree = bash.parse(script);
  if (!tree || tree.rootNode.hasError) return undefined;
  const out: string[][] = [];
  const stack: BashNode[] = [tree.rootNode];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.type === 'command') {
      const words: string[] = [];
      let named = false;
      let ok = true;
      for (const c of namedChildren(n)) {
        if (c.type === 'command_name') {
          const first = c.namedChild(0);
          const w = first ? literalWord(first) : undefined;
          if (w === undefined) {
            ok = false;
            break;
          }
          words.push(w);
          named = true;
        } else if (named) {
          const w = literalWord(c);
          if (w !== undefined) words.push(w);
        }
      }
      if (ok && named) out.push(words);
    }
    stack.push(...namedChildren(n));
  }
  return out;
}

/**
 * Whether Codex's dangerous-command check flags one argv (a forced `rm`, also behind `sudo` or anywhere in a
 * script that parses); `undefined` for a command behind a program it looks through in ways not modelled.
 */
export function codexFlagsDangerous(bash: BashParser, argv: readonly string[]): boolean | undefined {
  if (dangerousExec(argv)) return true;
  let unsure = behindWrapper(argv);
  if (argv.length === 3 && (argv[1] === '-lc' || argv[1] === '-c') && shellName(argv[0]!) !== undefined) {
    const inner = literalCommands(bash, argv[2]!) ?? [];
    if (inner.some(dangerousExec)) return true;
    unsure ||= inner.some(behindWrapper);
  }
  return unsure ? undefined : false;
}

/**
 * The agent's decision for one exec argv under approval `never`: `forbidden` when a rule forbids or prompts
 * (a prompt cannot be asked) or when an unmatched command is flagged dangerous; else `allow` (it runs);
 * `undefined` when it rests on the part of the dangerous-command check not modelled (see LOOKED_THROUGH).
 */
export function decideCodexExecNever(policy: CodexPolicy, bash: BashParser, argv: readonly string[], options: CodexMatchOptions = { resolveHostExecutables: true }): CodexDecision | undefined {
  const { view, perCommand } = decideCodexExec(policy, bash, argv, options);
  let unsure = false;
  const each = perCommand.map((c, i): CodexDecision => {
    if (c.decision !== undefined) return c.decision === 'prompt' ? 'forbidden' : c.decision;
    const flagged = codexFlagsDangerous(bash, view.commands[i]!);
    if (flagged === undefined) unsure = true;
    return flagged ? 'forbidden' : 'allow';
  });
  const d = strictest(each) ?? 'allow';
  return d === 'forbidden' || !unsure ? d : undefined;
}
