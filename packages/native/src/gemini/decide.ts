/**
 * Gemini CLI's own decision for a tool call under policy TOML files, modelled on the `PolicyEngine` and TOML
 * loader of `@google/gemini-cli-core` 0.61.0 and proven against them by e2e/native-diff:
 *
 * - loading: a file whose `[[rule]]` tables fail the schema (unknown keys are stripped, a priority outside
 *   0–999 or a wrong type fails it) is dropped whole; a rule whose pattern does not compile or looks "unsafe"
 *   (length > 2048, a quantified group holding a quantifier) is dropped; `commandPrefix = "git"` compiles to
 *   the unanchored JavaScript regex `"command":"git(?:[\s"]|\\")` over the arguments' stable JSON, one rule
 *   per array element (alternatives, not a sequence); `commandRegex = R` to `"command":"R`; an empty
 *   `commandPrefix`/`commandRegex`/`argsPattern` to no pattern at all; `commandPrefix = []` to no rule;
 *   `toolName` arrays to one rule per name; final priority `tier + priority/1000`;
 * - deciding: rules sorted by final priority (stable), the first that matches decides (an allow above a deny
 *   wins); for the shell tool the whole text decides first, a deny at once, then each sub-command that is not
 *   the whole text and each `sh|bash|zsh -c` script is checked again from the top and the strictest result
 *   wins; a redirection turns an allow into ask_user unless the rule sets `allowRedirection` (not in
 *   autoEdit/yolo); text tree-sitter cannot parse gives the default decision (yolo: allow, deny for a rule with a
 *   pattern); no rule: ask_user, deny when non-interactive, allow in yolo; an allowed edit of a build file asks.
 *
 * Not modelled, each named in the result: the built-in shell heuristics (known-safe/dangerous command tables,
 * git in an untrusted folder, `dir_path` outside the workspace) that run for rules without a pattern and for
 * the no-rule default (the result then lists the decisions they can give); safety checkers; symlinks in a
 * build-file path; `additional_permissions`.
 */
import { parse as shellQuoteParse } from 'shell-quote';
import type { Span } from '@verdict/engine';
import { type BashNode, type BashParser, children } from '../bash-tree.ts';
import type { GeminiDecision, GeminiPolicyFile } from '../gemini-policy.ts';
import { geminiHeuristics } from './heuristics.ts';
import type { GeminiRunFacts } from './heuristics.ts';

export type { GeminiRunFacts } from './heuristics.ts';

export type GeminiMode = 'default' | 'autoEdit' | 'plan' | 'yolo';
type GeminiAt = Span;

/** Tiers: final priority = tier + priority/1000. */
export const GEMINI_TIERS = { default: 1, extension: 2, workspace: 3, user: 4, admin: 5 } as const;

/** One policy file as read: its `[[rule]]` tables with their raw values (TOML types as JavaScript values). */
export interface GeminiPolicyFileInput {
  readonly file: string;
  readonly tier: number;
  /** The whole parsed TOML document's `rule` value (normally an array of tables); undefined when absent. */
  readonly rule?: unknown;
  /** Positions of the `[[rule]]` tables, in order, for located diagnostics. */
  readonly ruleAt?: readonly (GeminiAt | undefined)[];
  /** The document has `[[safety_checker]]` tables (not modelled). */
  readonly hasSafetyCheckers?: boolean;
}

/** A rule as Gemini CLI holds it after loading. */
export interface GeminiLoadedRule {
  readonly toolName: string;
  readonly mcpName?: string;
  readonly subagent?: string;
  readonly decision: GeminiDecision;
  readonly priority: number;
  readonly modes?: readonly string[];
  readonly interactive?: boolean;
  readonly toolAnnotations?: Readonly<Record<string, unknown>>;
  readonly allowRedirection?: boolean;
  /** The compiled argument pattern's source (a JavaScript regex over the stable JSON of the arguments). */
  readonly argsPattern?: string;
  readonly source: string;
  readonly at?: GeminiAt | undefined;
}

export interface GeminiLoadIssue {
  readonly file: string;
  readonly kind: 'file-dropped' | 'rule-dropped' | 'warning';
  readonly message: string;
  readonly at?: GeminiAt | undefined;
}

/**
 * The loader's input from the reader's file: the raw `rule` value (every key as written: Gemini's schema
 * strips the unknown ones, so they change nothing) and the rules' positions. A file that does not parse is
 * dropped by Gemini CLI too.
 */
export function geminiPolicyFileInput(file: GeminiPolicyFile, tier: number): GeminiPolicyFileInput & { unreadable?: string } {
  const top = file.topLevelKeys.find((k) => k.key === 'rule');
  const syntax = file.diagnostics.find((d) => d.code === 'native/syntax');
  return {
    file: file.file,
    tier,
    ...(top !== undefined ? { rule: top.value } : {}),
    ruleAt: file.rules.map((r) => r.span),
    hasSafetyCheckers: file.safetyCheckers.length > 0,
    ...(syntax !== undefined ? { unreadable: syntax.message } : {}),
  };
}

