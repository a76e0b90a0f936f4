/**
 * Every entry point that decides a call gives the engine's written definition of a call
 * (`callDefinition`, semantics.md A8): `verdict eval`, `verdict hook` in each dialect, `verdict
 * serve` (the decide route and the hook route of each dialect), `verdict explain`, `verdict test`
 * and `verdict lint` (an inline test whose expectation is the definition's answer passes both), over
 * random policies mixing regex rules and command rules and random calls. The decision, the reason
 * and the deciding rule must agree. `scripts/mutate.mjs` (group `call`) breaks `precedence` and
 * checks that this test fails.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callDefinition, PROTECTION_NAMES, ruleLabel, type ApproverIR, type CallDecision, type CallRequest, type HookAgent, type RuleIR } from '@verdict/engine';
import { commandJudgeFactory } from '@verdict/shell';
import { objectMembers } from '../src/hook/json-members.ts';
import { mapPayload } from '../src/hook/request.ts';
import { askServer } from '../src/serve/client.ts';
import { Metrics } from '../src/serve/metrics.ts';
import { loadPolicyText, PolicyHolder } from '../src/serve/policy.ts';
import { createDecisionServer, type DecisionServer } from '../src/serve/server.ts';
import { runCli } from './harness.ts';
import { toolPayload } from './hook-payloads.ts';

// ---- random policies ----------------------------------------------------------------------------

type List = 'deny' | 'ask' | 'allow';
const LISTS: readonly List[] = ['deny', 'ask', 'allow'];

const re = (tool: string, match: string, field?: string): RuleIR => ({ tool, match, ...(field === undefined ? {} : { field }) });
const cmd = (tool: string, command: (string | string[])[], extra: Partial<RuleIR> = {}): RuleIR => ({ tool, match: '', command, ...extra });

const REGEX_POOL: readonly RuleIR[] = [
  re('', ''),
  re('Bash', '^'),
  re('bash', 'rm'),
  re('', '\\bcurl\\b'),
  re('Shell', 'git'),
  re('', '(?i)SUDO'),
  re('Bash', 'git (status|diff).*', 'command'),
  re('', '(?s).*', 'command'),
  re('Read', '.'),
  re('file.read', 'passwd'),
  re('shell', 'push'),
  re('run_shell_command', '\\|'),
  re('', 'secret|/etc/'),
  re('', '&&'),
  re('file.write', 'a\\.txt'),
  re('file.write', '[ab]\\.txt'),
  re('file.write', '^'),
  re('apply_patch', 'Begin'),
];

const COMMAND_POOL: readonly ((tool: string) => RuleIR)[] = [
  (t) => cmd(t, [['ls', 'cat', 'echo', 'grep', 'pwd']]),
  (t) => cmd(t, ['git', ['status', 'diff', 'log']]),
  (t) => cmd(t, ['git']),
  (t) => cmd(t, ['rm']),
  (t) => cmd(t, ['curl']),
  (t) => cmd(t, ['sh']),
  (t) => cmd(t, ['git', 'push']),
  (t) => cmd(t, ['sudo']),
  (t) => ({ tool: t, match: '', redirect: '/etc/.*' }),
  (t) => cmd(t, ['npm', ['test', 'run']], { args: '(--?[a-z-]+ ?)*' }),
];

const genRule: fc.Arbitrary<{ list: List; rule: RuleIR }> = fc.oneof(
  fc.record({ list: fc.constantFrom(...LISTS), rule: fc.constantFrom(...REGEX_POOL) }),
  fc.record({
    list: fc.constantFrom(...LISTS),
    rule: fc.tuple(fc.constantFrom(...COMMAND_POOL), fc.constantFrom('', '', 'Bash', 'shell', 'RUN_SHELL_COMMAND')).map(([f, t]) => f(t)),
  }),
);

const genPolicy: fc.Arbitrary<ApproverIR> = fc
  .record({
    rules: fc.array(genRule, { minLength: 1, maxLength: 7 }),
    default: fc.constantFrom('allow', 'deny'),
    unknown: fc.constantFrom('ask', 'deny'),
    input: fc.constantFrom('raw' as const, 'canonical' as const),
    reason: fc.constantFrom('', 'no: ask the operator'),
  })
  .map((p) => {
    const list = (l: List) => p.rules.filter((g) => g.list === l).map((g) => g.rule);
    return { mode: 'pattern', default: p.default, reason: p.reason, input: p.input, unknown: p.unknown, allow: list('allow'), ask: list('ask'), deny: list('deny') };
  });

// ---- random calls -------------------------------------------------------------------------------

const COMMANDS = ['git status', 'git status && git diff', 'rm -rf /', 'ls > /etc/passwd', 'curl x | sh', 'echo $(whoami)', 'cat secret.txt', 'git push origin', 'sudo ls', 'npm test', 'ls; eval "$X"', 'pwd'];

interface Call {
  /** The tool as `verdict eval`, `explain` and inline tests ask it. */
  tool: string;
  input: string;
}

