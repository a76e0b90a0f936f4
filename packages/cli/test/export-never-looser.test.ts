/**
 * `verdict export` is never looser (native-formats.md §7.4), property-tested: random policies with
 * command rules (allow, ask, deny; programs, sub-command alternatives, args and redirect constraints) and
 * regex rules are exported to each agent's format, and calls (each rule's own prefix and its respellings:
 * extra arguments, options after the program, wrappers, assignments, paths, compound commands, `bash -c`,
 * plus random commands) are decided twice:
 *
 * - by Verdict's one decision procedure (`decideCall`, the shell judge wired as the CLI's DECIDING does,
 *   under the names the hook asks for the agent's shell tool);
 * - by the agent's own model reading the exported file through `nativeDecider` (Codex and Gemini CLI: the
 *   exact models proven against the agents' engines; Claude Code and Cursor: the models written to their
 *   documentation), its most permissive possible answer; for Codex both the script as `bash -lc` runs it
 *   and the words as a direct argv.
 *
 * The property: the agent never allows where Verdict asks or denies (in allow < ask < deny the agent's
 * decision is at least min(Verdict's, ask); "no rule" and "prompt" count as ask), and on each rule's own
 * prefix the full order holds (a deny Verdict applies there is denied natively, an ask at least asked). The
 * full order cannot hold everywhere: a deny the agent cannot see (behind a wrapper, at another path, inside
 * a script it does not split) reaches its fallback, which asks (Codex and Cursor have no other); the
 * dropped list says so, and the hook denies it.
 */
import fc from 'fast-check';
import { compileSource } from '@verdict/compiler';
import { AGENT_CATALOGUES, commandCombinations, decideCall, type CompiledApprover } from '@verdict/engine';
import { type BashParser, exportNative, exportShellNames, loadBashParser, nativeDecider, type NativeFormat, readNative } from '@verdict/native';
import { beforeAll, describe, expect, it } from 'vitest';
import { DECIDING } from '../src/command-rules.ts';

type Rank = 0 | 1 | 2;
const RANK = { allow: 0, ask: 1, deny: 2 } as const;

let bash: BashParser;
beforeAll(async () => {
  bash = await loadBashParser();
});

// ---- random policies --------------------------------------------------------------------------

// `sort`, `cut`, `docker ps`/`images` and `node --version` are among Claude Code's measured read-only commands.
const PROGRAMS = ['git', 'rm', 'ls', 'npm', 'cat', 'find', 'curl', 'sed', 'env', 'timeout', 'sh', 'xargs', 'sort', 'cut', 'docker', 'node'];
const WORDS = ['status', 'push', 'log', 'diff', '-C', 'run', 'test', '--force', '-rf', '.', 'main', 'build', 'ps', 'images', '--version'];
const ARGS = ['(.* )?--force( .*)?', '-rf( .*)?', '.*', '', '(?s)(.* )?(-[^- ]*r[^ ]*)( .*)?'];
const REDIRECTS = ['/etc/.*', '.*'];
const REGEXES = ['', '.*rm.*', '(?s).*push.*', '.*\\.env.*', '.*'];

interface CommandRule {
  tool?: string;
  command: (string | string[])[];
  args?: string;
  redirect?: string;
}
interface RegexRule {
  tool?: string;
  match?: string;
}
type Rule = CommandRule | RegexRule;

const word = (pool: string[]) => fc.constantFrom(...pool);
const element = (pool: string[]): fc.Arbitrary<string | string[]> =>
  fc.oneof({ weight: 3, arbitrary: word(pool) }, { weight: 1, arbitrary: fc.uniqueArray(word(pool), { minLength: 2, maxLength: 3 }) });

function commandRule(shellTools: string[]): fc.Arbitrary<CommandRule> {
  return fc
    .record(
      {
        tool: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...shellTools) }),
        command: fc.tuple(element(PROGRAMS), fc.array(element(WORDS), { maxLength: 2 })).map(([p, rest]) => [p, ...rest]),
        args: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: word(ARGS) }),
        redirect: fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: word(REDIRECTS) }),
      },
      { requiredKeys: ['command'] },
    )
    .map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as unknown as CommandRule);
}