const DECISIONS: readonly string[] = ['allow', 'deny', 'ask_user'];
const MODES: readonly string[] = ['default', 'autoEdit', 'yolo', 'plan'];
const RULE_KEYS = {
  toolName: 'nameOrNames',
  subagent: 'string',
  mcpName: 'string',
  argsPattern: 'string',
  commandPrefix: 'nameOrNames',
  commandRegex: 'string',
  decision: 'decision',
  priority: 'priority',
  modes: 'modes',
  interactive: 'boolean',
  toolAnnotations: 'record',
  allowRedirection: 'boolean',
  allow_redirection: 'boolean',
  denyMessage: 'string',
  deny_message: 'string',
} as const;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Why a rule table fails Gemini's schema (which fails the whole file), or undefined. */
function schemaError(table: unknown): string | undefined {
  if (!isRecord(table)) return 'a [[rule]] entry is not a table';
  if (table['toolName'] === undefined) return 'toolName is required';
  if (table['decision'] === undefined) return 'decision is required';
  if (table['priority'] === undefined) return 'priority is required';
  for (const [key, kind] of Object.entries(RULE_KEYS)) {
    const v = table[key];
    if (v === undefined) continue;
    switch (kind) {
      case 'string':
        if (typeof v !== 'string') return `${key} must be a string`;
        break;
      case 'boolean':
        if (typeof v !== 'boolean') return `${key} must be a boolean`;
        break;
      case 'nameOrNames':
        if (typeof v !== 'string' && !(Array.isArray(v) && v.every((x) => typeof x === 'string')))
          return `${key} must be a string or an array of strings`;
        break;
      case 'decision':
        if (typeof v !== 'string' || !DECISIONS.includes(v)) return `decision must be one of allow, deny, ask_user`;
        break;
      case 'priority':
        if (typeof v !== 'number' || Number.isNaN(v)) return 'priority must be a number';
        if (!Number.isInteger(v)) return 'priority must be an integer';
        if (v < 0) return 'priority must be >= 0';
        if (v > 999) return 'priority must be <= 999 (the whole file is dropped)';
        break;
      case 'modes':
        if (!Array.isArray(v) || !v.every((m) => typeof m === 'string' && MODES.includes(m)))
          return 'modes must be an array of default, autoEdit, yolo, plan';
        break;
      case 'record':
        if (!isRecord(v)) return `${key} must be a table`;
        break;
    }
  }
  return undefined;
}

