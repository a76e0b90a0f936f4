/**
 * One hook call: read the payload, decide it, answer in the caller's dialect, exactly once.
 *
 * Fail closed by construction: the only way out is `finish`, and every path that is not a decision
 * (unreadable or empty stdin, invalid JSON, a payload from no known agent, an event verdict does not
 * answer, a policy that does not load, an exception, the deadline) finishes with the agent's deny.
 * The watchdog is a timer started before anything is read: it answers deny before the agent's own
 * timeout (which would let the tool run). stdout carries only the answer; the log goes to a file.
 */
import { appendFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CommandIo } from '../args.ts';
import type { ApproverIR, CompiledApprover, HookAgent, RuleRef } from '@verdict/engine';
import { decisionAnswer, denyAnswer, type DialectOptions, type HookAnswer, type HookDecision, mayApprove } from './dialects.ts';
import { decodeUtf8AsGo } from '../input/eval-input.ts';
import type { ObjectMembers } from './json-members.ts';
import type { ProtectSetup } from './protect.ts';

/** Largest payload read (Cursor's beforeReadFile carries whole files); a longer one is denied. */
export const MAX_PAYLOAD_BYTES = 64 * 1024 * 1024;

/**
 * The test switch: `internal` throws inside the decision, `uncaught` throws where nothing catches it
 * (the process guard answers), `hang` never decides (the watchdog answers).
 */
export const FAULT_ENV = 'VERDICT_HOOK_FAULT';

export interface HookOptions extends DialectOptions {
  /** From `--agent`; the payload overrides it. */
  agent: HookAgent | undefined;
  policy: string | undefined;
  /** Milliseconds from `startedAt` until the watchdog answers deny. */
  deadlineMs: number;
  /** `performance.now()` at which the deadline starts (the process start, for the real command). */
  startedAt: number;
  log: string | undefined;
  /** A problem with the command line, answered as a deny in whatever dialect the payload shows. */
  usageProblem?: string;
  /** `--server ADDRESS`: ask this `verdict serve` first. */
  server?: string;
  /** How long to wait for the server's answer (ms). */
  serverTimeoutMs?: number;
  /**
   * The real process: an exception or rejection nothing caught (in a stream callback, say) also
   * answers deny instead of ending the process with exit 1, which every agent reads as "run it".
   */
  guardProcess?: boolean;
}

export interface CallState {
  agent: HookAgent | undefined;
  event: string | undefined;
  tool: string | undefined;
  mismatch?: { flag: HookAgent; payload: HookAgent };
  /** What became of `--server`: answered by a version, or why the hook decided in-process. */
  server?: string;
}

export interface Outcome {
  answer: HookAnswer;
  decision: HookDecision;
  reason: string;
  /** The deciding rule as text: `deny[3] at p.yaml:12:7`. */
  rule?: string | null;
  ruleRef?: RuleRef | null;
  error?: string;
  /** The protection a write broke (docs/protections.md). */
  protection?: string;
}

/** A refusal: the payload or the command line cannot be decided; answered as the agent's deny. */
export class Deny extends Error {}

async function readPayload(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stdin) {
      const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      total += b.length;
      if (total > MAX_PAYLOAD_BYTES) throw new Deny(`the payload is longer than ${MAX_PAYLOAD_BYTES} bytes`);
      chunks.push(b);
    }
  } catch (err) {
    if (err instanceof Deny) throw err;
    throw new Deny(`cannot read the payload on standard input: ${err instanceof Error ? err.message : String(err)}`);
  }
  const text = decodeUtf8AsGo(Buffer.concat(chunks));
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function ruleText(rule: { list: string; index: number; span?: { file: string; start: { line: number; column: number } } } | null): string | null {
  if (!rule) return null;
  const at = rule.span ? ` at ${rule.span.file}:${rule.span.start.line}:${rule.span.start.column}` : '';
  return `${rule.list}[${rule.index}]${at}`;
}

/** What a payload is decided with: the agent flag, a command-line problem, the dialect options. */
export interface PayloadOptions extends DialectOptions {
  agent: HookAgent | undefined;
  usageProblem?: string;
  /** The protected paths' setup (docs/protections.md): the policy file, the log. */
  protect?: ProtectSetup;
}

/** A loaded policy: its approver, and what the protected paths need from it. */
export interface HookPolicy {
  approver: CompiledApprover;
  /** The protections it lifts (`protections: {lift: […]}`). */
  lift: readonly string[];
  /** Its shell tools (`shell:`), when it names them. */
  shellTools?: readonly string[];
}

/**
 * The approver a payload is decided with, given every tool name the call will be asked under
 * (`verdict hook` loads the shell parser only when one of them is a shell tool of the policy).
 * A bare approver lifts no protection.
 */
