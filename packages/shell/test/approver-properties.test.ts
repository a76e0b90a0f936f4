/**
 * The command-rule invariants of the README, as properties through the engine's approver
 * (`compileApprover` with this package's judge), not the judge alone (properties.test.ts):
 *
 * 1. A generated command that runs a denied program anywhere (any construct, wrapper and quoting)
 *    is never allowed, however its input is written as JSON (escapes of any character, `\/`,
 *    astral characters as surrogate-pair escapes, lone surrogates, extra members, a repeated or
 *    case-folded `command` key, a `command` that is not a string, 1 MB and deeply nested inputs),
 *    with regex rules beside the command rules that would allow it on their own.
 * 2. A command allowed alone stays allowed when joined with another allowed one by `&&`, `;`, `||`
 *    or `|`, with regex rules present that neither deny nor ask.
 * 3. The approver is total on 1 MB command texts and depth-10,000 nesting: it decides, it never throws.
 * 4. The approver decides as the semantics say: as the engine's `callDefinition` (the regex rules
 *    each by `ruleMatches`, the judge's decision, combined as semantics.md A8 states), over random
 *    policies mixing both kinds of rule and the commands of the corpora.
 *
 * The JSON spellings are written here rather than taken from `@verdict/testing`'s `respell`: this
 * package cannot depend on that one (the package graph has a workspace dependency only where the
 * sources import it), and the spellings needed go beyond re-spellings of the same value.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  callDefinition,
  caseFold,
  compileApprover,
  DEFAULT_SHELL_TOOLS,
  MAX_JSON_DEPTH,
  ruleMatches,
  type ApprovalRequest,
  type ApproverIR,
  type CompiledApprover,
  type RuleIR,
} from '@verdict/engine';
import { commandJudgeFactory, compileCommandRules, judge, LIMITS, type CommandRule } from '../src/index.ts';
import { benign, bypasses } from './corpora.ts';
import { benignScript, scriptRunning, spellings } from './generators.ts';

// ---- policies ---------------------------------------------------------------------------------

function ir(parts: Partial<ApproverIR>): ApproverIR {
  return { mode: 'pattern', default: 'deny', reason: 'no', input: 'raw', allow: [], deny: [], ...parts };
}
const cmd = (command: (string | string[])[], extra: Partial<RuleIR> = {}): RuleIR => ({ tool: '', match: '', command, ...extra });
const re = (tool: string, match: string, field?: string): RuleIR => ({ tool, match, ...(field === undefined ? {} : { field }) });

function approver(parts: Partial<ApproverIR>): CompiledApprover {
  const r = compileApprover(ir(parts), { commandJudge: commandJudgeFactory });
  if (r.approver === undefined || r.issues.length > 0) throw new Error(`did not load: ${JSON.stringify(r.issues)}`);
  return r.approver;
}

const BENIGN = ['ls', 'echo', 'cat', 'true', 'git', 'grep', 'wc', 'find', 'xargs'];
const benignProgram = fc.constantFrom('ls', 'echo', 'cat', 'true', 'git', 'grep', 'wc');
const SHELL_TOOLS = ['Bash', 'bash', 'BASH', 'run_shell_command', 'Shell', 'shell'];

/**
 * Policies whose regex rules would allow a call running `rm` or `curl` on their own (a catch-all,
 * the program's prefix, the whole field, a default allow), beside command rules that deny both.
 */
const DENYING: Record<string, CompiledApprover> = {
  'regex allow ^, default allow': approver({
    default: 'allow',
    allow: [re('', '^'), cmd([BENIGN])],
    deny: [cmd(['rm']), cmd(['curl'])],
  }),
  'regex allow of the program prefix, a command allow of the denied programs': approver({
    allow: [re('Bash', '^\\{"command":"(rm|curl)'), re('', '(?i)\\b(rm|curl)\\b'), re('', '"(?:command|Command|COMMAND)"'), cmd([['rm', 'curl']]), cmd([BENIGN])],
    deny: [cmd(['rm']), cmd(['curl']), re('Read', '.')],
  }),
  'field allow of any text, unknown ask': approver({
    default: 'allow',
    unknown: 'ask',
    allow: [re('', '(?s).*', 'command'), re('', ''), cmd([BENIGN])],
    deny: [cmd(['rm']), cmd(['curl'])],
  }),
};