/** Gemini's escaping of a literal for its generated patterns (the characters it escapes). */
function escapeLiteral(text: string): string {
  return text.replace(/[-[\]{}()*+?.,\\^$|#\s"]/g, '\\$&');
}

/** The pattern Gemini compiles `commandPrefix = prefix` to. */
export function commandPrefixPattern(prefix: string): string {
  const json = JSON.stringify(prefix);
  return `${escapeLiteral(`"command":${json.slice(0, -1)}`)}(?:[\\s"]|\\\\")`;
}

/** Gemini's "unsafe regex" heuristic: such a rule is dropped at load (a deny dropped fails open). */
export function geminiRegexRejected(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
  } catch (e) {
    return `invalid regex: ${(e as Error).message}`;
  }
  if (pattern.length > 2048) return 'regex longer than 2048 characters';
  if (/\([^)]*[*+?{].*\)[*+?{]/.test(pattern)) return 'regex has a quantified group holding a quantifier (treated as ReDoS)';
  return undefined;
}

function patternsOf(t: Record<string, unknown>): (string | undefined)[] {
  const prefix = t['commandPrefix'] as string | string[] | undefined;
  if (prefix !== undefined && prefix !== '') {
    return (Array.isArray(prefix) ? prefix : [prefix]).map(commandPrefixPattern);
  }
  const regex = t['commandRegex'] as string | undefined;
  if (regex) return [`"command":"${regex}`];
  return [t['argsPattern'] as string | undefined];
}

function mcpToolName(server: string, tool: string): string {
  if (server === '*' && tool === '*') return 'mcp_*';
  if (server === '*') return `mcp_*_${tool}`;
  if (tool === '*') return `mcp_${server}_*`;
  return `mcp_${server}_${tool}`;
}

const TIER_NAMES: Record<number, string> = { 1: 'Default', 2: 'Extension', 3: 'Workspace', 4: 'User', 5: 'Admin' };

/** Loads files the way Gemini CLI's TOML loader does, in the order given. */
export function loadGeminiPolicies(files: readonly GeminiPolicyFileInput[]): { rules: GeminiLoadedRule[]; issues: GeminiLoadIssue[] } {
  const rules: GeminiLoadedRule[] = [];
  const issues: GeminiLoadIssue[] = [];
  for (const f of files) {
    const unreadable = (f as { unreadable?: string }).unreadable;
    if (unreadable !== undefined) {
      issues.push({ file: f.file, kind: 'file-dropped', message: `the file does not parse (${unreadable}): Gemini CLI drops it` });
      continue;
    }
    if (f.hasSafetyCheckers) {
      issues.push({ file: f.file, kind: 'warning', message: '[[safety_checker]] tables are not modelled: their checks are not part of this decision' });
    }
    if (f.rule !== undefined && !Array.isArray(f.rule)) {
      issues.push({ file: f.file, kind: 'file-dropped', message: 'rule must be an array of tables: Gemini CLI drops the whole file' });
      continue;
    }
    const tables = (f.rule ?? []) as unknown[];
    const failing = tables.map(schemaError).findIndex((e) => e !== undefined);
    if (failing >= 0) {
      issues.push({
        file: f.file,
        kind: 'file-dropped',
        message: `rule ${failing + 1}: ${schemaError(tables[failing])}: Gemini CLI drops the whole file`,
        ...(f.ruleAt?.[failing] ? { at: f.ruleAt[failing] } : {}),
      });
      continue;
    }
    tables.forEach((raw, i) => {
      const t = raw as Record<string, unknown>;
      const at = f.ruleAt?.[i];
      const names = Array.isArray(t['toolName']) ? (t['toolName'] as string[]) : [t['toolName'] as string];
      for (const pattern of patternsOf(t)) {
        for (const name of names) {
          const mcpName = t['mcpName'] as string | undefined;
          const toolName = mcpName ? mcpToolName(mcpName, name) : name;
          if (pattern) {
            const why = geminiRegexRejected(pattern);
            if (why !== undefined) {
              issues.push({ file: f.file, kind: 'rule-dropped', message: `rule ${i + 1}: ${why}: Gemini CLI drops the rule`, ...(at ? { at } : {}) });
              continue;
            }
          }
          const allowRedirection = (t['allowRedirection'] ?? t['allow_redirection']) as boolean | undefined;
          rules.push({
            toolName,
            ...(mcpName !== undefined ? { mcpName } : {}),
            ...(t['subagent'] !== undefined ? { subagent: t['subagent'] as string } : {}),
            decision: t['decision'] as GeminiDecision,
            priority: f.tier + (t['priority'] as number) / 1000,
            ...(t['modes'] !== undefined ? { modes: t['modes'] as string[] } : {}),
            ...(t['interactive'] !== undefined ? { interactive: t['interactive'] as boolean } : {}),
            ...(t['toolAnnotations'] !== undefined ? { toolAnnotations: t['toolAnnotations'] as Record<string, unknown> } : {}),
            ...(allowRedirection !== undefined ? { allowRedirection } : {}),
            ...(pattern ? { argsPattern: pattern } : {}),
            source: `${TIER_NAMES[f.tier] ?? 'Unknown'}: ${f.file}`,
            ...(at ? { at } : {}),
          });
        }
      }
    });
  }
  return { rules, issues };
}

// ---------------------------------------------------------------------------------------------------------
// Deciding

export interface GeminiCall {
  readonly name: string;
  readonly args?: Readonly<Record<string, unknown>>;
}

export interface GeminiContext {
  readonly mode?: GeminiMode;
  readonly nonInteractive?: boolean;
  readonly serverName?: string;
  readonly toolAnnotations?: Readonly<Record<string, unknown>>;
  readonly subagent?: string;
  /** Gemini's `--disable-always-allow`-style switch: rules at priority fraction .950 are skipped. */
  readonly disableAlwaysAllow?: boolean;
}

export interface GeminiOutcome {
  /** Every decision the agent can give for this call; one element when the model is exact. */
  readonly decisions: readonly GeminiDecision[];
  /** The rule whose match settled the top-level lookup (undefined: the no-rule default). */
  readonly rule?: GeminiLoadedRule;
  /** Why the answer is a set, or which part of the agent's decision is not modelled. */
  readonly notModelled: readonly string[];
}

const SHELL_TOOLS = new Set(['run_shell_command', 'ShellTool']);
const LEGACY_ALIASES: Record<string, string> = { search_file_content: 'grep_search' };
const NOT_COMMANDS = new Set([
  'redirection (<)', 'redirection (>)', 'heredoc (<<)', 'herestring (<<<)', 'command substitution',
  'backtick substitution', 'process substitution', 'subshell',
]);
const EDIT_WORDS = new Set(['write', 'edit', 'replace', 'patch', 'update', 'create', 'append', 'save']);
const BUILD_FILES = new Set([
  'BUILD', 'BUILD.bazel', 'WORKSPACE', 'WORKSPACE.bazel', 'MODULE.bazel', '.bazelrc', '.blazerc', 'Makefile',
  'makefile', 'GNUmakefile', 'CMakeLists.txt', 'package.json', 'package-lock.json', 'pnpm-lock.yaml', 'yarn.lock',
  'bun.lockb', 'setup.py', 'setup.cfg', 'pyproject.toml', 'go.mod', 'go.sum', 'Cargo.toml', 'Cargo.lock', 'pom.xml',
  'build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts', 'Dockerfile', 'Containerfile',
]);
const BUILD_EXTENSIONS = new Set(['.bzl', '.bazel', '.bzlmod', '.mk', '.cmake']);

/** JSON with sorted keys, top-level pairs framed by NUL characters: the text Gemini's patterns run over. */
export function geminiArgsJson(value: unknown): string {
  const seen = new Set<object>();
  const go = (v: unknown, top: boolean): string => {
    if (v === undefined || v === null || typeof v === 'function' || typeof v === 'symbol') return 'null';
    if (typeof v !== 'object') return JSON.stringify(v) ?? 'null';
    if (seen.has(v)) return '"[Circular]"';
    seen.add(v);
    try {
      const withJson = v as { toJSON?: () => unknown };
      if (typeof withJson.toJSON === 'function') {
        try {
          const j = withJson.toJSON();
          return j === null ? 'null' : go(j, top);
        } catch {
          // fall through: treated as a plain object
        }
      }
      if (Array.isArray(v)) return `[${v.map((x) => go(x, false)).join(',')}]`;
      const pairs: string[] = [];
      for (const key of Object.keys(v).sort()) {
        const x = (v as Record<string, unknown>)[key];
        if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
        const pair = `${JSON.stringify(key)}:${go(x, false)}`;
        pairs.push(top ? `\0${pair}\0` : pair);
      }
      return `{${pairs.join(',')}}`;
    } finally {
      seen.delete(v);
    }
  };
  return go(value, true);
}

function parseMcpName(name: string): string | undefined {
  if (!name.startsWith('mcp_')) return undefined;
  return /^([^_]+)_(.+)$/.exec(name.slice(4))?.[1];
}

function wildcardMatches(pattern: string, tool: string, server: string | undefined): boolean {
  if (pattern === '*') return true;
  if (pattern === 'mcp_*') return server !== undefined;
  if (pattern.startsWith('mcp_') && pattern.endsWith('_*')) {
    const expected = pattern.slice(4, -2);
    return server !== undefined && server === expected && tool.startsWith(`mcp_${expected}_`);
  }
  return tool === pattern;
}

/** What the top-level lookup needs: the rules in their order, compiled, and the run's mode. */
interface Lookup {
  readonly rules: readonly GeminiLoadedRule[];
  readonly compiled: Map<GeminiLoadedRule, RegExp>;
  readonly mode: GeminiMode;
  readonly nonInteractive: boolean;
  readonly disableAlwaysAllow: boolean;
  readonly anyPattern: boolean;
}

interface Env extends Lookup {
  readonly bash: BashParser;
  readonly defaultDecision: GeminiDecision;
  readonly facts?: GeminiRunFacts | undefined;
}

function lookupOf(rules: readonly GeminiLoadedRule[], ctx: { mode?: GeminiMode; nonInteractive?: boolean; disableAlwaysAllow?: boolean }): Lookup {
  // Array.prototype.sort is stable: equal priorities keep load order, as in the agent.
  const sorted = [...rules].sort((a, b) => b.priority - a.priority);
  const compiled = new Map<GeminiLoadedRule, RegExp>();
  for (const r of sorted) if (r.argsPattern) compiled.set(r, new RegExp(r.argsPattern));
  return {
    rules: sorted,
    compiled,
    mode: ctx.mode ?? 'default',
    nonInteractive: ctx.nonInteractive ?? false,
    disableAlwaysAllow: ctx.disableAlwaysAllow ?? false,
    anyPattern: sorted.some((r) => r.argsPattern !== undefined),
  };
}

/** The call's names (aliases, the agent an `invoke_agent` names) and MCP server, as the lookup reads them. */
function callNames(call: GeminiCall, ctx: GeminiContext): { names: string[]; server: string | undefined } {
  let server = ctx.serverName;
  if (!server && ctx.toolAnnotations && typeof ctx.toolAnnotations['_serverName'] === 'string') server = ctx.toolAnnotations['_serverName'] as string;
  if (!server && call.name) server = parseMcpName(call.name);
  const names = call.name ? aliases(call.name) : [];
  if (call.name === 'invoke_agent' && call.args && typeof call.args['agent_name'] === 'string') names.push(call.args['agent_name']);
  return { names, server };
}

/** The first rule, by final priority, that matches the call: the rule Gemini CLI's top-level lookup settles on. */
function firstRule(env: Lookup, call: GeminiCall, ctx: GeminiContext): GeminiLoadedRule | undefined {
  const { names, server } = callNames(call, ctx);
  const json = call.args && env.anyPattern ? geminiArgsJson(call.args) : undefined;
  for (const rule of env.rules) {
    if (env.disableAlwaysAllow && Math.round((rule.priority % 1) * 1000) === 950) continue;
    if (names.some((n) => ruleMatches(env, rule, n, call.args, json, server, ctx))) return rule;
  }
  return undefined;
}

/** Gemini CLI's top-level rule lookup alone: synchronous, no shell parsing. */
export interface GeminiLookup {
  /**
   * The rule the agent's lookup settles on for a call (undefined: no rule matches, the default decides). The
   * whole decision (`geminiPolicy(...).decide`) starts from it: for the shell tool the re-checks of
   * sub-commands and of an `sh -c` script, a redirection and text tree-sitter cannot parse only make it
   * stricter; the built-in heuristics, which run for a rule without a pattern and for the default, can also
   * turn ask_user into allow.
   */
  first(call: GeminiCall, ctx?: GeminiContext): GeminiLoadedRule | undefined;
}

export function geminiLookup(rules: readonly GeminiLoadedRule[], ctx: { mode?: GeminiMode; nonInteractive?: boolean; disableAlwaysAllow?: boolean } = {}): GeminiLookup {
  const env = lookupOf(rules, ctx);
  return { first: (call, callCtx = {}) => firstRule(env, call, callCtx) };
}

function ruleMatches(env: Lookup, rule: GeminiLoadedRule, name: string, args: GeminiCall['args'], json: string | undefined, server: string | undefined, ctx: GeminiContext): boolean {
  if (rule.modes && rule.modes.length > 0 && !rule.modes.includes(env.mode)) return false;
  if (rule.subagent !== undefined && rule.subagent !== ctx.subagent) return false;
  if (rule.mcpName !== undefined) {
    if (rule.mcpName === '*') {
      if (server === undefined) return false;
    } else if (server !== rule.mcpName) return false;
  }
  if (rule.toolName !== '*') {
    if (rule.toolName.includes('*')) {
      if (!name || !wildcardMatches(rule.toolName, name, server)) return false;
    } else if (name !== rule.toolName) {
      let mcp = false;
      if (server && name) {
        if (rule.mcpName && !rule.toolName.startsWith('mcp_') && name === mcpToolName(rule.mcpName, rule.toolName)) mcp = true;
        if (!mcp && rule.toolName.startsWith('mcp_') && rule.toolName === mcpToolName(server, name)) mcp = true;
      }
      if (!mcp) return false;
    }
  }
  if (rule.toolAnnotations) {
    if (!ctx.toolAnnotations) return false;
    for (const [k, v] of Object.entries(rule.toolAnnotations)) if (ctx.toolAnnotations[k] !== v) return false;
  }
  if (rule.argsPattern) {
    if (!args) return false;
    if (json === undefined || !env.compiled.get(rule)!.test(json)) return false;
  }
  if (rule.interactive !== undefined) {
    if (rule.interactive && env.nonInteractive) return false;
    if (!rule.interactive && !env.nonInteractive) return false;
  }
  return true;
}

function unquoteName(raw: string): string {
  if (raw.length >= 2) {
    const a = raw[0];
    const b = raw[raw.length - 1];
    if ((a === '"' && b === '"') || (a === "'" && b === "'")) return raw.slice(1, -1);
  }
  return raw.trim();
}

function detailName(node: BashNode): string | undefined {
  switch (node.type) {
    case 'command': {
      const n = node.childForFieldName('name');
      return n ? unquoteName(n.text) : undefined;
    }
    case 'declaration_command':
    case 'unset_command':
    case 'test_command': {
      const first = node.child(0);
      return first ? unquoteName(first.text) : undefined;
    }
    case 'file_redirect': {
      for (const c of children(node)) {
        if (c.text.includes('<')) return 'redirection (<)';
        if (c.text.includes('>')) return 'redirection (>)';
      }
      return 'redirection (>)';
    }
    case 'heredoc_redirect':
      return 'heredoc (<<)';
    case 'herestring_redirect':
      return 'herestring (<<<)';
    case 'command_substitution':
      return 'command substitution';
    case 'backtick_substitution':
      return 'backtick substitution';
    case 'process_substitution':
      return 'process substitution';
    case 'subshell':
      return 'subshell';
    default:
      return undefined;
  }
}

interface Detail {
  readonly name: string;
  readonly text: string;
  readonly startIndex: number;
  readonly rawLength: number;
}

/** The parts of shell text Gemini CLI re-checks (its tree-sitter walk), or undefined when it gets no tree. */
export function geminiShellParts(bash: BashParser, command: string): { parts: Detail[]; hasError: boolean } | undefined {
  if (!command.trim()) return undefined;
  const tree = bash.parse(command);
  if (!tree) return undefined;
  const parts: Detail[] = [];
  const stack: BashNode[] = [tree.rootNode];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const name = detailName(node);
    if (name !== undefined && name !== '') {
      const raw = command.slice(node.startIndex, node.endIndex);
      parts.push({ name, text: raw.trim(), startIndex: node.startIndex, rawLength: raw.trim().length });
    }
    const cs = children(node);
    for (let i = cs.length - 1; i >= 0; i--) stack.push(cs[i]!);
  }
  const hasError = tree.rootNode.hasError || parts.length === 0 || hasPromptTransform(tree.rootNode);
  return { parts: parts.sort((a, b) => a.startIndex - b.startIndex), hasError };
}

function hasPromptTransform(root: BashNode): boolean {
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.type === 'expansion') {
      for (let i = 0; i < n.childCount - 1; i++) {
        if (n.child(i)?.text === '@' && n.child(i + 1)?.text?.toLowerCase() === 'p') return true;
      }
    }
    for (let i = n.namedChildCount - 1; i >= 0; i--) {
      const c = n.namedChild(i);
      if (c) stack.push(c);
    }
  }
  return false;
}