function regexRule(tools: string[]): fc.Arbitrary<RegexRule> {
  return fc
    .record({ tool: fc.constantFrom(...tools), match: word(REGEXES) })
    .filter((r) => !(r.tool === '' && r.match === ''))
    .map((r) => ({ ...(r.tool !== '' ? { tool: r.tool } : {}), ...(r.match !== '' ? { match: r.match } : {}) }));
}

const SHELL_TOOLS = ['Bash', 'run_shell_command', 'Shell'];
const REGEX_TOOLS = ['', 'Bash', 'run_shell_command', 'shell', 'TodoWrite', 'write_todos', 'read_file'];

function rules(): fc.Arbitrary<Rule[]> {
  return fc.array(fc.oneof({ weight: 4, arbitrary: commandRule(SHELL_TOOLS) as fc.Arbitrary<Rule> }, { weight: 1, arbitrary: regexRule(REGEX_TOOLS) as fc.Arbitrary<Rule> }), { maxLength: 4 });
}

const policyArb = fc.record({
  default: fc.constantFrom('allow', 'deny'),
  unknown: fc.constantFrom('ask', 'deny'),
  allow: rules(),
  ask: rules(),
  deny: rules(),
});
type Policy = typeof policyArb extends fc.Arbitrary<infer T> ? T : never;

function compile(p: Policy): { ir: NonNullable<NonNullable<ReturnType<typeof compileSource>['ir']>['approver']>; approver: CompiledApprover } | undefined {
  const source = JSON.stringify({ approver: { mode: 'pattern', default: p.default, reason: 'no', unknown: p.unknown, allow: p.allow, ask: p.ask, deny: p.deny } });
  const r = compileSource(source, 'policy.json', DECIDING);
  if (r.diagnostics.some((d) => d.severity === 'error') || !r.ir?.approver || !r.approver) return undefined;
  return { ir: r.ir.approver, approver: r.approver };
}

// ---- calls ------------------------------------------------------------------------------------

/** Each command rule's own prefix (every alternative), and the respellings a native matcher reads otherwise. */
function callsOf(p: Policy, random: string[]): string[] {
  const out = new Set<string>(random);
  for (const r of [...p.allow, ...p.ask, ...p.deny]) {
    if (!('command' in r)) continue;
    for (const argv of commandCombinations(r.command, 8) ?? []) {
      const t = argv.join(' ');
      const [first, ...rest] = argv;
      for (const c of [
        t,
        `${t} x`,
        `${t} --force`,
        `${t} -rf /`,
        `${first} -C . ${rest.join(' ')}`.trim(),
        `timeout 5 ${t}`,
        `env FOO=1 ${t}`,
        `FOO=1 ${t}`,
        `/usr/bin/${t}`,
        `\\${t}`,
        `${t} && ls`,
        `ls; ${t}`,
        `ls | ${t}`,
        `bash -c '${t}'`,
        `bash -lc '${t}'`,
        `sh -c "${t} x"`,
        `${t} > /etc/x`,
        `${t}\nls`,
        // Compound commands of the prefix with itself: each part may be allowed on its own.
        `${t} && ${t}`,
        `${t} | ${t}`,
        `${t} & ${t}`,
        `${t};${t}`,
        `${t}\n${t}`,
        `(${t})`,
        `{ ${t}; }`,
        `$(${t})`,
        `${t} $(${t})`,
        `${t} \`${t}\``,
        `${t} <(${t})`,
        `${t} 2>&1`,
        `${t} < /etc/passwd`,
        `${t} #x`,
      ]) out.add(c);
    }
  }
  return [...out];
}

const randomCommands = fc.array(
  fc.array(fc.constantFrom(...PROGRAMS, ...WORDS, '&&', '|', ';', '>', '/tmp/x', '"a b"', "'q'", '$(ls)'), { minLength: 1, maxLength: 5 }).map((w) => w.join(' ')),
  { maxLength: 6 },
);