// ---- JSON spellings ---------------------------------------------------------------------------

/** How one JSON string is written: which characters as `\uXXXX`, and how. */
interface StringSpelling {
  /** Indices (in code points, across the strings of the document) written as `\uXXXX`. */
  readonly escapes: ReadonlySet<number>;
  readonly upper: boolean;
  /** `/` as `\/`. */
  readonly slash: boolean;
  /** Of an escaped astral character, only the high surrogate as an escape and the low one as it is. */
  readonly halfPair: boolean;
}

const hex4 = (unit: number, upper: boolean): string => {
  const h = unit.toString(16).padStart(4, '0');
  return `\\u${upper ? h.toUpperCase() : h}`;
};

/** A JSON string writer: `at` counts code points across every string it writes. */
function stringWriter(s: StringSpelling): (text: string) => string {
  let at = 0;
  return (text) => {
    let out = '"';
    // By code point: a lone surrogate is one, an astral character (a pair) is one.
    for (const ch of text) {
      const escape = s.escapes.has(at++);
      if (escape) {
        out += hex4(ch.charCodeAt(0), s.upper);
        if (ch.length === 2) out += s.halfPair ? ch[1] : hex4(ch.charCodeAt(1), s.upper);
      } else if (ch === '/' && s.slash) out += '\\/';
      else out += JSON.stringify(ch).slice(1, -1); // lone surrogates come out as `\udXXX` escapes
    }
    return `${out}"`;
  };
}

/** A member written before or after the `command` one (the value as JSON text, `S` a string to spell). */
type Extra = { readonly key: string; readonly value: { s: string } | { json: string } };

const EXTRA: fc.Arbitrary<Extra> = fc.record({
  key: fc.constantFrom('description', 'timeout', 'cwd', 'dir_path', 'commands', 'command ', 'x', 'ſ', '\u212aey', '😀'),
  value: fc.oneof(
    fc.constantFrom('ls', 'git status', '😀', '\ud800', '\udfff', '\ufffd', 'a/b', '"', '\\', '\n', 'rm -rf /', '').map((s) => ({ s })),
    fc.constantFrom('5', '-0.5e3', 'true', 'null', '[]', '{}', '[1,[2,[3]]]', '{"command":"ls"}', '{"a":{"command":"ls"}}', '["rm","-rf","/"]').map((json) => ({ json })),
  ),
});

/** How a call's input is delivered: the key, the members around it, white space, string spellings. */
interface Delivery {
  readonly key: string;
  readonly before: readonly Extra[];
  readonly after: readonly Extra[];
  readonly space: string;
  readonly strings: StringSpelling;
}

// The keys that fold to `command`: only ASCII case applies (no letter of it has a fold outside
// ASCII, as `s` has `ſ` and `k` has the Kelvin sign).
const delivery: fc.Arbitrary<Delivery> = fc.record({
  key: fc.constantFrom('command', 'command', 'command', 'Command', 'COMMAND', 'cOmMaNd'),
  before: fc.array(EXTRA, { maxLength: 2 }),
  after: fc.array(EXTRA, { maxLength: 2 }),
  space: fc.constantFrom('', ' ', '\n\t', '\r\n  '),
  strings: fc.record({
    escapes: fc.uniqueArray(fc.nat({ max: 400 }), { maxLength: 120 }).map((xs) => new Set(xs)),
    upper: fc.boolean(),
    slash: fc.boolean(),
    halfPair: fc.boolean(),
  }),
});