/** Whether Gemini CLI sees a redirection in shell text. */
export function geminiHasRedirection(bash: BashParser, command: string): boolean {
  if (!/[><]/.test(command)) return false;
  const tree = command.trim() ? bash.parse(command) : null;
  if (!tree) return true;
  const stack: BashNode[] = [tree.rootNode];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.type === 'redirected_statement' || n.type === 'file_redirect' || n.type === 'heredoc_redirect' || n.type === 'herestring_redirect') return true;
    stack.push(...children(n));
  }
  return false;
}

const WRAPPER = /^\s*(?:(?:(?:\S+\/)?(?:sh|bash|zsh))\s+-c|cmd\.exe\s+\/c|powershell(?:\.exe)?\s+(?:-NoProfile\s+)?-Command|pwsh(?:\.exe)?\s+(?:-NoProfile\s+)?-Command)\s+/i;

/** The script inside `sh|bash|zsh -c …` (and the Windows shells) as Gemini CLI unwraps it; else the text trimmed. */
export function geminiStripWrapper(command: string): string {
  const m = WRAPPER.exec(command);
  if (!m) return command.trim();
  let inner = command.slice(m[0].length).trim();
  if (inner.length >= 2 && ((inner.startsWith('"') && inner.endsWith('"')) || (inner.startsWith("'") && inner.endsWith("'")))) {
    const posix = m[0].trim().endsWith('-c');
    if (posix && inner.startsWith('"')) {
      try {
        const parsed = shellQuoteParse(inner, (key: string) => `$${key}`);
        inner = parsed.length === 1 && typeof parsed[0] === 'string' ? parsed[0] : inner.slice(1, -1);
      } catch {
        inner = inner.slice(1, -1);
      }
    } else inner = inner.slice(1, -1);
  }
  return inner;
}