export type PolicySource = (names: readonly string[], project?: string) => CompiledApprover | HookPolicy | Promise<CompiledApprover | HookPolicy>;

/**
 * Decides one payload's text, as `verdict hook` and `verdict serve`'s `/v1/hooks/<agent>` both do:
 * parse, detect the agent, map the payload to a request, ask `approver(names)`, answer in the dialect.
 * Rejects with {@link Deny} (a refusal) or any error (internal); `state` says how far it got.
 */
export async function decidePayload(text: string, options: PayloadOptions, state: CallState, approver: PolicySource): Promise<Outcome> {
  if (process.env[FAULT_ENV] === 'hang') await new Promise<never>(() => {});
  if (process.env[FAULT_ENV] === 'uncaught') setImmediate(() => {
    throw new Error('fault injected by VERDICT_HOOK_FAULT');
  });
  if (process.env[FAULT_ENV] === 'uncaught') await new Promise<never>(() => {});
  if (text.trim() === '') throw new Deny('no payload on standard input');
  // Loaded here, not with this module: `verdict hook --server` answers without them (they load the
  // engine's JSON reader, and with it the regex engine).
  const [{ detectAgent, sniffEvent }, { member, objectMembers }] = await Promise.all([import('./detect.ts'), import('./json-members.ts')]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    state.event = sniffEvent(text);
    throw new Deny('the payload is not valid JSON');
  }
  const payload = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? objectMembers(text) : undefined;
  if (!payload) throw new Deny('the payload is not a JSON object');
  const ev = member(payload, 'hook_event_name')?.value;
  if (typeof ev === 'string') state.event = ev;
  const detected = detectAgent(payload);
  if (detected && options.agent && detected !== options.agent) state.mismatch = { flag: options.agent, payload: detected };
  state.agent = detected ?? options.agent;
  if (payload.repeated !== undefined) throw new Deny(`the payload repeats the key \`${payload.repeated}\``);
  if (options.usageProblem) throw new Deny(options.usageProblem);
  if (!state.agent) throw new Deny('cannot tell which agent sent the payload: pass `--agent`');
  const { AGENT_CATALOGUES } = await import('@verdict/engine');
  const catalogue = AGENT_CATALOGUES[state.agent];
  if (state.event === undefined) throw new Deny('the payload has no string `hook_event_name`');
  if (!catalogue.events.includes(state.event)) throw new Deny(`${catalogue.title} event \`${state.event}\` is not one verdict hook answers`);
  const tn = member(payload, 'tool_name')?.value;
  if (typeof tn === 'string') state.tool = tn;
  if (process.env[FAULT_ENV] === 'internal') throw new Error('fault injected by VERDICT_HOOK_FAULT');

  const { mapPayload } = await import('./request.ts');
  const mapped = mapPayload(state.agent, state.event, payload);
  if (!mapped.ok) throw new Deny(mapped.reason);
  state.tool = mapped.request.toolName;
  // The engine's one decision procedure, on the fast path (semantics.md A8), with the built-in
  // protections (docs/protections.md) in its `protect` slot.
  const { decideCall, namesAsked } = await import('@verdict/engine');
  const { hookProtection, homeOf, projectOf } = await import('./protect.ts');
  const project = projectOf(state.agent, payload, options.protect?.env ?? process.env);
  const source = await approver(namesAsked(mapped.request), project);
  const policy: HookPolicy = 'approver' in source ? source : { approver: source, lift: [] };
  // Paths as the system opens them, on this machine (docs/protections.md "Paths").
  const { resolveRequest } = await import('./resolve-paths.ts');
  const request = resolveRequest(mapped.request, callCwd(payload, member), homeOf(options.protect?.env ?? process.env));
  const hit = await hookProtection(state.agent, payload, request, { ...options.protect, lift: policy.lift }, policy.shellTools);
  const v = decideCall(policy.approver, request, { protect: () => hit });
  const approve = options.approve === true && mayApprove(state.agent, state.event, member(payload, 'permission_suggestions')?.value);
  return {
    answer: decisionAnswer(state.agent, state.event, v.decision, v.reason, { ...options, approve }),
    decision: v.decision,
    reason: v.reason,
    rule: ruleText(v.rule),
    ruleRef: v.rule,
    ...(v.protection ? { protection: v.protection.name } : {}),
  };
}

/** The outcome of {@link decidePayload}, a refusal or an error answered as the agent's deny: never rejects. */
export async function answerPayload(text: string, options: PayloadOptions, state: CallState, approver: PolicySource): Promise<Outcome> {
  try {
    return await decidePayload(text, options, state, approver);
  } catch (err) {
    return refusal(state, err);
  }
}

