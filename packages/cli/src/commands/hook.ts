import { parseArgs } from 'node:util';
import { HOOK_AGENTS, hookAgentChoices, hookAgentOf } from '@verdict/engine';
import { type Command, parse, policyFromStdinRefused, STDIN_ARG, write } from '../args.ts';

/** Default watchdog: far below every agent's own timeout (Gemini CLI's 60 s is the shortest documented). */
export const DEFAULT_DEADLINE_MS = 10_000;

const USAGE = `usage: verdict hook --agent ${HOOK_AGENTS.join('|')} --policy FILE [options]
       verdict hook install --agent AGENT [--scope user|project] --policy FILE [--log FILE] [--dry-run]
       verdict hook uninstall --agent AGENT [--scope user|project] [--dry-run]
       verdict hook status [--agent AGENT] [--project DIR] [--json]

Runs as a coding agent's pre-tool-use hook: reads one hook payload on standard input, decides it
with the policy, and answers in the dialect of the agent that sent it (exit code, stdout, stderr).
Answers Claude Code PreToolUse and PermissionRequest, Codex PreToolUse and PermissionRequest,
Gemini CLI BeforeTool, and Cursor preToolUse, beforeShellExecution, beforeMCPExecution and
beforeReadFile. Anything that is not a decision (a payload that does not parse, a policy that does
not load, an internal error, the deadline) answers the agent's deny.

options:
  --agent NAME       the agent that runs the hook; a payload from another agent is answered in
                     its sender's dialect (and the mismatch is logged)
  --policy FILE      the policy file (YAML, JSON or .verdict); not "-": stdin carries the payload
  --config FILE      read the policy (and --log) from FILE, a JSON object {"policy": …, "log": …}
                     that \`hook install\` writes for Codex (verdict-hook.json beside hooks.json), so
                     that the installed command, which Codex trusts by its hash, never changes;
                     a file that cannot be read is answered with the agent's deny
  --deadline D       answer deny when no decision is made within D of the process start
                     (a Go duration: 500ms, 5s; default 10s)
  --log FILE         append one JSON line per call (time, agent, event, tool, decision, rule, ms)
  --server ADDR      ask the \`verdict serve\` at unix:PATH or HOST:PORT first; decide in-process
                     with --policy when it does not answer in time (a bearer token is read
                     from VERDICT_SERVE_TOKEN)
  --server-timeout D how long to wait for the server (default 1s, at most half the deadline)
  --approve          a policy allow also skips the agent's own prompt where it can say so
                     (Claude Code PreToolUse, Claude Code and Codex PermissionRequest); a Claude
                     Code PermissionRequest without permission suggestions (its own doubt about a
                     command) is never approved: it is left to the person
  --native-ask       answer ask natively on Gemini CLI (v0.36 and later) and on Cursor's
                     beforeShellExecution and beforeMCPExecution (default: a deny saying why)
  -h, --help         show this help

install / uninstall: add (or remove) the hook entries of the agent's user (~/.claude/settings.json,
$CODEX_HOME/hooks.json (default ~/.codex), $GEMINI_CLI_HOME/.gemini/settings.json (default ~),
~/.cursor/hooks.json) or project configuration file, keeping every other byte of it; --dry-run
prints the change as a diff; --log FILE adds --log to the installed command (absolute); --binary
PATH runs PATH instead of this Node and CLI script. The installed command clears NODE_OPTIONS,
BASH_ENV, LD_PRELOAD and the like, and answers the agent's deny when Verdict cannot start or
crashes; Claude Code's entries set onFailure: block, Gemini CLI's an env that empties those
variables, Cursor's failClosed. Codex's command names verdict-hook.json, so a re-install that only
changes the policy or --log keeps the hook Codex trusts; install says when /hooks must trust it.

status: for each agent with the hook installed (or --agent), whether the guard would hold: the
hook at every level the agent reads, its settings files parse, nothing switches hooks off, the
command's program exists, Codex trusts it, the events and tools it covers, the policy loads, and
the fail-open windows left for the agent's version. Exit 1 when the guard would not hold.

exit: the agent's dialect (0 or 2); never 1`;

async function parseDeadline(text: string): Promise<number | string> {
  const { parseGoDuration } = await import('@verdict/engine');
  const d = parseGoDuration(text);
  if (!d.ok || d.ns <= 0n) return `\`--deadline ${text}\` is not a positive duration such as 500ms or 5s`;
  return Number(d.ns / 1000n) / 1000;
}

