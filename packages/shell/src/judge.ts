/**
 * Command rules and the pure judge (README "Invariants").
 *
 * - A deny or ask rule matches if ANY executed command (or any wrapper it runs through, or any
 *   write redirection) matches; an allow applies only if EVERY executed command and every write is
 *   allowed. Overall deny > unknown's decision > ask > allow.
 * - Deny and ask match broadly: the program by its base name, case-folded, at any path (`/bin/RM`);
 *   the rule's further words as a subsequence of the arguments; a word with an expansion as a
 *   possible match. Allow matches narrowly: the program exactly as written in the rule (a path only
 *   if the rule names one), the further words as an exact prefix, `args` over the static rest.
 * - Anything the extraction cannot model gets the policy's `unknown` decision (deny by default).
 */
import { type CompiledRegex, shellWord } from '@verdict/engine';
import { extract, programKey, type Argv, type Redirect, type ShellCommand, type TextSpan, type Unknown } from './extract.ts';
import type { CompiledCommandRule, CompiledCommandRules, RuleList, ShellDecision } from './rules.ts';
import { capabilitiesOf, namesCapability, type Capability } from './capabilities.ts';

export { compileCommandRules } from './rules.ts';
export type { CommandRule, CommandRules, CommandWord, CompileResult, CompiledCommandRule, CompiledCommandRules, RuleError, RuleList, ShellDecision } from './rules.ts';

/** What decided, and why. */
export interface ShellJudgement {
  /** `null`: no command rule decides (some command is allowed by none, and none is denied or asked). */
  readonly decision: ShellDecision | null;
  readonly reason: string;
  /** The executed command that decided (for allow, the first one; for `null`, the first not allowed). */
  readonly command?: ShellCommand;
  /** The write that decided, when a redirect rule did. */
  readonly redirect?: Redirect;
  /** The construct that could not be modelled, when that decided. */
  readonly unknown?: Unknown;
  /** The rule that decided. */
  readonly rule?: { list: RuleList; index: number };
  /** Where in the text (the deciding command's statement). */
  readonly span?: TextSpan;
  /** Every executed command found (for explanations and coverage). */
  readonly commands: readonly ShellCommand[];
}

/** Judges one command text. Pure and total. */
export function judge(rules: CompiledCommandRules, text: string): ShellJudgement {
  const ext = extract(text, { wrappers: rules.wrappers, environment: rules.environment, ...(rules.shells !== undefined ? { shells: rules.shells } : {}) });
  const { commands, writes, unknowns } = ext;
  const loose = writes;

  for (const list of ['deny', 'ask'] as const) {
    if (list === 'ask' && unknowns.length > 0) break;
    for (const cmd of commands) {
      for (const r of rules[list]) {
        const hit = broadMatch(r, cmd);
        if (hit) {
          const reason =
            r.command === undefined
              ? `the write to \`${hit.redirect!.target ?? '…'}\` by \`${show(cmd)}\` matches ${list} rule ${describe(r)}`
              : `\`${show(hit.layer)}\` matches ${list} rule ${describe(r)}${hit.redirect ? ` (writing to \`${hit.redirect.target ?? '…'}\`)` : ''}`;
          return { decision: list, reason: r.rule.reason ?? reason, command: cmd, ...(hit.redirect ? { redirect: hit.redirect } : {}), rule: { list, index: r.index }, span: cmd.span, commands };
        }
      }
    }
    for (const w of loose) {
      for (const r of rules[list]) {
        if (r.command === undefined && r.redirect !== undefined && maybeWhole(r.redirect, w.redirect.target)) {
          return { decision: list, reason: r.rule.reason ?? `the write to \`${w.redirect.target ?? '…'}\` matches ${list} rule ${describe(r)}`, redirect: w.redirect, rule: { list, index: r.index }, span: w.span, commands };
        }
      }
    }
    if (list === 'deny' && unknowns.length > 0) {
      const u = unknowns[0]!;
      return { decision: rules.unknown, reason: `${u.reason}: the command cannot be judged`, unknown: u, span: u.span, commands };
    }
  }
  if (unknowns.length > 0) {
    const u = unknowns[0]!;
    return { decision: rules.unknown, reason: `${u.reason}: the command cannot be judged`, unknown: u, span: u.span, commands };
  }

  if (commands.length === 0 && loose.length === 0) {
    return { decision: null, reason: 'the text runs no command', commands };
  }
  for (const cmd of commands) {
    const ok = allowedBy(rules.allow, cmd);
    if (!ok.allowed) {
      return { decision: null, reason: ok.why, command: cmd, span: cmd.span, commands };
    }
  }
  for (const w of loose) {
    if (!writeAllowed(rules.allow, w.redirect)) {
      return { decision: null, reason: `no allow rule covers the write to \`${w.redirect.target ?? '…'}\``, redirect: w.redirect, span: w.span, commands };
    }
  }
  const first = commands[0];
  const firstOk = first ? allowedBy(rules.allow, first) : undefined;
  const firstRule = firstOk?.allowed ? firstOk.rule : undefined;
  return {
    decision: 'allow',
    reason: commands.length === 1 ? `\`${show(first!)}\` matches allow rule ${describe(firstRule!)}` : `every command (${commands.length}) matches an allow rule`,
    ...(first ? { command: first, span: first.span } : {}),
    ...(firstRule ? { rule: { list: 'allow' as const, index: firstRule.index } } : {}),
    commands,
  };
}