/** The input text of a call whose `command` (under `d.key`) is `command`. */
function inputOf(command: string, d: Delivery): string {
  const str = stringWriter(d.strings);
  const w = d.space;
  const member = (key: string, value: string) => `${w}${str(key)}${w}:${w}${value}${w}`;
  const extra = (e: Extra) => member(e.key, 's' in e.value ? str(e.value.s) : e.value.json);
  return `${w}{${[...d.before.map(extra), member(d.key, str(command)), ...d.after.map(extra)].join(',')}}${w}`;
}

/** Arguments that put astral characters, lone surrogates, U+FFFD and `/` into the command text. */
const SPECIAL_ARG = fc.constantFrom('', '', ' 😀', ' \ud83d', ' x\ude00y', ' \ufffd', ' 𝐫𝐦', ' ſ', ' \u212a', ' a/b', " '😀'", ' "\ud800"', ' \u2028');

const withArg = (program: fc.Arbitrary<string>): fc.Arbitrary<string> => fc.tuple(program, SPECIAL_ARG).map(([p, a]) => `${p}${a}`);
const denied = withArg(fc.oneof(spellings('rm', true), spellings('curl', true)));
const benignWithArg = withArg(benignProgram);

const toolName = fc.constantFrom(...SHELL_TOOLS);

/** Neither `decide` nor `approve` allows; `decide` denies, or asks where `unknown: ask` may. */
function expectNotAllowed(a: CompiledApprover, name: string, request: ApprovalRequest): void {
  const d = a.decide(request);
  const at = `${name}: ${JSON.stringify(request)}: ${d.reason}`;
  expect(d.decision, at).not.toBe('allow');
  if (!name.includes('unknown ask')) expect(d.decision, at).toBe('deny');
  expect(a.approve(request).decision, at).toBe('deny');
  expect(a.explain(request).decision, at).toBe(d.decision);
}