/** The deny outcome of an error: a {@link Deny} is a refusal, anything else an internal error. */
export function refusal(state: CallState, err: unknown): Outcome {
  const refused = err instanceof Deny;
  const reason = refused ? err.message : `internal error: ${err instanceof Error ? err.message : String(err)}`;
  return { answer: denyAnswer(state.agent, state.event, reason), decision: 'deny', reason, error: refused ? 'refused' : 'internal' };
}

async function decide(options: HookOptions, io: CommandIo, state: CallState): Promise<Outcome> {
  const text = await readPayload(io.stdin);
  if (options.server !== undefined && options.usageProblem === undefined) {
    const remote = await fromServer(options, text, state);
    if (typeof remote !== 'string') return remote;
    if (options.policy !== undefined) state.server = `fell back to in-process: ${remote}`;
    else {
      // No answer and no policy of its own: the payload is still read (for the agent's dialect and
      // event), then denied.
      state.server = `no answer: ${remote}`;
      const why = `the verdict serve at \`${options.server}\` gave no answer (${remote}), and there is no --policy to decide with`;
      return decidePayload(text, options, state, () => Promise.reject(new Deny(why)));
    }
  }
  const protect = { policyFiles: options.policy ? [resolve(io.cwd, options.policy)] : [], log: options.log, env: io.env ?? process.env };
  return decidePayload(text, { ...options, protect }, state, (names, project) => loadPolicy(options.policy, names, project));
}

/**
 * The answer of the `verdict serve` at `options.server`, or why there is none (then the hook decides
 * in-process, or denies without a policy): it waits at most `serverTimeoutMs`, and at most half of
 * what is left of the deadline, so the in-process decision always has time.
 */
async function fromServer(options: HookOptions, text: string, state: CallState): Promise<Outcome | string> {
  const { parseAddress } = await import('../serve/address.ts');
  const address = parseAddress(options.server!);
  if ('message' in address) return address.message;
  const { askServer } = await import('../serve/client.ts');
  const left = options.startedAt + options.deadlineMs - performance.now();
  const wait = Math.max(1, Math.min(options.serverTimeoutMs ?? 1000, left / 2));
  const query = `${options.approve ? '&approve=1' : ''}${options.nativeAsk ? '&native-ask=1' : ''}`;
  const asked = await askServer(address, options.agent, text, query, wait, process.env['VERDICT_SERVE_TOKEN'] || undefined);
  if (!asked.ok) return asked.why;
  const v = asked.value;
  state.server = `answered by ${v.policyVersion}`;
  if (v.agent === 'claude' || v.agent === 'codex' || v.agent === 'gemini' || v.agent === 'cursor') state.agent = v.agent;
  if (v.event !== undefined) state.event = v.event;
  if (v.tool !== undefined) state.tool = v.tool;
  return { answer: v.answer, decision: v.decision, reason: v.reason, rule: v.rule };
}

/** The folder the call's relative paths are relative to: the payload's absolute `cwd`, if it sends one. */
function callCwd(payload: ObjectMembers, member: (o: ObjectMembers, key: string) => { value: unknown } | undefined): string | undefined {
  const cwd = member(payload, 'cwd')?.value;
  return typeof cwd === 'string' && cwd.startsWith('/') ? cwd : undefined;
}

/** What the hook needs of a loaded policy: its approver, the protections it lifts, its shell tools. */
function hookPolicy(approver: CompiledApprover, ir: ApproverIR | undefined): HookPolicy {
  return { approver, lift: ir?.protections?.lift ?? [], ...(ir?.shell ? { shellTools: ir.shell.map((t) => t.tool) } : {}) };
}

