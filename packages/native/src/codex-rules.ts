/**
 * Codex `.rules` files: the literal `prefix_rule`, `host_executable` and `network_rule` calls of a
 * Starlark file (`readStarlark`), with the span of each rule, token and argument. What Codex's
 * loader would refuse (an unknown decision, an empty pattern, an example that does not match its
 * rule…) is kept as a located `loadErrors` entry: one such error makes Codex load none of the
 * rules files, which lint reports (`native/file-not-loaded`).
 */
import { spanOf } from '@verdict/compiler';
import { sortDiagnostics } from '@verdict/engine';
import type { Diagnostic, Span } from '@verdict/engine';
import { readStarlark } from './starlark.ts';
import type { CallArgument, Literal, TopLevelCall } from './starlark.ts';
import type { Located, NativeFileBase } from './types.ts';

export type CodexDecision = 'allow' | 'prompt' | 'forbidden';

/** The decisions, strictest first (Codex takes the strictest of every matching rule). */
export const CODEX_DECISIONS: readonly CodexDecision[] = ['forbidden', 'prompt', 'allow'];

/** One element of a pattern: a word, or a list of alternative words at that position. */
export interface CodexPatternToken {
  alternatives: string[];
  /** Written as a list (`["view", "list"]`), even of one word. */
  list: boolean;
  span: Span;
}

/** A `match`/`not_match` example: a list of words, or a string Codex splits with shlex. */
export interface CodexExample {
  /** The words; `undefined` when the string does not split (an unclosed quote): Codex refuses the file. */
  argv?: string[];
  /** The string as written, when the example is a string. */
  text?: string;
  span: Span;
}

export interface CodexPrefixRule {
  kind: 'prefix_rule';
  /** The whole call. */
  span: Span;
  pattern: CodexPatternToken[];
  patternSpan: Span;
  /** The decision; `allow` when the call gives none (Codex's default). */
  decision: CodexDecision;
  /** Where the decision is written; absent when it is the default. */
  decisionSpan?: Span;
  justification?: Located<string>;
  match: CodexExample[];
  notMatch: CodexExample[];
  /** Other keyword arguments as written (`reviewer`…), kept for the models. */
  extra: Located<string>[];
}

export interface CodexHostExecutable {
  kind: 'host_executable';
  span: Span;
  name: Located<string>;
  paths: Located<string>[];
}

export interface CodexNetworkRule {
  kind: 'network_rule';
  span: Span;
  host: Located<string>;
  protocol?: Located<string>;
  decision?: Located<string>;
  justification?: Located<string>;
}

/** Something Codex's loader refuses; one makes Codex load none of the rules files. */
export interface CodexLoadError {
  message: string;
  span: Span;
}

export interface CodexRulesFile extends NativeFileBase {
  format: 'codex-rules';
  agent: 'codex';
  /** The rules in the order written. */
  prefixRules: CodexPrefixRule[];
  hostExecutables: CodexHostExecutable[];
  networkRules: CodexNetworkRule[];
  loadErrors: CodexLoadError[];
}

const CALLEES = new Set(['prefix_rule', 'host_executable', 'network_rule']);
const PARAMETERS: Readonly<Record<string, readonly string[]>> = {
  prefix_rule: ['pattern', 'decision', 'match', 'not_match', 'justification', 'reviewer'],
  host_executable: ['name', 'paths'],
  network_rule: ['host', 'protocol', 'decision', 'justification'],
};

/**
 * Splits a string as Codex's `shlex` does (POSIX words: single quotes, double quotes with `\`
 * escapes of `$ \` " \\` and newline, backslash outside quotes, `#` comments not read);
 * `undefined` for an unclosed quote or a trailing backslash.
 */
export function shlexSplit(s: string): string[] | undefined {
  const out: string[] = [];
  let word: string | undefined;
  let i = 0;
  while (i < s.length) {
    const c = s[i] as string;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (word !== undefined) out.push(word);
      word = undefined;
      i++;
      continue;
    }
    if (c === '#' && word === undefined) {
      while (i < s.length && s[i] !== '\n') i++;
      continue;
    }
    word ??= '';
    if (c === "'") {
      const e = s.indexOf("'", i + 1);
      if (e < 0) return undefined;
      word += s.slice(i + 1, e);
      i = e + 1;
      continue;
    }
    if (c === '"') {
      i++;
      for (;;) {
        if (i >= s.length) return undefined;
        const d = s[i] as string;
        if (d === '"') {
          i++;
          break;
        }
        if (d === '\\' && i + 1 < s.length && '$`"\\\n'.includes(s[i + 1] as string)) {
          if (s[i + 1] !== '\n') word += s[i + 1];
          i += 2;
          continue;
        }
        word += d;
        i++;
      }
      continue;
    }
    if (c === '\\') {
      if (i + 1 >= s.length) return undefined;
      if (s[i + 1] !== '\n') word += s[i + 1];
      i += 2;
      continue;
    }
    word += c;
    i++;
  }
  if (word !== undefined) out.push(word);
  return out;
}