describe('1. a command running a denied program is never allowed, however the input is written', () => {
  const names = Object.keys(DENYING);
  test.prop([scriptRunning(denied, benignWithArg), delivery, fc.constantFrom(...names), toolName], { numRuns: 400 })(
    'spelled as JSON in any way',
    (script, d, name, tool) => {
      expectNotAllowed(DENYING[name]!, name, { toolName: tool, input: inputOf(script, d) });
    },
  );

  test.prop(
    [
      scriptRunning(denied, benignWithArg),
      fc.constantFrom('ls', 'git status', 'echo hi'),
      fc.constantFrom('command', 'Command', 'COMMAND', '\\u0063ommand', 'comm\\u0061nd'),
      fc.constantFrom('command', 'Command', 'COMMAND', '\\u0063ommand', 'comm\\u0061nd'),
      fc.boolean(),
      fc.constantFrom(...names),
      toolName,
    ],
    { numRuns: 200 },
  )('a repeated `command` key (as written, case-folded or escaped), the decoy first or last', (script, decoy, k1, k2, decoyFirst, name, tool) => {
    const [first, second] = decoyFirst ? [decoy, script] : [script, decoy];
    const input = `{"${k1}":${JSON.stringify(first)},"${k2}":${JSON.stringify(second)}}`;
    expectNotAllowed(DENYING[name]!, name, { toolName: tool, input });
  });

  it('a repeated key is refused even when both values are allowed alone: the call gets the unknown decision', () => {
    const a = DENYING['regex allow ^, default allow']!;
    expect(a.decide({ toolName: 'Bash', input: '{"command":"ls"}' }).decision).toBe('allow');
    for (const input of ['{"command":"ls","command":"ls"}', '{"command":"ls","COMMAND":"ls"}', '{"command":"ls","\\u0063ommand":"ls"}', '{"command":"ls","x":{"a":1,"A":2}}']) {
      expect(a.decide({ toolName: 'Bash', input }), input).toMatchObject({ decision: 'deny', reason: expect.stringContaining('`command`') });
    }
  });

  test.prop([scriptRunning(denied, benignWithArg), fc.constantFrom(...names), toolName], { numRuns: 100 })(
    'a `command` that is not a string (an array of the words, an object holding the script, a number, null)',
    (script, name, tool) => {
      for (const value of [JSON.stringify(script.split(' ')), JSON.stringify({ command: script }), '0', 'null', 'true', `[${JSON.stringify(script)}]`]) {
        expectNotAllowed(DENYING[name]!, name, { toolName: tool, input: `{"command":${value}}` });
      }
    },
  );

  it('a 1 MB input and an input nested 10,000 deep', () => {
    const nest = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    for (const name of names) {
      for (const command of ['rm -rf /', 'ls; curl x | sh', 'echo $(rm x)']) {
        for (const input of [
          JSON.stringify({ command, pad: 'x'.repeat(1 << 20) }),
          JSON.stringify({ pad: 'x'.repeat(1 << 20), command }),
          `{"command":${JSON.stringify(command)},"deep":${nest(MAX_JSON_DEPTH - 1)}}`,
          `{"command":${JSON.stringify(command)},"deep":${nest(MAX_JSON_DEPTH)}}`,
          `{"command":"${[...command].map((c) => hex4(c.charCodeAt(0), false)).join('')}${'\\u0020'.repeat(200_000)}"}`,
        ]) {
          expectNotAllowed(DENYING[name]!, name, { toolName: 'Bash', input });
        }
      }
    }
  });

  it('what the denied programs’ spellings decode to is what the shell runs: escapes of the program’s letters deny', () => {
    const a = DENYING['regex allow ^, default allow']!;
    for (const input of ['{"command":"\\u0072\\u006d -rf /"}', '{"command":"\\/bin\\/rm x"}', '{"command":"ls && \\u0063url x"}', '{"command":"ls\\u000arm x"}']) {
      expect(a.decide({ toolName: 'Bash', input }).decision, input).toBe('deny');
    }
    // And the same policy allows what it does not deny: the properties above are not won by refusing everything.
    expect(a.decide({ toolName: 'Bash', input: '{"command":"\\u006cs -la \\ud83d\\ude00"}' }).decision).toBe('allow');
  });
});

// ---- 2. allowed alone, allowed together -------------------------------------------------------

/** Policies whose regex rules neither deny nor ask what the benign generator writes. */
const COMPOSING: Record<string, CompiledApprover> = {
  'command rules only on shell tools, regex rules on another tool': approver({
    allow: [cmd([BENIGN]), re('Read', '')],
    deny: [cmd(['rm']), cmd(['curl']), re('Read', 'secret')],
  }),
  'regex allow ^ beside command rules': approver({
    allow: [re('', '^'), cmd([BENIGN])],
    deny: [cmd(['rm']), cmd(['curl'])],
  }),
  'regex deny and ask that do not match, a field allow of anything': approver({
    unknown: 'ask',
    allow: [cmd([BENIGN]), re('Bash', '(?s).*', 'command')],
    ask: [re('', '--force'), cmd(['git', 'push'])],
    deny: [cmd(['rm']), re('', 'AKIA[0-9A-Z]{16}'), re('', 'secret', 'command')],
  }),
};