const genCall: fc.Arbitrary<Call> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      tool: fc.constantFrom('Bash', 'bash', 'run_shell_command', 'Shell', 'shell', 'PowerShell'),
      input: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...COMMANDS).map((c) => JSON.stringify({ command: c })) },
        { weight: 1, arbitrary: fc.constantFrom(...COMMANDS).map((c) => JSON.stringify({ description: 'run it', command: c })) },
        { weight: 1, arbitrary: fc.constantFrom('{"cmd":"ls"}', '{"command":1}', '{"command":"ls","command":"rm -rf /"}', '{"command":"pwd","x":{"a":1,"A":2}}', 'not json') },
      ),
    }),
  },
  // A Codex patch: its paths are asked as `file.write` calls.
  {
    weight: 2,
    arbitrary: fc.record({
      tool: fc.constant('apply_patch'),
      input: fc.subarray(['a.txt', 'b.txt', 'c.txt'], { minLength: 1 }).map((paths) => JSON.stringify({ command: `*** Begin Patch\n${paths.map((p) => `*** Update File: ${p}\n@@\n-x\n+y\n`).join('')}*** End Patch\n` })),
    }),
  },
  { weight: 1, arbitrary: fc.record({ tool: fc.constantFrom('Read', 'read', 'Write'), input: fc.constantFrom('{"file_path":"/etc/passwd"}', '{"file_path":"README.md"}', '{"file_path":"a.txt","x":"secret"}') }) },
);

// ---- the entry points ---------------------------------------------------------------------------

/** What an entry point answered, as compared: the decision, the reason, the deciding rule (`deny[2]`, or `-`). */
type Said = string;
const said = (decision: string, reason: string, rule: string | null | undefined): Said => `${decision} | ${reason} | ${rule ?? '-'}`;
const fromDefinition = (d: CallDecision): Said => said(d.decision, d.reason, d.rule === null ? null : ruleLabel(d.rule));
/** `deny[3] at p.json:12:7` → `deny[3]`. */
const label = (text: string | null | undefined): string | null => (text == null ? null : text.replace(/ at .*$/, ''));

const definition = (ir: ApproverIR, r: CallRequest): CallDecision => callDefinition(ir, r, { commandJudge: commandJudgeFactory });

let dir: string;
let server: DecisionServer;
let holder: PolicyHolder;
let socket: string;

function post(path: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: socket, path, method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve(text));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'verdict-entry-'));
  socket = join(dir, 's.sock');
  const first = loadPolicyText('{"approver":{"mode":"deny_all"}}', join(dir, 'first.json'));
  if (!first.ok) throw new Error(first.error);
  holder = new PolicyHolder(join(dir, 'first.json'), first.policy);
  server = createDecisionServer({ policy: holder, metrics: new Metrics(), maxBodyBytes: 1 << 20, maxInflight: 64, deadlineMs: 10_000, log: () => {} });
  await new Promise<void>((resolve) => server.server.listen(socket, () => resolve()));
});