export async function loadPolicy(file: string | undefined, names: readonly string[], project?: string): Promise<HookPolicy> {
  if (!file) throw new Deny('no policy: pass `--policy FILE`');
  // The compiled-policy cache (policy-cache.ts): the approver IR of this exact text, built into an
  // approver without the compiler. Any doubt is a miss, and a miss compiles as if there were no cache.
  const cache = await import('./policy-cache.ts');
  const text = cache.readPolicyText(file);
  if (project === undefined && text?.includes('${project}')) {
    throw new Deny(`the policy \`${file}\` names \`\${project}\`, and the project folder is the root or the home folder (it would stand for every file)`);
  }
  // `${project}` is compiled into the patterns: an entry holds one project's compilation.
  const keyText = text === undefined ? undefined : project === undefined ? text : `${text}\0project=${project}`;
  const cached = keyText === undefined ? undefined : cache.cachedApproverIR(file, keyText);
  if (cached !== undefined) {
    const judge = cache.judgesCommands(cached, names) ? (await import('../command-rules.ts')).DECIDING : (await import('../command-rules-checked.ts')).CHECKED;
    const approver = cache.approverFromIR(cached, judge.commandJudge, names);
    if (approver !== undefined) return hookPolicy(approver, cached);
  }
  const { compileFile } = await import('@verdict/compiler');
  // The shell parser is loaded only for a call the engine will judge a command of (the hook starts
  // on every call): one asked under a shell tool of a policy with command rules. Otherwise the
  // policy's command rules are only checked (a broken one fails the policy), by a judge that would
  // deny any text it were given, and the policy is compiled once.
  const { CHECKING } = await import('../command-rules-check.ts');
  const at = project !== undefined ? { project } : {};
  const result = compileFile(file, { ...CHECKING, ...at });
  const error = result.diagnostics.find((d) => d.severity === 'error');
  if (error) {
    const at = error.span ? ` (${error.span.file}:${error.span.start.line}:${error.span.start.column})` : '';
    throw new Deny(`the policy \`${file}\` does not load: ${error.message}${at}`);
  }
  if (!result.approver) throw new Deny(`the policy \`${file}\` has no approver block`);
  // Stored for the next call (the IR, compiled once with its command rules checked; keyed by the project too).
  if (text !== undefined && cache.cacheable(result.ir, result.text, text)) cache.storeApproverIR(file, keyText!, result.ir.approver);
  const approverIr = result.ir?.approver;
  if (approverIr !== undefined && cache.judgesCommands(approverIr, names)) {
    // The file loaded with its command rules checked: only the approver is built again, with the
    // judge (the compile stage's own call; the file is not read or parsed twice).
    const [{ compileApprover }, { DECIDING }] = await Promise.all([import('@verdict/engine'), import('../command-rules.ts')]);
    const judged = compileApprover(approverIr, DECIDING);
    if (judged.approver === undefined || judged.issues.length > 0) {
      throw new Deny(`the policy \`${file}\` does not load: ${judged.issues[0]?.message ?? 'its approver did not compile'}`);
    }
    return hookPolicy(judged.approver, approverIr);
  }
  return hookPolicy(result.approver, approverIr);
}

function writeLog(file: string | undefined, entry: Record<string, unknown>): void {
  if (!file) return;
  try {
    appendFileSync(file, `${JSON.stringify(entry)}\n`);
  } catch {
    // The log never changes the answer.
  }
}

function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (text === '') return Promise.resolve();
  return new Promise((resolve) => {
    try {
      stream.write(text, () => resolve());
    } catch {
      resolve();
    }
  });
}

/** Runs one hook call; resolves to the exit code once the answer is written. Never rejects. */
export function runHook(options: HookOptions, io: CommandIo): Promise<number> {
  const began = performance.now();
  const state: CallState = { agent: options.agent, event: undefined, tool: undefined };
  let done = false;
  return new Promise<number>((resolve) => {
    const finish = (outcome: Outcome): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const { answer } = outcome;
      const end = performance.now();
      writeLog(options.log, {
        time: new Date().toISOString(),
        agent: state.agent ?? null,
        ...(state.mismatch ? { mismatch: `--agent ${state.mismatch.flag}, payload from ${state.mismatch.payload}` } : {}),
        event: state.event ?? null,
        tool: state.tool ?? null,
        decision: outcome.decision,
        reason: outcome.reason,
        rule: outcome.rule ?? null,
        ...(outcome.protection ? { protection: outcome.protection } : {}),
        ...(outcome.error ? { error: outcome.error } : {}),
        ...(state.server ? { server: state.server } : {}),
        exit: answer.exitCode,
        ms: Math.round((end - began) * 100) / 100,
        sinceStartMs: Math.round((end - options.startedAt) * 100) / 100,
      });
      void Promise.all([write(io.stdout, answer.stdout), write(io.stderr, answer.stderr)]).then(() => resolve(answer.exitCode));
    };
    const failed = (reason: string, error: string): void =>
      finish({ answer: denyAnswer(state.agent, state.event, reason), decision: 'deny', reason, error });
    if (options.guardProcess) {
      const crash = (err: unknown): void => failed(`internal error: ${err instanceof Error ? err.message : String(err)}`, 'internal');
      process.on('uncaughtException', crash);
      process.on('unhandledRejection', crash);
      // An agent that stops reading (EPIPE) must not turn into an error exit either.
      io.stdout.on('error', () => {});
      io.stderr.on('error', () => {});
    }
    const left = Math.max(0, options.startedAt + options.deadlineMs - performance.now());
    const timer = setTimeout(() => failed(`no decision within the deadline of ${options.deadlineMs} ms`, 'deadline'), left);
    decide(options, io, state).then(finish, (err: unknown) => {
      if (err instanceof Deny) failed(err.message, 'refused');
      else failed(`internal error: ${err instanceof Error ? err.message : String(err)}`, 'internal');
    });
  });
}