describe('2. a command allowed alone stays allowed when joined with another allowed one', () => {
  test.prop(
    [benignScript(benignProgram, false), benignScript(benignProgram, false), fc.constantFrom(...Object.keys(COMPOSING)), toolName],
    { numRuns: 300 },
  )('by &&, ;, || and |', (a, b, name, tool) => {
    const approver = COMPOSING[name]!;
    const decide = (command: string) => approver.decide({ toolName: tool, input: JSON.stringify({ command }) });
    fc.pre(decide(a).decision === 'allow' && decide(b).decision === 'allow');
    // `!` starts a pipeline, it is not a command of one: `a | ! b` is a syntax error to bash too.
    const joins = b.startsWith('!') ? [' && ', '; ', ' || ', '\n'] : [' && ', '; ', ' || ', ' | ', '\n'];
    for (const join of joins) {
      const both = `${a}${join}${b}`;
      const d = decide(both);
      expect(d.decision, `${name}: ${JSON.stringify(both)}: ${d.reason}`).toBe('allow');
      expect(approver.approve({ toolName: tool, input: JSON.stringify({ command: both }) }).decision).toBe('allow');
    }
  });

  it('the joined command is not allowed when one side is not (the property is not vacuous)', () => {
    const a = COMPOSING['command rules only on shell tools, regex rules on another tool']!;
    const decide = (command: string) => a.decide({ toolName: 'Bash', input: JSON.stringify({ command }) }).decision;
    expect(decide('ls -la')).toBe('allow');
    expect(decide('git status | wc -l')).toBe('allow');
    expect(decide('ls -la && git status | wc -l')).toBe('allow');
    expect(decide('ls -la && python3 x.py')).toBe('deny');
  });
});

// ---- 3. totality through the approver ---------------------------------------------------------

describe('3. the approver decides 1 MB command texts and 10,000-deep nesting without throwing', () => {
  const readOnly = DENYING['regex allow ^, default allow']!;
  const call = (command: string) => ({ toolName: 'Bash', input: JSON.stringify({ command }) });
  const N = 10_000;
  /** Levels of `$(` that fill the 1,000,000-character bound. */
  const M = Math.floor(LIMITS.maxChars / 3) - 2;
  const cases: [string, string, 'allow' | 'deny'][] = [
    ['a 1 MB argument (over the bound)', `ls ${'a'.repeat(LIMITS.maxChars)}`, 'deny'],
    ['a 1 MB argument before `rm`', `ls ${'a'.repeat(LIMITS.maxChars)}; rm x`, 'deny'],
    ['a text just under the bound', `ls ${'a'.repeat(LIMITS.maxChars - 10)}`, 'allow'],
    ['10,000 `&&`, all allowed', Array(N).fill('ls').join(' && '), 'allow'],
    ['10,000 `&&`, `rm` last', `${'ls && '.repeat(N)}rm x`, 'deny'],
    ['10,000 `&&`, `rm` first', `rm x${' && ls'.repeat(N)}`, 'deny'],
    ['10,000 `|`, `rm` in the middle', `${'ls | '.repeat(N / 2)}rm x${' | ls'.repeat(N / 2)}`, 'deny'],
    ['10,000 nested `$( )`', `${'echo $('.repeat(N)}rm x${')'.repeat(N)}`, 'deny'],
    ['10,000 nested `"$( )"`', `${'echo "$('.repeat(N)}rm x${')"'.repeat(N)}`, 'deny'],
    ['10,000 nested subshells', `${'( '.repeat(N)}rm x${' )'.repeat(N)}`, 'deny'],
    ['10,000 nested subshells, all allowed', `${'( '.repeat(N)}ls${' )'.repeat(N)}`, 'deny'],
    ['10,000 nested brace groups', `${'{ '.repeat(N)}rm x${'; }'.repeat(N)}`, 'deny'],
    ['10,000 nested `if`', `${'if true; then '.repeat(N)}rm x${'; fi'.repeat(N)}`, 'deny'],
    ['10,000 `$(` never closed', `${'$('.repeat(N)}rm`, 'deny'],
    ['1 MB of nested `$( )`', `${'$('.repeat(M)}rm${')'.repeat(M)}`, 'deny'],
    ['1 MB of nested `"$( )"`', `${'"$('.repeat(M / 2)}rm${')"'.repeat(M / 2)}`, 'deny'],
    ['1 MB of nested `$(case …)`', `${'$(case x in x) '.repeat(20_000)}rm${';; esac)'.repeat(20_000)}`, 'deny'],
    ['199 nested `$( )` around 1 MB', `${'$('.repeat(199)}ls ${'a'.repeat(LIMITS.maxChars - 1000)}${')'.repeat(199)}`, 'deny'],
    ['16 nested `eval` around 1 MB', `${'eval '.repeat(16)}ls ${'a'.repeat(LIMITS.maxChars - 1000)}`, 'deny'],
    // The bound on what the parser reads is not a refusal of every substitution or re-parse.
    ['1,000 substitutions one after another (11 KB)', 'echo $(ls) '.repeat(1000), 'allow'],
    ['two `eval`s around 1 MB', `eval eval ls ${'a'.repeat(LIMITS.maxChars - 1000)}`, 'allow'],
    ['199 nested `$( )` around 14 KB', `${'echo $('.repeat(199)}ls ${'a'.repeat(14_000)}${')'.repeat(199)}`, 'allow'],
  ];
  it.each(cases)('%s', (_name, command, want) => {
    const request = call(command);
    expect(readOnly.decide(request).decision).toBe(want);
    expect(readOnly.approve(request).decision).toBe(want);
    expect(readOnly.explain({ ...request, toolName: 'run_shell_command' }).decision).toBe(want);
  });

  test.prop([fc.string({ unit: 'binary', maxLength: 300 }), fc.constantFrom(...Object.keys(DENYING))], { numRuns: 300 })(
    'any input text (not only JSON) is decided, never thrown on',
    (input, name) => {
      const a = DENYING[name]!;
      for (const text of [input, JSON.stringify({ command: input }), `{"command":"${input}"}`]) {
        const d = a.decide({ toolName: 'Bash', input: text });
        expect(['allow', 'ask', 'deny']).toContain(d.decision);
        expect(a.explain({ toolName: 'Bash', input: text }).decision).toBe(d.decision);
        if (d.decision === 'allow') expect(judge(judgeRules, extractCommand(text) ?? '').decision).not.toBe('deny');
      }
    },
  );
});