function downgradeForRedirection(env: Env, command: string, allowRedirection: boolean | undefined): boolean {
  if (allowRedirection) return false;
  if (!geminiHasRedirection(env.bash, command)) return false;
  return env.mode !== 'autoEdit' && env.mode !== 'yolo';
}

const RANK: Record<GeminiDecision, number> = { allow: 0, ask_user: 1, deny: 2 };

function checkShell(env: Env, tool: string, command: unknown, ruleDecision: GeminiDecision, dirPath: unknown, allowRedirection: boolean | undefined, rule: GeminiLoadedRule | undefined, ctx: GeminiContext, notes: Set<string>): GeminiDecision {
  if (!command) return ruleDecision;
  const text = String(command);
  const parsed = geminiShellParts(env.bash, text);
  const parts = parsed?.parts ?? [];
  if (parts.length === 0 || parsed?.hasError) {
    if (ruleDecision === 'deny') return 'deny';
    if (env.mode === 'yolo') return rule?.argsPattern ? 'deny' : 'allow';
    return env.defaultDecision;
  }
  if (ruleDecision === 'deny') return 'deny';
  let agg = ruleDecision;
  if (agg === 'allow' && downgradeForRedirection(env, text, allowRedirection)) agg = 'ask_user';
  for (const part of parts) {
    if (NOT_COMMANDS.has(part.name)) continue;
    const sub = part.text.trim();
    const atomic = sub === text || (part.startIndex === 0 && part.rawLength === text.length);
    const stripped = geminiStripWrapper(sub);
    if (stripped !== sub) {
      const r = decideOne(env, { name: tool, args: withDir(stripped, dirPath) }, ctx, true, notes);
      if (r === 'deny') return 'deny';
      if (r === 'ask_user') agg = 'ask_user';
    }
    if (!atomic) {
      const r = decideOne(env, { name: tool, args: withDir(sub, dirPath) }, ctx, true, notes);
      if (r === 'deny') return 'deny';
      if (r === 'ask_user') agg = 'ask_user';
      if (r === 'allow' && agg === 'allow' && downgradeForRedirection(env, sub, allowRedirection)) agg = 'ask_user';
    }
  }
  return agg;
}