export const hookCommand: Command = {
  name: 'hook',
  summary: 'answer a coding agent’s pre-tool-use hook with a policy decision, failing closed; install it',
  usage: USAGE,
  async run(argv, io) {
    if (argv[0] === 'status') {
      const { runStatus } = await import('../hook/status.ts');
      return runStatus(parse(argv.slice(1), { agent: { type: 'string' }, project: { type: 'string' }, json: { type: 'boolean' } }, false), io);
    }
    if (argv[0] === 'install' || argv[0] === 'uninstall') {
      const { runInstall } = await import('../hook/install.ts');
      return runInstall(argv[0], parse(argv.slice(1), {
        agent: { type: 'string' },
        scope: { type: 'string' },
        policy: { type: 'string' },
        'dry-run': { type: 'boolean' },
        binary: { type: 'string' },
        log: { type: 'string' },
      }, false), io);
    }
    const realProcess = io.stdin === process.stdin;
    const startedAt = realProcess ? 0 : performance.now();
    // No usage errors on the hook path: a bad command line is answered with the agent's deny.
    let values: Record<string, string | boolean | undefined> = {};
    let usageProblem: string | undefined;
    try {
      const parsed = parseArgs({
        args: argv,
        options: {
          agent: { type: 'string' },
          policy: { type: 'string' },
          config: { type: 'string' },
          deadline: { type: 'string' },
          log: { type: 'string' },
          server: { type: 'string' },
          'server-timeout': { type: 'string' },
          approve: { type: 'boolean' },
          'native-ask': { type: 'boolean' },
          help: { type: 'boolean', short: 'h' },
        },
        allowPositionals: true,
        strict: true,
      });
      values = parsed.values;
      if (parsed.positionals.length > 0) usageProblem = `unexpected argument \`${parsed.positionals[0]}\` for \`verdict hook\``;
    } catch (err) {
      usageProblem = `bad command line for \`verdict hook\`: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`;
    }
    if (values['help'] === true && usageProblem === undefined) return write(io.stdout, USAGE), 0;
    if (typeof values['config'] === 'string') {
      const { readHookConfig } = await import('../hook/hook-config.ts');
      const read = readHookConfig(values['config'], io.cwd);
      if ('problem' in read) usageProblem ??= read.problem;
      else {
        if (typeof values['policy'] !== 'string') values['policy'] = read.policy;
        if (typeof values['log'] !== 'string' && read.log !== undefined) values['log'] = read.log;
      }
    }
    if (values['policy'] === STDIN_ARG) usageProblem ??= policyFromStdinRefused('hook', 'the hook payload');
    const agentFlag = typeof values['agent'] === 'string' ? values['agent'] : undefined;
    const agent = hookAgentOf(agentFlag);
    if (agentFlag !== undefined && !agent) usageProblem ??= `unknown agent \`${agentFlag}\` (want ${hookAgentChoices()})`;
    let deadlineMs = DEFAULT_DEADLINE_MS;
    if (typeof values['deadline'] === 'string') {
      const d = await parseDeadline(values['deadline']);
      if (typeof d === 'string') usageProblem ??= d;
      else deadlineMs = d;
    }
    let serverTimeoutMs: number | undefined;
    if (typeof values['server-timeout'] === 'string') {
      const d = await parseDeadline(values['server-timeout']);
      if (typeof d === 'string') usageProblem ??= d.replace('--deadline', '--server-timeout');
      else serverTimeoutMs = d;
    }
    if (typeof values['server'] === 'string') {
      const { parseAddress } = await import('../serve/address.ts');
      const a = parseAddress(values['server']);
      if ('message' in a) usageProblem ??= `\`--server\`: ${a.message} (${a.help})`;
    }
    const { runHook } = await import('../hook/run.ts');
    const code = await runHook(
      {
        agent,
        policy: typeof values['policy'] === 'string' ? values['policy'] : undefined,
        deadlineMs,
        startedAt,
        log: typeof values['log'] === 'string' ? values['log'] : undefined,
        ...(typeof values['server'] === 'string' ? { server: values['server'] } : {}),
        ...(serverTimeoutMs !== undefined ? { serverTimeoutMs } : {}),
        approve: values['approve'] === true,
        nativeAsk: values['native-ask'] === true,
        guardProcess: realProcess,
        ...(usageProblem !== undefined ? { usageProblem } : {}),
      },
      io,
    );
    if (realProcess) {
      // The answer is out: nothing left to wait for (stdin may still be open when the deadline answered).
      process.stdin.destroy();
      setTimeout(() => process.exit(code), 200).unref();
    }
    return code;
  },
};