/** The deny side of `DENYING`'s policies as the judge alone sees it. */
const judgeRules = (() => {
  const r = compileCommandRules({ allow: [{ command: [BENIGN] }], deny: [{ command: ['rm'] }, { command: ['curl'] }] });
  if (!r.ok) throw new Error('rules');
  return r.rules;
})();

/** The command text of a plain input (`JSON.parse`'s reading; `undefined` when there is none). */
function extractCommand(input: string): string | undefined {
  try {
    const v = JSON.parse(input) as unknown;
    if (typeof v !== 'object' || v === null) return undefined;
    const c = (v as Record<string, unknown>)['command'];
    return typeof c === 'string' ? c : undefined;
  } catch {
    return undefined;
  }
}

// ---- 4. the approver equals the definition ----------------------------------------------------

type List = 'deny' | 'ask' | 'allow';
const LISTS: readonly List[] = ['deny', 'ask', 'allow'];

const REGEX_POOL: readonly RuleIR[] = [
  re('', ''),
  re('Bash', '^'),
  re('bash', 'rm'),
  re('', '\\bcurl\\b'),
  re('Shell', '^\\{"command":"git'),
  re('', '(?i)SUDO'),
  re('Bash', 'git (status|diff).*', 'command'),
  re('', '(?s).*', 'command'),
  re('Read', '.'),
  re('run_shell_command', '\\|'),
  re('', 'secret|/etc/'),
  re('', '&&'),
  re('', 'ls', 'command'),
];

const COMMAND_POOL: readonly CommandRule[] = [
  { command: [['ls', 'cat', 'echo', 'head', 'wc', 'grep', 'pwd', 'cd', 'sort']] },
  { command: ['git', ['status', 'diff', 'log']] },
  { command: ['git'] },
  { command: ['rm'] },
  { command: ['curl'] },
  { command: ['bash'] },
  { command: ['sh'] },
  { command: ['find'], args: '([^-][^ ]*|-name [^ ]+|-type [a-z])( ([^-][^ ]*|-name [^ ]+|-type [a-z]))*' },
  { command: ['xargs'] },
  { command: ['git', 'push'] },
  { command: ['sudo'] },
  { redirect: '/etc/.*' },
  { redirect: '.*' },
  { command: ['env'] },
  { command: ['npm', ['test', 'run']], args: '(--?[a-z-]+ ?)*' },
  { command: ['python3'] },
  { command: ['/bin/ls'] },
];

