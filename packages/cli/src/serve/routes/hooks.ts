/**
 * `POST /v1/hooks/<agent>` (or `/v1/hooks`, the agent told by the payload): a hook payload, decided
 * by the code of `verdict hook` (`answerPayload`). The answer is the body the agent's HTTP hook
 * reads (status 200, always: Claude Code reads any other status as no decision); with
 * `?form=command`, the answer `verdict hook` would give as a process (`{exitCode, stdout, stderr}`:
 * what `verdict hook --server` relays).
 */
import { HOOK_AGENTS, type HookAgent } from '@verdict/engine';
import { decodeUtf8AsGo } from '../../input/eval-input.ts';
import { denyAnswer, type HookAnswer, httpBody } from '../../hook/dialects.ts';
import { answerPayload, type CallState } from '../../hook/run.ts';
import { JSON_TYPE, msSince, round, type RouteAnswer, type RouteContext, ruleAt, ruleName, withoutBom } from './route.ts';

/** What the path and the query say about a hook request. */
export interface HookParams {
  /** The agent the path names. */
  agent?: HookAgent | undefined;
  /** A path segment that names no agent (cut to 64 characters). */
  badAgent?: string | undefined;
  /** `?form=command`. */
  commandForm: boolean;
  approve: boolean;
  nativeAsk: boolean;
}

/** The parameters of `/v1/hooks[/AGENT]?form=…&approve&native-ask`. */
export function hookParams(agentSegment: string | undefined, query: URLSearchParams): HookParams {
  const params: HookParams = {
    commandForm: query.get('form') === 'command',
    approve: query.has('approve') && query.get('approve') !== '0',
    nativeAsk: query.has('native-ask') && query.get('native-ask') !== '0',
  };
  if (agentSegment !== undefined) {
    const agent = HOOK_AGENTS.find((a) => a === agentSegment);
    if (agent) params.agent = agent;
    else params.badAgent = agentSegment.slice(0, 64);
  }
  return params;
}

/** The `?form=command` body: what `verdict hook` would answer as a process. */
function commandBody(answer: HookAnswer, version: string, call: { decision: string; reason: string; rule?: string | null | undefined }, state?: CallState): string {
  const body = {
    exitCode: answer.exitCode,
    stdout: answer.stdout,
    stderr: answer.stderr,
    decision: call.decision,
    reason: call.reason,
    rule: call.rule ?? null,
    agent: state?.agent ?? null,
    event: state?.event ?? null,
    tool: state?.tool ?? null,
    policyVersion: version,
  };
  return `${JSON.stringify(body)}\n`;
}

/** The route's deny, in the agent's form (or the command form), for a request it cannot decide. */
export function hookRefusal(status: number, reason: string, version: string, params: HookParams | undefined): Omit<RouteAnswer, 'audit'> {
  const agent = params?.agent;
  const answer = denyAnswer(agent, undefined, reason);
  if (params?.commandForm) {
    return { status, headers: { 'Verdict-Policy-Version': version, ...JSON_TYPE }, body: commandBody(answer, version, { decision: 'deny', reason }) };
  }
  return {
    status: 200,
    headers: { 'Verdict-Policy-Version': version, ...JSON_TYPE, 'Verdict-Decision': 'deny', 'Verdict-Exit-Code': String(answer.exitCode) },
    body: httpBody(agent, undefined, answer),
  };
}

/** Decides a hook payload. Rejects only on an internal error (the transport answers it with {@link hookRefusal}). */
export async function hookRoute(ctx: RouteContext, body: Buffer, params: HookParams): Promise<RouteAnswer> {
  const { policy, metrics } = ctx;
  const loaded = policy.current;
  const text = decodeUtf8AsGo(withoutBom(body));
  const state: CallState = { agent: params.agent, event: undefined, tool: undefined };
  const payloadOptions = {
    agent: params.agent,
    approve: params.approve,
    nativeAsk: params.nativeAsk,
    ...(params.badAgent !== undefined ? { usageProblem: `unknown agent \`${params.badAgent}\` in the path (want claude, codex, gemini or cursor)` } : {}),
    // The protected paths are judged on this machine (docs/protections.md: run serve where the tools run).
    protect: { policyFiles: [policy.file] },
  };
  const source = { approver: loaded.approver, lift: loaded.lift ?? [], ...(loaded.shellTools ? { shellTools: loaded.shellTools } : {}) };
  const outcome = await answerPayload(text, payloadOptions, state, () => source);
  if (outcome.error === 'internal') metrics.error('internal');
  else if (outcome.error) metrics.error('bad_request');
  metrics.decision('hooks', outcome.decision, ruleName(outcome.ruleRef));
  const audit = {
    time: new Date().toISOString(),
    endpoint: 'hooks',
    policy: loaded.version,
    agent: state.agent ?? null,
    ...(state.mismatch ? { mismatch: `path ${state.mismatch.flag}, payload from ${state.mismatch.payload}` } : {}),
    event: state.event ?? null,
    tool: state.tool ?? null,
    decision: outcome.decision,
    rule: outcome.ruleRef ? ruleName(outcome.ruleRef) : null,
    at: ruleAt(outcome.ruleRef),
    reason: outcome.reason,
    ...(outcome.error ? { error: outcome.error } : {}),
    ms: round(msSince(ctx.began)),
    ...(ctx.logInputs ? { payload: text } : { inputBytes: body.length }),
  };
  const { answer } = outcome;
  const version = { 'Verdict-Policy-Version': loaded.version };
  if (params.commandForm) return { status: 200, headers: { ...version, ...JSON_TYPE }, body: commandBody(answer, loaded.version, outcome, state), audit: [audit] };
  return {
    status: 200,
    headers: { ...version, ...JSON_TYPE, 'Verdict-Decision': outcome.decision, 'Verdict-Exit-Code': String(answer.exitCode) },
    body: httpBody(state.agent, state.event, answer),
    audit: [audit],
  };
}