/** Whether the words start with the pattern (exact words; alternatives at any position). */
export function codexPatternMatches(pattern: readonly CodexPatternToken[], argv: readonly string[]): boolean {
  if (argv.length < pattern.length) return false;
  return pattern.every((t, i) => t.alternatives.includes(argv[i] as string));
}

export function readCodexRules(file: string, text: string): CodexRulesFile {
  const read = readStarlark(file, text, CALLEES);
  const diagnostics: Diagnostic[] = [...read.diagnostics];
  const span = (s: number, e: number): Span => spanOf(file, read.index, s, e);
  const out: CodexRulesFile = {
    format: 'codex-rules',
    agent: 'codex',
    file,
    text,
    diagnostics,
    complete: !read.syntaxError && !read.notStatic,
    prefixRules: [],
    hostExecutables: [],
    networkRules: [],
    loadErrors: [],
  };
  if (read.syntaxError) return out;
  const refuse = (message: string, s: Span): void => {
    out.loadErrors.push({ message, span: s });
  };
  const at = (l: { start: number; end: number }): Span => span(l.start, l.end);

  for (const call of read.calls) {
    const args = bind(call);
    if (args === undefined) continue;
    if (call.callee === 'prefix_rule') prefixRule(call, args);
    else if (call.callee === 'host_executable') hostExecutable(call, args);
    else networkRule(call, args);
  }
  out.diagnostics = sortDiagnostics(diagnostics);
  return out;

  /** The arguments by parameter name; `undefined` (and a diagnostic) when one needs evaluation. */
  function bind(call: TopLevelCall): Map<string, { arg: CallArgument; value: Literal }> | undefined {
    const params = PARAMETERS[call.callee] ?? [];
    const bound = new Map<string, { arg: CallArgument; value: Literal }>();
    const callSpan = span(call.start, call.end);
    for (const [i, arg] of call.args.entries()) {
      if (arg.value.kind === 'not-static') {
        out.complete = false;
        diagnostics.push({
          code: 'native/not-static',
          severity: 'warning',
          message: `cannot read statically: ${arg.value.why} in \`${call.callee}(...)\`; the rule is not read`,
          span: at(arg.value),
          help: 'write each argument as a literal (a string, or a list of strings) so the rule can be read without running the file',
        });
        return undefined;
      }
      let name = arg.name;
      if (name === undefined) {
        // Only the first parameter is read by position: the order of the others is not one Verdict relies on.
        if (i !== 0) {
          out.complete = false;
          diagnostics.push({
            code: 'native/not-static',
            severity: 'warning',
            message: `cannot read statically: positional argument ${i + 1} of \`${call.callee}(...)\`; the rule is not read`,
            span: at(arg.value),
            help: `name it (\`${params[i] ?? 'name'} = …\`)`,
          });
          return undefined;
        }
        name = params[0] as string;
      }
      if (!params.includes(name)) {
        refuse(`\`${call.callee}\` has no parameter \`${name}\``, arg.nameStart === undefined ? at(arg.value) : span(arg.nameStart, arg.nameStart + name.length));
        continue;
      }
      if (bound.has(name)) {
        refuse(`\`${name}\` is given twice`, at(arg.value));
        continue;
      }
      bound.set(name, { arg, value: arg.value });
    }
    void callSpan;
    return bound;
  }

  function str(v: Literal | undefined): string | undefined {
    return v?.kind === 'string' ? v.value : undefined;
  }

  function located(v: Literal | undefined): Located<string> | undefined {
    return v?.kind === 'string' ? { value: v.value, span: at(v) } : undefined;
  }

  function examples(name: string, v: Literal | undefined): CodexExample[] {
    if (v === undefined || v.kind === 'none') return [];
    if (v.kind !== 'list') {
      refuse(`\`${name}\` must be a list of examples`, at(v));
      return [];
    }
    const list: CodexExample[] = [];
    for (const item of v.items) {
      if (item.kind === 'string') {
        const argv = shlexSplit(item.value);
        if (argv === undefined) refuse(`the example \`${item.value}\` does not split into words (an unclosed quote)`, at(item));
        else if (argv.length === 0) refuse('an example is empty', at(item));
        list.push(argv === undefined ? { text: item.value, span: at(item) } : { text: item.value, argv, span: at(item) });
      } else if (item.kind === 'list' && item.items.every((w) => w.kind === 'string')) {
        const argv = item.items.map((w) => (w.kind === 'string' ? w.value : ''));
        if (argv.length === 0) refuse('an example is empty', at(item));
        list.push({ argv, span: at(item) });
      } else {
        refuse(`each \`${name}\` example is a string or a list of strings`, at(item));
      }
    }
    return list;
  }

  function prefixRule(call: TopLevelCall, args: Map<string, { arg: CallArgument; value: Literal }>): void {
    const callSpan = span(call.start, call.end);
    const p = args.get('pattern')?.value;
    if (p === undefined) {
      refuse('`prefix_rule` needs a `pattern`', span(call.start, call.calleeEnd));
      return;
    }
    if (p.kind !== 'list' || p.items.length === 0) {
      refuse('`pattern` must be a non-empty list', at(p));
      return;
    }
    const pattern: CodexPatternToken[] = [];
    for (const item of p.items) {
      if (item.kind === 'string') pattern.push({ alternatives: [item.value], list: false, span: at(item) });
      else if (item.kind === 'list' && item.items.length > 0 && item.items.every((w) => w.kind === 'string')) {
        pattern.push({ alternatives: item.items.map((w) => (w.kind === 'string' ? w.value : '')), list: true, span: at(item) });
      } else {
        refuse('each `pattern` element is a string or a non-empty list of strings', at(item));
        return;
      }
    }
    const rule: CodexPrefixRule = { kind: 'prefix_rule', span: callSpan, pattern, patternSpan: at(p), decision: 'allow', match: [], notMatch: [], extra: [] };
    const d = args.get('decision')?.value;
    if (d !== undefined && d.kind !== 'none') {
      const v = str(d);
      if (v === 'allow' || v === 'prompt' || v === 'forbidden') {
        rule.decision = v;
        rule.decisionSpan = at(d);
      } else {
        refuse(`\`decision\` must be \`allow\`, \`prompt\` or \`forbidden\`${v === undefined ? '' : `, not \`${v}\``}`, at(d));
        return;
      }
    }
    const j = args.get('justification')?.value;
    if (j !== undefined && j.kind !== 'none') {
      const v = located(j);
      if (v === undefined) refuse('`justification` must be a string', at(j));
      else if (v.value.trim() === '') refuse('`justification` must not be empty', v.span);
      else rule.justification = v;
    }
    const r = args.get('reviewer')?.value;
    if (r !== undefined) {
      const v = located(r);
      if (v !== undefined) rule.extra.push({ value: `reviewer=${v.value}`, span: v.span });
    }
    rule.match = examples('match', args.get('match')?.value);
    rule.notMatch = examples('not_match', args.get('not_match')?.value);
    for (const e of rule.match) {
      if (e.argv !== undefined && e.argv.length > 0 && !codexPatternMatches(pattern, e.argv)) {
        refuse(`the \`match\` example \`${e.text ?? e.argv.join(' ')}\` does not match the rule's pattern`, e.span);
      }
    }
    for (const e of rule.notMatch) {
      if (e.argv !== undefined && e.argv.length > 0 && codexPatternMatches(pattern, e.argv)) {
        refuse(`the \`not_match\` example \`${e.text ?? e.argv.join(' ')}\` matches the rule's pattern`, e.span);
      }
    }
    out.prefixRules.push(rule);
  }

  function hostExecutable(call: TopLevelCall, args: Map<string, { arg: CallArgument; value: Literal }>): void {
    const name = located(args.get('name')?.value);
    if (name === undefined) {
      refuse('`host_executable` needs a string `name`', span(call.start, call.calleeEnd));
      return;
    }
    const pv = args.get('paths')?.value;
    const paths: Located<string>[] = [];
    if (pv !== undefined) {
      if (pv.kind !== 'list') refuse('`paths` must be a list of strings', at(pv));
      else for (const item of pv.items) {
        const v = located(item);
        if (v === undefined) refuse('each of `paths` is a string', at(item));
        else paths.push(v);
      }
    }
    out.hostExecutables.push({ kind: 'host_executable', span: span(call.start, call.end), name, paths });
  }

  function networkRule(call: TopLevelCall, args: Map<string, { arg: CallArgument; value: Literal }>): void {
    const host = located(args.get('host')?.value);
    if (host === undefined) {
      refuse('`network_rule` needs a string `host`', span(call.start, call.calleeEnd));
      return;
    }
    const rule: CodexNetworkRule = { kind: 'network_rule', span: span(call.start, call.end), host };
    const protocol = located(args.get('protocol')?.value);
    if (protocol !== undefined) rule.protocol = protocol;
    const decision = located(args.get('decision')?.value);
    if (decision !== undefined) rule.decision = decision;
    const justification = located(args.get('justification')?.value);
    if (justification !== undefined) rule.justification = justification;
    out.networkRules.push(rule);
  }
}