function withDir(command: string, dirPath: unknown): Record<string, unknown> {
  return dirPath === undefined ? { command } : { command, dir_path: dirPath };
}

/** The decisions Gemini's shell heuristics can turn `decision` into (they are not modelled). */
function heuristicOutcomes(decision: GeminiDecision, mode: GeminiMode): GeminiDecision[] {
  if (decision === 'deny') return ['deny'];
  // A dangerous command asks (not in yolo); git in an untrusted folder asks (yolo too); a known-safe one
  // turns ask_user into allow.
  void mode;
  const out = new Set<GeminiDecision>([decision, 'ask_user']);
  if (decision === 'ask_user') out.add('allow');
  return [...out];
}

function splitForHeuristics(bash: BashParser, text: string): string[] {
  const parsed = geminiShellParts(bash, text);
  if (!parsed || parsed.hasError) return [];
  return parsed.parts.filter((p) => !NOT_COMMANDS.has(p.name)).map((p) => p.text).filter(Boolean);
}

/** The heuristics' answer: exact when the run's facts are known, else every decision they can give. */
function heuristics(env: Env, command: unknown, decision: GeminiDecision, dirPath: unknown, notes: Set<string>): GeminiDecision[] {
  if (env.facts !== undefined) {
    const exact = geminiHeuristics(String(command), decision, dirPath, env.mode, env.facts, env.bash, splitForHeuristics);
    if (exact !== undefined) return [exact];
    notes.add("Gemini CLI's heuristics treat an absolute `rg` as safe only if it really is a system binary: the file system decides");
  } else notes.add(HEURISTICS_NOTE);
  return heuristicOutcomes(decision, env.mode);
}