/* ----------------------------------------------------------------------------------------- */


/** Deny/ask: any layer (wrapper or the command), program by base name at any path, words as a subsequence. */
function broadMatch(r: CompiledCommandRule, cmd: ShellCommand): { layer: Argv; redirect?: Redirect } | null {
  if (r.command === undefined) {
    if (r.redirect === undefined) return null;
    const w = cmd.redirects.find((x) => maybeWhole(r.redirect!, x.target));
    return w ? { layer: cmd, redirect: w } : null;
  }
  for (const layer of [...cmd.wrappers, cmd]) {
    if (!broadArgv(r, layer)) continue;
    if (r.redirect === undefined) return { layer };
    const w = cmd.redirects.find((x) => maybeWhole(r.redirect!, x.target));
    if (w) return { layer, redirect: w };
  }
  return null;
}

function broadArgv(r: CompiledCommandRule, argv: Argv): boolean {
  const words = r.command!;
  const name = programKey(argv.program);
  if (!words[0]!.some((w) => programKey(w) === name)) return false;
  let at = 0; // next argument index to look at
  for (let k = 1; k < words.length; k++) {
    const alts = words[k]!;
    let found = -1;
    for (let i = at; i < argv.args.length; i++) {
      const a = argv.args[i]!;
      if (a === null || alts.includes(a)) {
        found = i;
        break;
      }
    }
    if (found < 0) return false;
    at = found + 1;
  }
  if (r.args === undefined) return true;
  const rest = argv.args.slice(at);
  if (rest.some((a) => a === null)) return true;
  return r.args.testWhole(rest.join(' '));
}

/** A possible whole match: an unknown target (an expansion) may be anything. */
function maybeWhole(re: CompiledRegex, target: string | null): boolean {
  return target === null || re.testWhole(target);
}