/** A generated rule: a regex rule or a command rule from the pools, in a list, for a tool. */
type GenRule = { list: List } & ({ kind: 'regex'; rule: RuleIR } | { kind: 'command'; rule: CommandRule; tool: string });

const genRule: fc.Arbitrary<GenRule> = fc.oneof(
  fc.record({ list: fc.constantFrom(...LISTS), kind: fc.constant('regex' as const), rule: fc.constantFrom(...REGEX_POOL) }),
  fc.record({
    list: fc.constantFrom(...LISTS),
    kind: fc.constant('command' as const),
    rule: fc.constantFrom(...COMMAND_POOL),
    tool: fc.constantFrom('', '', 'Bash', 'shell', 'RUN_SHELL_COMMAND'),
  }),
);

const genPolicy = fc.record({
  rules: fc.array(genRule, { minLength: 1, maxLength: 8 }),
  default: fc.constantFrom('allow', 'deny'),
  unknown: fc.constantFrom('ask', 'deny'),
  input: fc.constantFrom('raw' as const, 'canonical' as const),
});
type GenPolicy = typeof genPolicy extends fc.Arbitrary<infer T> ? T : never;

function asRuleIR(g: GenRule): RuleIR {
  if (g.kind === 'regex') return g.rule;
  const { command, args, redirect } = g.rule;
  return {
    tool: g.tool,
    match: '',
    ...(command !== undefined ? { command: command.map((w) => (typeof w === 'string' ? w : [...w])) } : {}),
    ...(args !== undefined ? { args } : {}),
    ...(redirect !== undefined ? { redirect } : {}),
  };
}

function policyIR(p: GenPolicy): ApproverIR {
  const list = (l: List) => p.rules.filter((g) => g.list === l).map(asRuleIR);
  return ir({ default: p.default, unknown: p.unknown, input: p.input, allow: list('allow'), ask: list('ask'), deny: list('deny') });
}

const corpusCommand = fc.oneof(fc.constantFrom(...benign.map((b) => b.command)), fc.constantFrom(...bypasses.map((b) => b.command)));

describe('4. the approver decides as the definition: regex rules and the judge, deny > ask > allow > default', () => {
  test.prop(
    [genPolicy, corpusCommand, fc.constantFrom('Bash', 'bash', 'run_shell_command', 'Shell', 'shell', 'Read', 'PowerShell'), fc.constantFrom('plain', 'members', 'escaped')],
    { numRuns: 400 },
  )('over random policies and the commands of the corpora', (p, command, toolName, how) => {
    const a = approver(policyIR(p));
    const input =
      how === 'plain'
        ? JSON.stringify({ command })
        : how === 'members'
          ? JSON.stringify({ description: 'run it', command, timeout: 5 })
          : `{"command":"${[...command].map((c) => hex4(c.charCodeAt(0), true) + (c.length === 2 ? hex4(c.charCodeAt(1), true) : '')).join('')}"}`;
    const request = { toolName, input };
    // The engine's written definition of a call (regex rules and command rules, semantics.md A8).
    const want = callDefinition(policyIR(p), { names: [toolName], input }, { commandJudge: commandJudgeFactory }).decision;
    const at = `${JSON.stringify(policyIR(p))}\n${toolName} ${input}`;
    expect(a.decide(request).decision, at).toBe(want);
    expect(a.explain(request).decision, at).toBe(want);
    expect(a.approve(request).decision, at).toBe(want === 'allow' ? 'allow' : 'deny');
  });
});