const HEURISTICS_NOTE =
  "Gemini CLI's built-in shell heuristics (known-safe and dangerous command tables, git in an untrusted folder, dir_path outside the workspace) decide here: they run for a rule without commandPrefix/commandRegex/argsPattern and for the no-rule default";

/**
 * One decision, or several when the agent's heuristics (not modelled) take part; `skipHeuristics` is the
 * agent's own flag for its re-checks of sub-commands.
 */
function decideMany(env: Env, call: GeminiCall, ctx: GeminiContext, skipHeuristics: boolean, notes: Set<string>): { decisions: GeminiDecision[]; rule?: GeminiLoadedRule } {
  const names = callNames(call, ctx).names;
  const isShell = SHELL_TOOLS.has(call.name);
  const command = isShell ? call.args?.['command'] : undefined;
  const dirPath = isShell ? call.args?.['dir_path'] : undefined;
  let decisions: GeminiDecision[] | undefined;
  const matched = firstRule(env, call, ctx);
  if (matched !== undefined) {
    const rule = matched;
    let starts: GeminiDecision[] = [rule.decision];
    if (!skipHeuristics && isShell && command && !rule.argsPattern) starts = heuristics(env, command, rule.decision, dirPath, notes);
    decisions = isShell && call.name
      ? starts.map((d) => checkShell(env, call.name, command, d, dirPath, rule.allowRedirection, rule, ctx, notes))
      : starts;
  }
  if (decisions === undefined) {
    if (env.mode === 'yolo') decisions = ['allow'];
    else if (isShell) {
      let starts: GeminiDecision[] = [env.defaultDecision];
      if (!skipHeuristics && command) starts = heuristics(env, command, env.defaultDecision, dirPath, notes);
      decisions = starts.map((d) => checkShell(env, call.name, command, d, dirPath, false, undefined, ctx, notes));
    } else decisions = [env.defaultDecision];
  }
  decisions = decisions.map((d) => (d === 'allow' ? afterAllow(env, call, names, notes) : d));
  return { decisions: [...new Set(decisions)].sort((a, b) => RANK[a] - RANK[b]), ...(matched ? { rule: matched } : {}) };
}

function decideOne(env: Env, call: GeminiCall, ctx: GeminiContext, skipHeuristics: boolean, notes: Set<string>): GeminiDecision {
  // Re-checks skip the heuristics, so their answer is one decision.
  return decideMany(env, call, ctx, skipHeuristics, notes).decisions[0]!;
}

function aliases(name: string): string[] {
  const out = new Set([name]);
  const canonical = LEGACY_ALIASES[name] ?? name;
  out.add(canonical);
  for (const [legacy, current] of Object.entries(LEGACY_ALIASES)) if (current === canonical) out.add(legacy);
  return [...out];
}

function afterAllow(env: Env, call: GeminiCall, names: readonly string[], notes: Set<string>): GeminiDecision {
  const args = call.args;
  if (args && isRecord(args['additional_permissions']) && isRecord((args['additional_permissions'] as Record<string, unknown>)['fileSystem'])) {
    notes.add('additional_permissions outside the workspace turn an allow into ask_user in Gemini CLI: not modelled');
  }
  const edits = names.some((n) => n === 'replace' || n === 'write_file' || n.toLowerCase().split(/[^a-z0-9]+/).some((w) => EDIT_WORDS.has(w)));
  if (!edits || !isRecord(args)) return 'allow';
  const target = args['file_path'] ?? args['path'] ?? args['filePath'] ?? args['file'];
  if (typeof target !== 'string') return 'allow';
  if (isBuildFile(target.trim())) return env.nonInteractive ? 'deny' : 'ask_user';
  return 'allow';
}