function allowedBy(allow: readonly CompiledCommandRule[], cmd: ShellCommand): { allowed: true; rule: CompiledCommandRule } | { allowed: false; why: string } {
  // What the command (and the wrappers it runs through) can do that the table marks (capabilities.ts).
  const caps = capabilitiesOf(cmd.program, cmd.args);
  const layerCap = layerCapability(cmd);
  let unnamed: Capability | undefined;
  for (const r of allow) {
    if (r.command === undefined || !narrowArgv(r, cmd)) continue;
    // A capability the table marks is allowed only by a rule that names it.
    const missing = caps.find((c) => !namesCapability({ words: r.command!.slice(1), args: r.rule.args }, c));
    if (missing || layerCap) {
      unnamed ??= layerCap ?? missing;
      continue;
    }
    // Every write of the command: by this rule's `redirect`, or by a redirect-only allow rule.
    const writesOk = cmd.redirects.every((w) => (r.redirect !== undefined && w.target !== null && r.redirect.testWhole(w.target)) || writeAllowed(allow, w));
    if (writesOk) return { allowed: true, rule: r };
  }
  if (unnamed) {
    return { allowed: false, why: `\`${show(cmd)}\` ${capabilityPhrase(unnamed)}, which no allow rule that matches it names` };
  }
  const write = cmd.redirects.find((w) => !writeAllowed(allow, w));
  if (write && allow.some((r) => r.command !== undefined && narrowArgv(r, cmd))) {
    return { allowed: false, why: `no allow rule covers \`${show(cmd)}\` writing to \`${write.target ?? '…'}\`` };
  }
  return { allowed: false, why: `no allow rule matches \`${show(cmd)}\`` };
}

/** A capability of a wrapper the command runs through (`time -o FILE`); `find` and `fd` are judged as commands of their own. */
function layerCapability(cmd: ShellCommand): Capability | undefined {
  for (const layer of cmd.wrappers) {
    const key = programKey(layer.program);
    if (key === 'find' || key === 'fd') continue;
    const c = capabilitiesOf(layer.program, layer.args)[0];
    if (c) return c;
  }
  return undefined;
}

/** `runs a program (\`--pre\`: …)` */
export function capabilityPhrase(c: Capability): string {
  const verb = c.kind === 'runs' ? 'can run a program' : c.kind === 'writes' ? 'can write a file' : 'reaches the network';
  return `${verb} (\`${c.what}\`: ${c.note})`;
}

function writeAllowed(allow: readonly CompiledCommandRule[], w: Redirect): boolean {
  return w.target !== null && allow.some((r) => r.command === undefined && r.redirect !== undefined && r.redirect.testWhole(w.target!));
}

/** Allow: the program exactly as the rule writes it, the words as an exact prefix, `args` over the static rest. */
function narrowArgv(r: CompiledCommandRule, argv: Argv): boolean {
  const words = r.command!;
  if (!words[0]!.includes(argv.program)) return false;
  if (argv.args.length < words.length - 1) return false;
  for (let k = 1; k < words.length; k++) {
    const a = argv.args[k - 1];
    if (a === null || a === undefined || !words[k]!.includes(a)) return false;
  }
  if (r.args === undefined) return true;
  const rest = argv.args.slice(words.length - 1);
  if (rest.some((a) => a === null)) return false;
  return r.args.testWhole(rest.join(' '));
}

/** A command as a person would type it back (for reasons). */
export function show(argv: Argv): string {
  const quote = (w: string | null) => (w === null ? '…' : shellWord(w));
  const s = [argv.program, ...argv.args].map(quote).join(' ');
  return s.length > 120 ? `${s.slice(0, 119)}…` : s;
}

/** A command rule's argv prefix as reasons show it: `[git (status|diff)]`. */
export function showPrefix(command: readonly (string | readonly string[])[]): string {
  return `[${command.map((w) => (typeof w === 'string' ? w : w.length === 1 ? w[0] : `(${w.join('|')})`)).join(' ')}]`;
}

function describe(r: CompiledCommandRule): string {
  const parts: string[] = [];
  if (r.command) parts.push(showPrefix(r.command));
  if (r.rule.args !== undefined) parts.push(`args \`${r.rule.args}\``);
  if (r.rule.redirect !== undefined) parts.push(`redirect \`${r.rule.redirect}\``);
  return `${r.index + 1} ${parts.join(' ')}`;
}