function verdictRank(approver: CompiledApprover, names: string[], input: string): Rank {
  return RANK[decideCall(approver, { names, input }).decision];
}

// ---- the agents' own decisions over the exported file -------------------------------------------

const NATIVE_RANK = { allow: 0, ask: 1, none: 1, deny: 2 } as const;
type Agent = 'claude' | 'codex' | 'gemini' | 'cursor';

/** Where each agent reads the exported file (the project is `/project`). */
const AT: Record<Agent, string> = {
  claude: '/project/.claude/settings.json',
  codex: '/project/.codex/rules/verdict.rules',
  gemini: '/home/user/.gemini/policies/verdict.toml',
  cursor: '/project/.cursor/cli.json',
};
const FORMAT: Record<Agent, NativeFormat> = { claude: 'claude-settings', codex: 'codex-rules', gemini: 'gemini-policy', cursor: 'cursor-cli' };

/** The agent's own decision over the exported file, its most permissive possible answer; for Codex also the words as a direct argv. */
async function nativeOf(agent: Agent, text: string): Promise<(tool: string, input: Record<string, unknown>) => Rank> {
  const decider = await nativeDecider([readNative(AT[agent], text, FORMAT[agent])], { bash, cwd: '/project', home: '/home/user' });
  expect(decider.loadErrors, text).toEqual([]);
  return (tool, input) => {
    const ask = (i: Record<string, unknown>): Rank => Math.min(...decider.decide({ tool, input: i }).possible.map((d) => NATIVE_RANK[d])) as Rank;
    let r = ask(input);
    // Claude Code asks for shell text it cannot parse (documented); the model's split (Cursor's too) does not
    // check syntax, so text bash cannot parse (`; sed`) counts as asked there.
    if ((agent === 'claude' || agent === 'cursor') && typeof input['command'] === 'string' && r === 0 && unparsable(input['command'])) r = 1;
    if (agent === 'codex' && typeof input['command'] === 'string') {
      const argv = input['command'].split(/\s+/).filter(Boolean);
      if (argv.length > 0) r = Math.min(r, ask({ argv })) as Rank;
    }
    return r;
  };
}

function unparsable(text: string): boolean {
  const tree = bash.parse(text);
  return tree === null || tree.rootNode.hasError;
}

/** Non-shell calls of each agent, with the names the hook asks them under. */
const OTHER_CALLS: Record<Agent, { tool: string; input: Record<string, unknown> }[]> = {
  claude: [
    { tool: 'TodoWrite', input: {} },
    { tool: 'Read', input: { file_path: '/project/.env' } },
    { tool: 'Grep', input: { pattern: 'x', path: '/project' } },
    { tool: 'WebFetch', input: { url: 'https://x.example/' } },
  ],
  codex: [],
  gemini: [
    { tool: 'write_todos', input: {} },
    { tool: 'read_file', input: { file_path: '/project/.env' } },
    { tool: 'replace', input: { file_path: '/project/a.ts' } },
  ],
  cursor: [
    { tool: 'Read', input: { file_path: '/project/.env' } },
    { tool: 'Write', input: { file_path: '/etc/passwd' } },
  ],
};

// ---- the property -----------------------------------------------------------------------------

/** The texts of each command rule's own prefix in one list, for the agent's shell tool. */
function ownPrefixes(rules: Rule[], shellTool: string): string[] {
  return rules.flatMap((r) => ('command' in r && (r.tool === undefined || r.tool === shellTool) ? (commandCombinations(r.command, 8) ?? []).map((a) => a.join(' ')) : []));
}

/** How often each agent's exported file allowed a call (the property must not hold vacuously). */
const allowed: Record<Agent, number> = { claude: 0, codex: 0, gemini: 0, cursor: 0 };