function isBuildFile(path: string): boolean {
  if (!path) return false;
  let p = path.replace(/\0/g, '').replace(/\\/g, '/');
  try {
    if (p.startsWith('file://')) p = decodeURIComponent(new URL(p).pathname);
    else p = decodeURIComponent(p);
  } catch {
    // a malformed escape keeps the text as written
  }
  const parts = p.split('/').filter((s) => s !== '' && s !== '.');
  const stack: string[] = [];
  for (const s of parts) {
    if (s === '..') stack.pop();
    else stack.push(s);
  }
  const base = stack[stack.length - 1] ?? '';
  if (BUILD_FILES.has(base) || base.startsWith('Dockerfile.') || base.startsWith('Containerfile.')) return true;
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 ? base.slice(dot).toLowerCase() : '';
  return BUILD_EXTENSIONS.has(ext);
}

/** A loaded policy ready to decide calls as Gemini CLI's PolicyEngine would. */
export interface GeminiPolicy {
  decide(call: GeminiCall, ctx?: GeminiContext): GeminiOutcome;
}

/**
 * `facts` (the workspace root, the home directory, the folder's trust) make the heuristics exact, assuming no
 * symlink leads out of the workspace and no file is named like an option; without them the outcome lists every
 * decision the heuristics can give.
 */
export function geminiPolicy(
  rules: readonly GeminiLoadedRule[],
  bash: BashParser,
  ctx: { mode?: GeminiMode; nonInteractive?: boolean; disableAlwaysAllow?: boolean; facts?: GeminiRunFacts } = {},
): GeminiPolicy {
  const lookup = lookupOf(rules, ctx);
  const env: Env = { ...lookup, bash, defaultDecision: lookup.nonInteractive ? 'deny' : 'ask_user', facts: ctx.facts };
  return {
    decide(call, callCtx = {}) {
      const notes = new Set<string>();
      const r = decideMany(env, call, callCtx, false, notes);
      return { decisions: r.decisions, ...(r.rule ? { rule: r.rule } : {}), notModelled: [...notes] };
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// What Verdict's IR cannot say of a Gemini CLI policy, each at its place.

export interface GeminiNotExpressible {
  readonly message: string;
  readonly at?: Span | undefined;
}

function toolsMayOverlap(a: GeminiLoadedRule, b: GeminiLoadedRule): boolean {
  if (a.toolName === b.toolName || a.toolName.includes('*') || b.toolName.includes('*')) return true;
  return SHELL_TOOLS.has(a.toolName) && SHELL_TOOLS.has(b.toolName);
}

/** JavaScript regex features RE2 (Verdict's matcher) does not have. */
function jsOnlyFeature(pattern: string): string | undefined {
  if (/\(\?<?[=!]/.test(pattern)) return 'a lookaround';
  if (/\\[1-9]|\\k</.test(pattern)) return 'a backreference';
  return undefined;
}

export function geminiNotExpressible(rules: readonly GeminiLoadedRule[]): GeminiNotExpressible[] {
  const out: GeminiNotExpressible[] = [];
  const sorted = [...rules].sort((a, b) => b.priority - a.priority);
  sorted.forEach((r, i) => {
    const below = sorted.slice(i + 1).find((s) => RANK[s.decision] > RANK[r.decision] && toolsMayOverlap(r, s) && s.priority < r.priority);
    if (below !== undefined) {
      out.push({
        message: `this ${r.decision} (priority ${r.priority}) is tried before a ${below.decision} (priority ${below.priority}${below.at ? `, line ${below.at.start.line}` : ''}) and wins where both match: Gemini CLI takes the first match, Verdict applies deny > ask > allow in any order, so the carve-out has no Verdict equivalent`,
        at: r.at,
      });
    }
    const conditions = [
      r.modes && r.modes.length > 0 ? `modes ${r.modes.join(', ')}` : undefined,
      r.interactive !== undefined ? (r.interactive ? 'interactive sessions' : 'non-interactive sessions') : undefined,
      r.subagent !== undefined ? `subagent ${r.subagent}` : undefined,
      r.toolAnnotations !== undefined ? 'tool annotations' : undefined,
    ].filter((x): x is string => x !== undefined);
    if (conditions.length > 0) {
      out.push({ message: `applies only under ${conditions.join(' and ')}: Verdict's rules have no such condition`, at: r.at });
    }
    if (r.argsPattern !== undefined) {
      const js = jsOnlyFeature(r.argsPattern);
      if (js !== undefined) out.push({ message: `the pattern uses ${js}, which RE2 (Verdict's matcher) does not have`, at: r.at });
      if (!r.argsPattern.startsWith('\\"command\\":') && !r.argsPattern.startsWith('"command":')) {
        out.push({ message: "the pattern runs over the stable JSON of all the call's arguments (keys sorted, top-level pairs framed by NUL); Verdict's `match` runs over one field", at: r.at });
      }
    } else if (SHELL_TOOLS.has(r.toolName) || r.toolName === '*') {
      out.push({ message: "a shell rule without a pattern hands the decision to Gemini CLI's heuristics (known-safe and dangerous command tables that look at the file system): no Verdict rule reproduces them", at: r.at });
    }
  });
  out.push({ message: 'a call no rule matches asks (interactive) or is denied (non-interactive); Verdict\'s `default` is allow or deny, with no ask' });
  return out;
}