afterAll(async () => {
  await server?.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

const HOOKS: readonly { agent: HookAgent; event: string }[] = [
  { agent: 'claude', event: 'PreToolUse' },
  { agent: 'codex', event: 'PreToolUse' },
  { agent: 'gemini', event: 'BeforeTool' },
  { agent: 'cursor', event: 'preToolUse' },
];

let seq = 0;

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Every entry point's answer to `call` under `ir` (the hooks of `hooks` only), beside the definition's, as `[entry, answer, want]`. */
async function answers(ir: ApproverIR, call: Call, hooks: readonly { agent: HookAgent; event: string }[] = HOOKS): Promise<[string, Said, Said][]> {
  const out: [string, Said, Said][] = [];
  const one = definition(ir, { names: [call.tool], input: call.input });
  const want = fromDefinition(one);
  // The inline test carries the definition's answer: `verdict test` and `verdict lint` must pass it.
  const test: Record<string, unknown> = { tool: call.tool, input: call.input, expect: one.decision, reason: one.reason };
  if (one.by === 'rule' && one.rule !== null) test['rule'] = ruleLabel(one.rule);
  if (one.by === 'default') test['rule'] = 'default';
  const file = join(dir, `p${seq++}.json`);
  // The built-in protections lifted: this property is about the rules' precedence, which the
  // definition states (the protections have their own property, protections.test.ts).
  const text = JSON.stringify({ approver: { ...ir, protections: { lift: [...PROTECTION_NAMES] } }, tests: [test] }, null, 1);
  writeFileSync(file, text);

  const line = JSON.stringify({ toolName: call.tool, input: call.input });
  const evalRun = await runCli(['eval', '--policy', file], `${line}\n`);
  const e = JSON.parse(evalRun.stdout) as { decision: string; reason: string; rule: { list: string; index: number } | null };
  out.push(['eval', said(e.decision, e.reason, e.rule && `${e.rule.list}[${e.rule.index}]`), want]);

  const explainRun = await runCli(['explain', '--policy', file, '--tool', call.tool, '--input', call.input, '--format', 'json']);
  const x = JSON.parse(explainRun.stdout) as { decision: string; reason: string; rule: { list: string; index: number } | null };
  out.push(['explain', said(x.decision, x.reason, x.rule && `${x.rule.list}[${x.rule.index}]`), want]);

  const testRun = await runCli(['test', file]);
  out.push(['test', testRun.code === 0 ? want : `fails: ${testRun.stdout}`, want]);
  const lintRun = await runCli(['lint', '--format', 'json', file]);
  const lintFailing = (JSON.parse(lintRun.stdout) as { messages: { ruleId: string; message: string }[] }[]).flatMap((f) => f.messages).filter((m) => m.ruleId === 'tests/failing');
  out.push(['lint', lintFailing.length === 0 ? want : `fails: ${lintFailing[0]!.message}`, want]);

  const loaded = loadPolicyText(text, file);
  if (!loaded.ok) throw new Error(loaded.error);
  holder.current = loaded.policy;
  const d = JSON.parse(await post('/v1/decide', line)) as { decision: string; reason: string; rule: { list: string; index: number } | null };
  out.push(['serve /v1/decide', said(d.decision, d.reason, d.rule && `${d.rule.list}[${d.rule.index}]`), want]);

  for (const { agent, event } of hooks) {
    // The input as the agent sends it: the object itself, or (not JSON) a string.
    const payload = toolPayload(agent, event, call.tool, isJson(call.input) ? call.input : JSON.stringify(call.input));
    const members = objectMembers(payload);
    const mapped = members === undefined ? undefined : mapPayload(agent, event, members);
    if (mapped === undefined || !mapped.ok) throw new Error(`the payload does not map: ${payload}`);
    // The hook decides every name the dialect gives the call (its own, the neutral one).
    const hookWant = fromDefinition(definition(ir, mapped.request));
    const log = join(dir, `hook${seq}-${agent}.jsonl`);
    await runCli(['hook', '--agent', agent, '--policy', file, '--log', log], payload);
    const h = JSON.parse(readFileSync(log, 'utf8').trim().split('\n').pop()!) as { decision: string; reason: string; rule: string | null };
    out.push([`hook ${agent}`, said(h.decision, h.reason, label(h.rule)), hookWant]);
    const asked = await askServer({ kind: 'unix', path: socket }, agent, payload, '', 5000);
    if (!asked.ok) throw new Error(`serve /v1/hooks/${agent}: ${asked.why}`);
    out.push([`serve /v1/hooks/${agent}`, said(asked.value.decision, asked.value.reason, label(asked.value.rule)), hookWant]);
  }
  return out;
}

describe('every entry point decides as the definition of a call', () => {
  it('over random policies with regex and command rules and random calls', async () => {
    await fc.assert(
      fc.asyncProperty(genPolicy, genCall, async (ir, call) => {
        for (const [entry, got, want] of await answers(ir, call)) {
          expect(got, `${entry}: ${call.tool} ${call.input}\n${JSON.stringify(ir)}`).toBe(want);
        }
      }),
      { numRuns: Number(process.env['VERDICT_ENTRY_RUNS'] ?? 100) },
    );
  }, 300_000);

  // Denser policies of rules that meet on shell calls: a regex rule and a command rule of
  // different lists deciding the same call.
  const dense = fc
    .record({
      deny: fc.array(fc.oneof(fc.constantFrom(...REGEX_POOL), fc.constantFrom(...COMMAND_POOL).map((f) => f(''))), { maxLength: 2 }),
      ask: fc.array(fc.oneof(fc.constantFrom(re('', ''), re('Bash', '^'), re('shell', 'git'), re('', 'ls')), fc.constantFrom(...COMMAND_POOL).map((f) => f('Bash'))), { minLength: 1, maxLength: 3 }),
      allow: fc.array(fc.oneof(fc.constantFrom(...REGEX_POOL), fc.constantFrom(...COMMAND_POOL).map((f) => f(''))), { minLength: 1, maxLength: 3 }),
      default: fc.constantFrom('allow', 'deny'),
      unknown: fc.constantFrom('ask', 'deny'),
    })
    .map((p): ApproverIR => ({ mode: 'pattern', reason: 'no', input: 'raw', ...p }));
  const shellCall = fc.record({ tool: fc.constantFrom('Bash', 'shell', 'Shell'), input: fc.constantFrom(...COMMANDS).map((c) => JSON.stringify({ command: c })) });
  it('over dense policies on shell calls', async () => {
    await fc.assert(
      fc.asyncProperty(dense, shellCall, async (ir, call) => {
        for (const [entry, got, want] of await answers(ir, call, HOOKS.slice(0, 1))) expect(got, `${entry}: ${call.tool} ${call.input}\n${JSON.stringify(ir)}`).toBe(want);
      }),
      { numRuns: Number(process.env['VERDICT_ENTRY_RUNS'] ?? 60) },
    );
  }, 300_000);

  // Codex patches: the whole call under its names, each path as a `file.write` call.
  // Codex calls apply_patch `file.write` too, so a rule on the patch's text allows the whole call;
  // a `file_path` field rule sees only the paths.
  const PATCH_POOL: readonly RuleIR[] = [
    re('file.write', 'a\\.txt'),
    re('file.write', '/repo/[ab]\\.txt', 'file_path'),
    re('file.write', '/repo/a\\.txt', 'file_path'),
    re('', '/repo/c\\.txt', 'file_path'),
    re('apply_patch', 'c\\.txt'),
    re('', 'b\\.txt'),
  ];
  const patchPolicy = fc
    .record({
      deny: fc.subarray([...PATCH_POOL], { maxLength: 1 }),
      ask: fc.subarray([...PATCH_POOL], { maxLength: 1 }),
      allow: fc.subarray([...PATCH_POOL], { minLength: 1, maxLength: 3 }),
      default: fc.constantFrom('allow', 'deny'),
    })
    .map((p): ApproverIR => ({ mode: 'pattern', reason: 'no', input: 'raw', ...p }));
  const patchCall = fc.subarray(['a.txt', 'b.txt', 'c.txt'], { minLength: 1 }).map((paths): Call => ({
    tool: 'apply_patch',
    input: JSON.stringify({ command: `*** Begin Patch\n${paths.map((p) => `*** Update File: ${p}\n@@\n-x\n+y\n`).join('')}*** End Patch\n` }),
  }));
  it('over Codex patches', async () => {
    await fc.assert(
      fc.asyncProperty(patchPolicy, patchCall, async (ir, call) => {
        for (const [entry, got, want] of await answers(ir, call, [{ agent: 'codex', event: 'PreToolUse' }])) expect(got, `${entry}: ${call.tool} ${call.input}\n${JSON.stringify(ir)}`).toBe(want);
      }),
      { numRuns: Number(process.env['VERDICT_ENTRY_RUNS'] ?? 60) },
    );
  }, 300_000);

  it('a deny under one name beats an ask under another (the hook once let the first answer asked stand)', async () => {
    // Claude's Bash is asked as `Bash` and as `shell`: the command rules (under `Bash`) ask about
    // the push, a regex rule under `shell` denies it.
    const ir: ApproverIR = { mode: 'pattern', default: 'deny', reason: 'no', input: 'raw', allow: [], ask: [cmd('Bash', ['git', 'push'])], deny: [re('shell', 'push')] };
    const got = await answers(ir, { tool: 'Bash', input: '{"command":"git push origin"}' });
    const hook = got.find(([entry]) => entry === 'hook claude')!;
    expect(hook[1]).toBe('deny | no | deny[0]');
    expect(hook[1]).toBe(hook[2]);
  });
});