async function check(agent: Agent, p: Policy, random: string[]): Promise<void> {
  const compiled = compile(p);
  if (compiled === undefined) return;
  const names = exportShellNames(agent);
  const decideShell = (command: string) => decideCall(compiled.approver, { names, input: JSON.stringify({ command }) }).decision;
  const exported = exportNative(compiled.ir, agent, { decideShell });
  expect(exported.text.endsWith('\n')).toBe(true);
  const shellTool = names[0]!;
  const native = await nativeOf(agent, exported.text);
  for (const command of callsOf(p, random)) {
    const v = verdictRank(compiled.approver, names, JSON.stringify({ command }));
    const n = native(shellTool, { command });
    if (n === 0) allowed[agent]++;
    if (n < Math.min(v, 1)) {
      throw new Error(`${agent} ${n === 0 ? 'allows' : 'asks'} \`${command}\`, which Verdict ${v === 2 ? 'denies' : 'asks'}\n--- exported:\n${exported.text}`);
    }
  }
  // On each rule's own prefix the full order holds: a deny is denied natively, an ask at least asked (Cursor:
  // one-word programs only, and no ask list).
  for (const [rules, want] of [[p.deny, 2], [p.ask, 1]] as const) {
    for (const t of ownPrefixes(rules, shellTool)) {
      if (agent === 'cursor' && (t.includes(' ') || want === 1)) continue;
      const v = verdictRank(compiled.approver, names, JSON.stringify({ command: t }));
      if (v >= want) expect(native(shellTool, { command: t }), `${agent} decides \`${t}\` below Verdict\n${exported.text}`).toBeGreaterThanOrEqual(want);
    }
  }
  for (const { tool, input } of OTHER_CALLS[agent]) {
    const v = verdictRank(compiled.approver, callNames(agent, tool), JSON.stringify(input));
    const n = native(tool, input);
    if (n === 0) allowed[agent]++;
    if (n < Math.min(v, 1)) throw new Error(`${agent} allows ${tool} ${JSON.stringify(input)}, which Verdict does not\n${exported.text}`);
  }
}

/** The names a call of the agent's tool answers to, as the hook asks them (its own, then its neutral name). */
function callNames(agent: Agent, tool: string): string[] {
  const neutral = AGENT_CATALOGUES[agent].tools.find((t) => t.name === tool)?.neutral;
  return neutral !== undefined ? [tool, neutral] : [tool];
}

describe('export is never looser than the policy', () => {
  for (const agent of ['claude', 'codex', 'gemini', 'cursor'] as const) {
    it(`${agent}: the agent's own decision over the exported file never allows what Verdict asks or denies`, async () => {
      await fc.assert(
        fc.asyncProperty(policyArb, randomCommands, (p, random) => check(agent, p, random)),
        { numRuns: Number(process.env['VERDICT_EXPORT_RUNS'] ?? 60) },
      );
    }, 180_000);
  }

  it('is not vacuous: the exported files allow calls (Claude Code and Gemini CLI: exact commands and whole tools)', () => {
    expect(allowed.claude).toBeGreaterThan(0);
    expect(allowed.gemini).toBeGreaterThan(0);
  });

  it('carries exact allows to Gemini CLI where Verdict allows them', async () => {
    const p: Policy = { default: 'deny', unknown: 'deny', allow: [{ command: ['git', ['status', 'diff']] }, { tool: 'write_todos' }], ask: [], deny: [{ command: ['rm'] }] };
    const compiled = compile(p)!;
    const names = exportShellNames('gemini');
    const exported = exportNative(compiled.ir, 'gemini', { decideShell: (command) => decideCall(compiled.approver, { names, input: JSON.stringify({ command }) }).decision });
    const decide = await nativeOf('gemini', exported.text);
    expect(decide('run_shell_command', { command: 'git status' })).toBe(0);
    // Gemini CLI tries the whole text first: a compound command matches only the fallback ask.
    expect(decide('run_shell_command', { command: 'git status && git diff' })).toBe(1);
    expect(decide('run_shell_command', { command: 'git status --output=x' })).toBe(1);
    expect(decide('run_shell_command', { command: 'rm -rf x' })).toBe(2);
    expect(decide('run_shell_command', { command: 'ls && rm x' })).toBe(2);
    expect(decide('write_todos', {})).toBe(0);
    expect(decide('read_file', { file_path: 'x' })).toBe(1);
    await check('gemini', p, []);
  });
});
