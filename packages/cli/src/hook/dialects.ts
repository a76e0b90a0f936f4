/**
 * How each agent reads a hook's answer, and the answer `verdict hook` gives for allow, deny and ask.
 *
 * Deny is always the form the agent honours in every version (and it is also what every failure
 * answers):
 * - Claude Code PreToolUse: exit 2 with the `permissionDecision: "deny"` JSON on stdout and nothing on
 *   stderr. Claude Code shows the model the reason of that JSON; on exit 2 with a reason on stderr it
 *   shows the whole hook command line as well (the policy and log paths). Exit 2 blocks whatever is
 *   printed from v2.1.90 on (before, JSON beside exit 2 did not block). PermissionRequest ignores
 *   exit 2, so there it is exit 0 with the `decision: {behavior: "deny"}` JSON.
 * - Codex: exit 0 with exactly the `hookSpecificOutput` deny JSON (no other key: Codex rejects unknown
 *   keys, and a rejected answer lets the tool run), the reason on stderr as well.
 * - Gemini CLI: exit 2, `{"decision":"deny","reason":…}` on stdout, the reason as plain text on stderr
 *   (read as a deny by every version even when stdout is lost).
 * - Cursor: exit 2 with `{"permission":"deny","user_message":…,"agent_message":…}`.
 * - Unknown agent: exit 2, empty stdout, the reason on stderr.
 * Allow is "no objection" (the agent's own permission rules still apply) unless `approve` is set.
 * Ask is native where the agent honours it, else a deny that says how to get the call through.
 */
import { AGENT_CATALOGUES, type HookAgent } from '@verdict/engine';

export type HookDecision = 'allow' | 'deny' | 'ask';

export interface HookAnswer {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface DialectOptions {
  /** A policy allow also skips the agent's own prompt where the dialect can say so. */
  approve?: boolean;
  /** Gemini CLI v0.36+ and Cursor's shell and MCP events: answer ask natively instead of denying. */
  nativeAsk?: boolean;
}

const MAX_REASON = 2000;

/** One line of text: controls become spaces, long texts are cut, always prefixed `verdict: `. */
export function oneLine(reason: string): string {
  let text = reason.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
  if (text === '') text = 'no reason given';
  if (text.length > MAX_REASON) text = `${text.slice(0, MAX_REASON)}…`;
  return text.startsWith('verdict: ') ? text : `verdict: ${text}`;
}

const json = (value: unknown): string => `${JSON.stringify(value)}\n`;

/** The deny of an agent, for `event` when known. */
export function denyAnswer(agent: HookAgent | undefined, event: string | undefined, reason: string): HookAnswer {
  const why = oneLine(reason);
  switch (agent) {
    case 'claude':
      if (event === 'PermissionRequest') {
        return { exitCode: 0, stdout: json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: why } } }), stderr: '' };
      }
      return { exitCode: 2, stdout: json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: why } }), stderr: '' };
    case 'codex':
      if (event === 'PermissionRequest') {
        return { exitCode: 0, stdout: json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: why } } }), stderr: `${why}\n` };
      }
      if (event === undefined || event === 'PreToolUse') {
        return { exitCode: 0, stdout: json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: why } }), stderr: `${why}\n` };
      }
      // An event verdict does not answer: the JSON would name the wrong event; exit 2 with a reason blocks.
      return { exitCode: 2, stdout: '', stderr: `${why}\n` };
    case 'gemini':
      return { exitCode: 2, stdout: json({ decision: 'deny', reason: why }), stderr: `${why}\n` };
    case 'cursor':
      return { exitCode: 2, stdout: json({ permission: 'deny', user_message: why, agent_message: why }), stderr: '' };
    default:
      return { exitCode: 2, stdout: '', stderr: `${why}\n` };
  }
}

/** The reason of an ask the agent cannot put to a person: says how to get the call through. */
export function askAsDenyReason(agent: HookAgent, reason: string): string {
  const why = reason.trim() === '' ? 'the policy asks a person to approve this call' : reason;
  return `${why} (this call needs a person's approval, which ${AGENT_CATALOGUES[agent].title} cannot ask for from this hook: run it yourself, or add an allow rule for it to the policy)`;
}

/**
 * Whether `--approve` may approve this call's PermissionRequest. Claude Code raises one for two
 * reasons: no permission rule of its own allows the call (the request then carries the rules it
 * would suggest adding, `permission_suggestions: [ … ]`), or its own doubt about a command it cannot
 * be sure it read the way the shell will (`permission_suggestions: []`). Only the first is approved:
 * the second is Claude Code refusing to trust its reading, and a person answers it. A request
 * without the member (older builds) is not approved either. Other agents' requests are unaffected.
 */
export function mayApprove(agent: HookAgent, event: string, permissionSuggestions: unknown): boolean {
  if (agent !== 'claude' || event !== 'PermissionRequest') return true;
  return Array.isArray(permissionSuggestions) && permissionSuggestions.length > 0;
}

const NO_OBJECTION: HookAnswer = { exitCode: 0, stdout: '', stderr: '' };

/** The answer to a decision, in the dialect of `agent` for `event` (an event the agent sends). */
export function decisionAnswer(agent: HookAgent, event: string, decision: HookDecision, reason: string, options: DialectOptions = {}): HookAnswer {
  if (decision === 'deny') return denyAnswer(agent, event, reason);
  switch (agent) {
    case 'claude':
      if (event === 'PermissionRequest') {
        // Claude Code is about to prompt: ask is "let it"; allow approves only when asked to.
        if (decision === 'allow' && options.approve) return { exitCode: 0, stdout: json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } }), stderr: '' };
        return NO_OBJECTION;
      }
      if (decision === 'ask') {
        return { exitCode: 0, stdout: json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: oneLine(reason === '' ? 'the policy asks a person to approve this call' : reason) } }), stderr: '' };
      }
      if (options.approve) return { exitCode: 0, stdout: json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: oneLine(reason === '' ? 'allowed by the policy' : reason) } }), stderr: '' };
      return NO_OBJECTION;
    case 'codex':
      if (event === 'PermissionRequest') {
        if (decision === 'allow' && options.approve) return { exitCode: 0, stdout: json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } }), stderr: '' };
        return NO_OBJECTION;
      }
      // PreToolUse has no plain allow and no ask.
      if (decision === 'ask') return denyAnswer(agent, event, askAsDenyReason(agent, reason));
      return NO_OBJECTION;
    case 'gemini':
      if (decision === 'ask') {
        if (!options.nativeAsk) return denyAnswer(agent, event, askAsDenyReason(agent, reason));
        const why = oneLine(reason === '' ? 'the policy asks a person to approve this call' : reason);
        return { exitCode: 0, stdout: json({ decision: 'ask', reason: why, systemMessage: why }), stderr: '' };
      }
      return { exitCode: 0, stdout: json({ decision: 'allow' }), stderr: '' };
    case 'cursor':
      if (decision === 'ask') {
        if (!options.nativeAsk || (event !== 'beforeShellExecution' && event !== 'beforeMCPExecution')) return denyAnswer(agent, event, askAsDenyReason(agent, reason));
        const why = oneLine(reason === '' ? 'the policy asks a person to approve this call' : reason);
        return { exitCode: 0, stdout: json({ permission: 'ask', user_message: why, agent_message: why }), stderr: '' };
      }
      return { exitCode: 0, stdout: json({ permission: 'allow' }), stderr: '' };
  }
}

/**
 * The body of an answer given over HTTP (`verdict serve`'s `/v1/hooks/<agent>`), for an agent that
 * calls its hook as an HTTP request: it reads only a 2xx response's body (Claude Code's `http` hook
 * reads any other status, and a failed connection, as no decision, and then runs its normal
 * permission flow), so there is no exit code to say deny with. A deny answered by exit 2 and a reason
 * on stderr becomes the deny JSON of the event; every other answer's stdout is the body as it is.
 */
export function httpBody(agent: HookAgent | undefined, event: string | undefined, answer: HookAnswer): string {
  if (answer.exitCode !== 2 || answer.stdout !== '') return answer.stdout;
  const why = oneLine(answer.stderr);
  if (agent === 'codex' || agent === 'claude' || agent === undefined) {
    const eventName = event === 'PermissionRequest' ? 'PermissionRequest' : 'PreToolUse';
    if (eventName === 'PermissionRequest') return json({ hookSpecificOutput: { hookEventName: eventName, decision: { behavior: 'deny', message: why } } });
    return json({ hookSpecificOutput: { hookEventName: eventName, permissionDecision: 'deny', permissionDecisionReason: why } });
  }
  return denyAnswer(agent, event, why).stdout;
}
