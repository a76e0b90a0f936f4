/**
 * Claude Code's decision for a tool call under its `settings.json` permission rules, modelled **to the
 * documentation** ("Configure permissions", as summarised in docs/native/claude-code.md; Claude Code is closed
 * source and this model was not run against it):
 *
 * - every scope's rules merge; deny, then ask, then allow: the first list with a matching rule decides, and
 *   no rule means the mode decides (`none` here);
 * - `Bash(...)`: `*` matches any characters, a final ` *` (or the legacy final `:*`) also matches the words
 *   before it alone, anything else is literal and matched against the command text as written (blanks
 *   collapsed); a compound command is split on `&& || ; | |& &` and newlines and every part is matched on its
 *   own: a deny or ask on any part decides, an allow needs every part allowed;
 * - before matching, the wrappers `timeout time nice nohup stdbuf command builtin noglob` and a bare `xargs`
 *   are stripped; deny and ask rules also see the command after any leading assignment and (since 2.1.113)
 *   behind `env sudo watch ionice setsid`; an allow never sees past an assignment here (Claude Code looks past
 *   "certain known-safe" variables it does not list: said as a reason it cannot decide); `watch setsid ionice
 *   flock` and `find -exec/-delete` are never allowed by a wildcard rule;
 * - `Read(path)` / `Edit(path)`: gitignore globs with the anchors `//` (filesystem root), `~/` (home), `/` (the
 *   settings file's root: the project for `.claude/settings.json`) and `./` or none (the working directory); a
 *   bare file name matches at any depth, a single-segment `dir/**` at any depth in deny and ask only; a path
 *   matches when it or a folder above it matches; `Edit` rules cover every file-editing tool and a `Read` deny
 *   blocks them too;
 * - `WebFetch(domain:host)`, `mcp__server[__tool|__*]`, tool-name globs in deny and ask, `Agent(name)`, and
 *   `Tool(param:value)` in deny and ask.
 *
 * What the documentation leaves open is returned as `cannotDecide` reasons, never guessed into an allow.
 */
import { normalizePath } from '@verdict/engine';
import type { ClaudeList, ClaudeRule, ClaudeSettingsFile } from '../claude.ts';

export type ClaudeDecision = 'allow' | 'ask' | 'deny' | 'none';

/** A call in Claude Code's own vocabulary: a tool name and its input (`Bash` with `{command}`). */
export interface ClaudeCall {
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
}

export interface ClaudeContext {
  /** The working directory (relative rules and paths). Default `/project`. */
  readonly cwd?: string;
  /** The home directory (`~/`). Default `/home/user`. */
  readonly home?: string;
  /**
   * The folder every file's `/path` rules anchor at (the project), instead of the one its name says (the folder
   * holding `.claude/`): for comparing two copies of one project's file kept at different places.
   */
  readonly root?: string;
}

export interface ClaudeDeciding {
  readonly rule: ClaudeRule;
  readonly file: string;
}

/**
 * Claude Code's own read-only commands: it runs them with no rule, in every mode (`dontAsk` too), unless a
 * rule asks or denies. The set is not published; this one is measured on the client (2.1.328, no rule: each
 * program bare, with one operand and with `--version`; the sub-commands as listed), and the client also
 * reads their arguments (`tee x` asks). Programs named here run in some form; which arguments keep them
 * read-only is the client's, so a command of theirs with no rule is `none` that may be an allow.
 */
export const CLAUDE_READ_ONLY: readonly string[] = [
  'basename', 'cal', 'cat', 'cd', 'cmp', 'column', 'comm', 'cut', 'date', 'df', 'diff', 'dirname', 'du', 'echo', 'egrep', 'false', 'fd', 'fgrep', 'file',
  'find', 'fold', 'free', 'grep', 'head', 'hexdump', 'history', 'hostname', 'id', 'jq', 'ls', 'lsof', 'man', 'md5sum', 'netstat', 'nl', 'od', 'paste',
  'ps', 'pwd', 'readlink', 'realpath', 'rev', 'rg', 'seq', 'sha256sum', 'sleep', 'sort', 'ss', 'stat', 'strings', 'tail', 'test', 'tr', 'tree', 'true',
  'type', 'uname', 'uniq', 'uptime', 'wc', 'which', 'whoami',
];
/** Sub-commands (and version options) of other programs that Claude Code runs with no rule (measured as above). */
export const CLAUDE_READ_ONLY_SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  git: ['status', 'diff', 'log', 'show', 'branch', 'blame', 'ls-files', 'ls-tree', 'rev-parse', 'remote', 'tag', 'config', 'stash', 'grep', 'shortlog', 'describe', 'reflog', 'cat-file', 'rev-list', 'show-ref', 'for-each-ref', 'merge-base', 'name-rev', 'worktree'],
  docker: ['ps', 'images', 'logs', 'inspect'],
  node: ['-v', '--version'],
  python: ['-V', '--version'],
  python3: ['-V', '--version'],
};

/** Whether a command's words start as one of Claude Code's read-only commands (its arguments aside). */
export function claudeReadOnly(words: readonly string[]): boolean {
  const [program, sub] = [words[0] ?? '', words[1] ?? ''];
  return CLAUDE_READ_ONLY.includes(program) || (CLAUDE_READ_ONLY_SUBCOMMANDS[program]?.includes(sub) ?? false);
}

export interface ClaudeOutcome {
  readonly decision: ClaudeDecision;
  /** Every answer the client may give (absent: the decision alone); a read-only command with no rule may run. */
  readonly possible?: readonly ClaudeDecision[];
  /** The rule that decides (for an allow of a compound command: the one allowing its first part). */
  readonly by?: ClaudeDeciding;
  /** What the documentation leaves open for this call; empty when the documented matching decides it. */
  readonly cannotDecide: readonly string[];
}

/* ------------------------------------------------------------------------------------------------ */
/* Bash specifiers                                                                                    */

/** Whether a `Bash(...)` specifier matches one command text, as the documentation states. */
export function claudeBashMatches(specifier: string, command: string): boolean {
  // Blanks are matched as one space, in the rule as in the command (rules tolerate extra spaces and tabs since 2.1.98).
  let spec = specifier.replace(/[ \t]+/g, ' ');
  if (spec.endsWith(':*')) spec = `${spec.slice(0, -2)} *`;
  let source = '';
  const trailing = spec.endsWith(' *');
  const body = trailing ? spec.slice(0, -2) : spec;
  for (const ch of body) source += ch === '*' ? '.*' : ch.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  if (trailing) source += '( .*)?';
  return new RegExp(`^${source}$`, 's').test(command);
}

/** One part of a compound command, as written, and what the split could not settle. */
interface Part {
  text: string;
}

/** The end of a `$(`, `<(`, `>(` or `(` opened just before `from`: the index of its `)`, or -1 (quotes skipped). */
function closingParen(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') i++;
    else if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/** What Claude Code's shell reading gives for one text. */
export interface ClaudeShellReading {
  /** The simple commands at the top level, blanks collapsed, comments removed. */
  parts: string[];
  /** Per part: the text as written (trimmed) when its blanks are other than single spaces between words. */
  irregular: (string | undefined)[];
  /** The commands inside substitutions, subshells and brace groups (deny and ask rules see them). */
  inner: string[];
  /** Why the client asks whatever its allow rules say (a subshell, a substitution, `&`, a redirection that writes). */
  prompts: string[];
  /** What neither the documentation nor the measurement settles. */
  open: string[];
}

/**
 * Claude Code's split of shell text: on `&&`, `||`, `;`, `|`, `|&`, `&` and newlines outside quotes; `#` at
 * the start of a word starts a comment. Measured on the client (2.1.328, e2e/native-diff `claude-agent`):
 * deny and ask rules see the commands inside `$( )`, backquotes, `<( )`, `>( )`, `( )` and `{ }`, while
 * such a text, a background `&`, an output redirection to a file other than `/dev/null` and a
 * backslash-escaped blank are asked about whatever the allow rules say.
 */
export function claudeSplit(command: string): ClaudeShellReading {
  const parts: string[] = [];
  const irregular: (string | undefined)[] = [];
  const inner: string[] = [];
  const prompts = new Set<string>();
  const open = new Set<string>();
  let cur = '';
  let quote: '"' | "'" | undefined;
  const atWordStart = (): boolean => cur === '' || cur.endsWith(' ') || cur.endsWith('\t');
  const nested = (text: string): void => {
    const r = claudeSplit(text);
    inner.push(...r.parts, ...r.inner);
    for (const o of r.open) open.add(o);
  };
  /**
   * The command text enclosed from `i` (its body from `from` to its end `end`), kept in the part as written:
   * deny and ask rules see its commands, and the client asks. The index to go on from, or -1 when it never
   * closes (the rest of the text is the part).
   */
  const enclosed = (i: number, from: number, end: number, prompt: string, unclosed: string): number => {
    if (end < 0) {
      open.add(unclosed);
      cur += command.slice(i);
      return -1;
    }
    nested(command.slice(from, end));
    prompts.add(prompt);
    cur += command.slice(i, end + 1);
    return end;
  };
  const flush = (): void => {
    const t = cur.replace(/[ \t]+/g, ' ').trim();
    if (t !== '') {
      parts.push(t);
      irregular.push(/[ \t]{2,}|\t/.test(cur.trim()) ? cur.trim() : undefined);
    }
    cur = '';
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    const next = command[i + 1];
    if (quote === "'") {
      cur += c;
      if (c === "'") quote = undefined;
      continue;
    }
    if (c === '\\') {
      if (next === '\n') open.add('a line continuation (backslash-newline): not documented');
      else if (quote === undefined && (next === ' ' || next === '\t')) prompts.add('a backslash-escaped blank');
      cur += c + (next ?? '');
      i++;
      continue;
    }
    if ((c === '$' || ((c === '<' || c === '>') && quote === undefined)) && next === '(') {
      const to = enclosed(i, i + 2, closingParen(command, i + 2), c === '$' ? 'a command substitution' : 'a process substitution', 'a substitution that does not close');
      if (to < 0) break;
      i = to;
      continue;
    }
    if (c === '`') {
      const to = enclosed(i, i + 1, command.indexOf('`', i + 1), 'a command substitution', 'a backquote that does not close');
      if (to < 0) break;
      i = to;
      continue;
    }
    if (quote === '"') {
      cur += c;
      if (c === '"') quote = undefined;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      cur += c;
      continue;
    }
    if (c === '#' && atWordStart()) {
      const nl = command.indexOf('\n', i);
      i = (nl < 0 ? command.length : nl) - 1;
      continue;
    }
    if (c === '<' && next === '<') open.add('a here-document: not documented for matching');
    if (c === '(' && atWordStart()) {
      const to = enclosed(i, i + 1, closingParen(command, i + 1), 'a subshell', 'a subshell that does not close');
      if (to < 0) break;
      i = to;
      continue;
    }
    if ((c === '{' || c === '}') && atWordStart() && (next === undefined || next === ' ' || next === '\t' || next === '\n' || next === ';')) {
      // A brace group: its commands are parts of their own (deny and ask see them); the client asks.
      prompts.add('a brace group');
      flush();
      continue;
    }
    if (c === '>' && next !== '(' && command[i - 1] !== '>') {
      const target = command.slice(i + 1).replace(/^[>|]/, '').trimStart();
      if (!target.startsWith('&') && !/^\/dev\/null(?![^\s;&|)])/.test(target)) prompts.add('an output redirection to a file');
    }
    if (c === '\n' || c === ';') {
      flush();
      continue;
    }
    if (c === '&') {
      if (command[i - 1] === '>' || next === '>') {
        cur += c;
        continue;
      }
      if (next === '&') i++;
      else prompts.add('a background `&`');
      flush();
      continue;
    }
    if (c === '|') {
      if (next === '|' || next === '&') i++;
      flush();
      continue;
    }
    cur += c;
  }
  if (quote !== undefined) open.add('an unclosed quote: Claude Code asks for text it cannot parse');
  flush();
  return { parts, irregular, inner, prompts: [...prompts], open: [...open] };
}

/** A word with its quotes removed (`"a b"` → `a b`, `d"ocker"` → `docker`, `\x` → `x`). */
function unquoted(word: string): string {
  let out = '';
  let quote: string | undefined;
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else out += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < word.length && '"\\$`'.includes(word[i + 1]!)) out += word[++i];
      else out += c;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\' && i + 1 < word.length) out += word[++i];
    else out += c;
  }
  return out;
}

/** Words of a part (blank-separated, quotes kept as written: the rules match the text as written). */
function wordsOf(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | undefined;
  for (const c of text) {
    if (quote !== undefined) {
      cur += c;
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') {
      quote = c;
      cur += c;
    } else if (c === ' ' || c === '\t') {
      if (cur !== '') out.push(cur);
      cur = '';
    } else cur += c;
  }
  if (cur !== '') out.push(cur);
  return out;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

const REDIRECTION = /^(\d*|&)(>>?|<|>&|<&|>\|)/;
/**
 * The words without their redirections: measured, rules match the command with `2>&1`, `> out.txt` and the like
 * taken out (`mytool deploy 2>&1` is matched by `Bash(mytool deploy)`); whether they are asked about is the split's.
 */
function withoutRedirections(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const m = REDIRECTION.exec(words[i]!);
    if (m === null || (i === 0 && m[1] === '')) out.push(words[i]!);
    else if (m[0] === words[i]) i++; // the operator alone: its target is the next word
  }
  return out;
}

/** The documented wrappers, with the option words each takes before the command. */
interface Strip {
  /** Options that take a separate value. */
  valued?: readonly string[];
  /** Positional words before the command (`timeout DURATION`). */
  positionals?: number;
  /** Options that make the wrapper do something else: not stripped (`command -v`). */
  refuse?: readonly string[];
  /** Only stripped when no option follows it (`xargs`). */
  bare?: boolean;
  /** Takes leading assignments (`env A=1 cmd`). */
  assignments?: boolean;
}

/** Stripped before every rule. */
const WRAPPERS: Readonly<Record<string, Strip>> = {
  timeout: { valued: ['-s', '--signal', '-k', '--kill-after'], positionals: 1 },
  time: {},
  nice: { valued: ['-n', '--adjustment'] },
  nohup: {},
  stdbuf: { valued: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  command: { refuse: ['-v', '-V'] },
  builtin: {},
  noglob: {},
  xargs: { bare: true },
};

/** The wrappers Claude Code strips before every rule, with the positional words each takes before the command (`timeout 5`). */
export const CLAUDE_STRIPPED: Readonly<Record<string, number>> = Object.fromEntries(Object.entries(WRAPPERS).map(([w, spec]) => [w, spec.positionals ?? 0]));

/** Seen through by deny and ask rules only (since 2.1.113). */
const DENY_WRAPPERS: Readonly<Record<string, Strip>> = {
  env: { valued: ['-u', '--unset', '-C', '--chdir', '-S', '--split-string'], assignments: true },
  sudo: { valued: ['-u', '--user', '-g', '--group', '-C', '-D', '--chdir', '-h', '--host', '-p', '--prompt', '-r', '--role', '-t', '--type', '-U', '--other-user'] },
  watch: { valued: ['-n', '--interval', '-d'] },
  ionice: { valued: ['-c', '--class', '-n', '--classdata', '-p', '--pid', '-P', '--pgid', '-u', '--uid'] },
  setsid: {},
};

/** Never allowed by a wildcard rule. */
const NEVER_PREFIX_ALLOWED = new Set(['watch', 'setsid', 'ionice', 'flock']);
const FIND_RUNS = new Set(['-exec', '-execdir', '-ok', '-okdir', '-delete']);

/** The words after one wrapper and its options, or undefined when `words` does not start with a strippable wrapper. */
function stripOne(words: readonly string[], table: Readonly<Record<string, Strip>>): string[] | undefined {
  const spec = table[words[0] ?? ''];
  if (spec === undefined) return undefined;
  let i = 1;
  if (spec.bare === true) return words.length > 1 && !words[1]!.startsWith('-') ? words.slice(1) : undefined;
  while (i < words.length) {
    const w = words[i]!;
    if (spec.refuse?.includes(w) === true) return undefined;
    if (spec.assignments === true && ASSIGNMENT.test(w)) i++;
    else if (w === '--') {
      i++;
      break;
    } else if (spec.valued?.includes(w) === true) i += 2;
    else if (w.startsWith('-') && w.length > 1) i++;
    else break;
  }
  i += spec.positionals ?? 0;
  return i < words.length ? words.slice(i) : undefined;
}

/**
 * The texts a rule of `list` is matched against for one part: for allow, the part with the documented
 * wrappers stripped; for deny and ask, every form from the text as written to the innermost command.
 */
function formsOfPart(part: string, list: ClaudeList): { forms: string[]; assignmentHidden: boolean } {
  // Measured (2.1.328): deny and ask rules match the words with their quotes removed; an allow rule the
  // program word unquoted and its arguments as written (`"mytool" build` is allowed by `Bash(mytool build)`,
  // `mytool "build"` is not).
  const written = withoutRedirections(wordsOf(part));
  let words = list === 'allow' ? written.map((w, i) => (i === 0 ? unquoted(w) : w)) : written.map(unquoted);
  const forms = new Set<string>([words.join(' '), ...(list === 'allow' ? [] : [written.join(' ')])]);
  let assignmentHidden = false;
  for (let guard = 0; guard < 16; guard++) {
    let next = stripOne(words, WRAPPERS);
    if (next === undefined && list !== 'allow') next = stripOne(words, DENY_WRAPPERS);
    if (next === undefined && ASSIGNMENT.test(words[0] ?? '')) {
      if (list === 'allow') {
        assignmentHidden = true;
        break;
      }
      let i = 0;
      while (i < words.length && ASSIGNMENT.test(words[i]!)) i++;
      next = i < words.length ? words.slice(i) : undefined;
    }
    if (next === undefined) break;
    words = next;
    if (list === 'allow') forms.clear();
    forms.add(words.join(' '));
  }
  return { forms: [...forms], assignmentHidden };
}

/** A wildcard allow never covers these (documented). */
function neverWildcardAllowed(form: string): boolean {
  const words = wordsOf(form);
  if (NEVER_PREFIX_ALLOWED.has(words[0] ?? '')) return true;
  return words[0] === 'find' && words.some((w) => FIND_RUNS.has(w));
}

/* ------------------------------------------------------------------------------------------------ */
/* Paths                                                                                              */

const dirname = (p: string): string => {
  const i = p.replace(/[\\/]+$/, '').search(/[\\/][^\\/]*$/);
  return i <= 0 ? (p.startsWith('/') ? '/' : '.') : p.slice(0, i);
};

/** The folder a settings file's `/path` rules are relative to (the project for `<project>/.claude/settings.json`). */
export function claudeSettingsRoot(file: string): string {
  const dir = dirname(file);
  const base = dir.split(/[\\/]/).pop();
  return base === '.claude' || base === 'claude' ? dirname(dir) : dir;
}

/** A gitignore glob (already anchored, absolute) as a regular expression over a normalised absolute path. */
function globRegex(glob: string): RegExp {
  let src = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slashAfter = glob[i + 2] === '/';
      src += slashAfter ? '(?:.*/)?' : '.*';
      i += slashAfter ? 2 : 1;
    } else if (c === '*') src += '[^/]*';
    else if (c === '?') src += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) src += '\\[';
      else {
        src += `[${glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else src += c.replace(/[\\^$.+?()[\]{}|]/g, '\\$&');
  }
  return new RegExp(`^${src}$`);
}

/** The absolute glob a `Read`/`Edit` rule names, given its anchors. */
function anchoredGlob(pattern: string, list: ClaudeList, root: string, ctx: Required<Omit<ClaudeContext, 'root'>>): string {
  let p = pattern.replace(/\\/g, '/');
  if (p.endsWith('/')) p += '**';
  if (p.startsWith('//')) return normalizeGlob(p.slice(1));
  if (p.startsWith('~/')) return normalizeGlob(`${ctx.home}/${p.slice(2)}`);
  if (p.startsWith('/')) return normalizeGlob(`${root}/${p.slice(1)}`);
  const rel = p.startsWith('./') ? p.slice(2) : p;
  const segments = rel.split('/');
  // A bare name matches at any depth; a single-segment `dir/**` too, in deny and ask.
  const anyDepth = (!p.startsWith('./') && !rel.includes('/')) || (list !== 'allow' && segments.length === 2 && segments[1] === '**' && !p.startsWith('./'));
  return normalizeGlob(`${ctx.cwd}/${anyDepth ? '**/' : ''}${rel}`);
}

function normalizeGlob(glob: string): string {
  return glob.replace(/\/+/g, '/').replace(/\/\.\//g, '/');
}

/** Whether a path (or a folder above it) matches a rule's glob. */
function pathMatches(glob: string, path: string): boolean {
  const re = globRegex(glob);
  let p = path;
  for (;;) {
    if (re.test(p)) return true;
    if (p === '/') return false;
    p = dirname(p);
  }
}

/* ------------------------------------------------------------------------------------------------ */
/* Other tools                                                                                        */

const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);

function hostOf(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

/** `WebFetch(domain:…)`: exact host, `*.example.com` (subdomains, not the apex), `example.*` (one label). */
function domainMatches(pattern: string, host: string): boolean {
  const p = pattern.toLowerCase().replace(/\.$/, '');
  if (p === '*') return true;
  const src = p.split('.').map((label) => (label === '*' ? '[^.]+' : label.replace(/[\\^$.*+?()[\]{}|-]/g, '\\$&'))).join('\\.');
  const re = p.startsWith('*.') ? new RegExp(`^(?:[^.]+\\.)+${src.slice('[^.]+\\.'.length)}$`) : new RegExp(`^${src}$`);
  return re.test(host);
}

function toolGlob(pattern: string, name: string): boolean {
  let src = '';
  for (const c of pattern) src += c === '*' ? '.*' : c.replace(/[\\^$.+?()[\]{}|]/g, '\\$&');
  return new RegExp(`^${src}$`).test(name);
}

/* ------------------------------------------------------------------------------------------------ */

interface Held {
  rule: ClaudeRule;
  file: string;
  root: string;
}

/** What one rule says of a non-shell call: it matches, it does not, or the model cannot tell. */
type Match = true | false | { open: string };

function ruleMatchesTool(h: Held, call: ClaudeCall, ctx: Required<Omit<ClaudeContext, 'root'>>): Match {
  const r = h.rule;
  const { tool, specifier } = r;
  const isMcp = call.tool.startsWith('mcp__');
  if (specifier === undefined) {
    if (tool.includes('*')) return r.list !== 'allow' || /^mcp__[^*]+__/.test(tool) ? toolGlob(tool, call.tool) : false;
    if (tool === call.tool) return true;
    if (tool === 'Task' && call.tool === 'Agent') return true;
    if (isMcp && tool.startsWith('mcp__')) {
      // `mcp__server` covers every tool of that server.
      return !tool.slice(5).includes('__') && call.tool.startsWith(`${tool}__`);
    }
    return false;
  }
  const spec = specifier.trim();
  const sameTool = tool === call.tool || (tool === 'Task' && call.tool === 'Agent') || (tool === 'Agent' && call.tool === 'Task');
  if (tool === 'Read' || tool === 'Edit') {
    const covers = tool === 'Read' ? call.tool === 'Read' || (r.list === 'deny' && EDIT_TOOLS.has(call.tool)) : EDIT_TOOLS.has(call.tool);
    if (!covers) {
      if (tool === 'Read' && (call.tool === 'Grep' || call.tool === 'Glob')) return { open: `\`${r.text}\` applies to ${call.tool} "best effort" (documented): not decided here` };
      return false;
    }
    const raw = call.input['file_path'] ?? call.input['notebook_path'] ?? call.input['path'];
    if (typeof raw !== 'string') return { open: `the call names no path for \`${r.text}\`` };
    const abs = normalizePath(raw.startsWith('/') ? raw : raw.startsWith('~/') ? `${ctx.home}/${raw.slice(2)}` : `${ctx.cwd}/${raw}`);
    return pathMatches(anchoredGlob(spec, r.list, h.root, ctx), abs);
  }
  if (!sameTool) return false;
  if (tool === 'WebFetch') {
    if (!spec.startsWith('domain:')) return { open: `\`${r.text}\`: only \`domain:\` is documented for WebFetch` };
    const host = hostOf(call.input['url']);
    if (host === undefined) return { open: 'the call names no URL Verdict can read a host from' };
    return domainMatches(spec.slice('domain:'.length), host);
  }
  if (tool === 'Agent' || tool === 'Task') {
    const name = call.input['subagent_type'];
    return typeof name === 'string' && toolGlob(spec, name);
  }
  const param = /^([A-Za-z_][A-Za-z0-9_]*):(.*)$/s.exec(spec);
  if (param !== null) {
    // `Tool(param:value)`: deny and ask only; one top-level scalar parameter.
    if (r.list === 'allow') return false;
    const v = call.input[param[1]!];
    if (v === undefined || v === null) return false;
    if (typeof v === 'object') return { open: `\`${r.text}\` names a parameter that is not a scalar in this call` };
    return toolGlob(param[2]!, String(v));
  }
  return { open: `\`${r.text}\`: Verdict does not model this tool's specifier` };
}

/** A loaded set of Claude Code settings files (every scope given), deciding calls as documented. */
export interface ClaudeModel {
  decide(call: ClaudeCall): ClaudeOutcome;
}

export function claudeModel(files: readonly ClaudeSettingsFile[], context: ClaudeContext = {}): ClaudeModel {
  const ctx: Required<Omit<ClaudeContext, 'root'>> = { cwd: normalizePath(context.cwd ?? '/project'), home: normalizePath(context.home ?? '/home/user') };
  const held: Held[] = [];
  for (const f of files) {
    // A local settings file's `/path` rules anchor at the start directory (documented).
    const settingsRoot = claudeSettingsRoot(f.file);
    const root = f.scope === 'local' ? ctx.cwd : context.root !== undefined ? normalizePath(context.root) : normalizePath(settingsRoot.startsWith('/') ? settingsRoot : `${ctx.cwd}/${settingsRoot}`);
    for (const rule of f.rules) if (rule.malformed === undefined) held.push({ rule, file: f.file, root });
  }
  const lists: Readonly<Record<ClaudeList, Held[]>> = { deny: [], ask: [], allow: [] };
  for (const h of held) lists[h.rule.list].push(h);
  const byList = (list: ClaudeList): Held[] => lists[list];

  const decideShell = (command: string): ClaudeOutcome => {
    const { parts, irregular, inner, prompts, open } = claudeSplit(command);
    const cannot = [...open];
    // Each part's forms, once per list (every rule of the list matches against the same forms).
    const memo = new Map<string, ReturnType<typeof formsOfPart>>();
    const formsOf = (part: string, list: ClaudeList): ReturnType<typeof formsOfPart> => {
      const key = `${list}\u0000${part}`;
      let f = memo.get(key);
      if (f === undefined) memo.set(key, (f = formsOfPart(part, list)));
      return f;
    };
    const shellRule = (h: Held): boolean => h.rule.tool === 'Bash' || (h.rule.tool.includes('*') && h.rule.specifier === undefined && h.rule.list !== 'allow' && toolGlob(h.rule.tool, 'Bash'));
    const matchesPart = (h: Held, part: string): boolean => {
      if (!shellRule(h)) return false;
      const spec = h.rule.specifier?.trim();
      if (spec === undefined || spec === '' || spec === '*') return true;
      if (spec.startsWith('command:')) return false; // a rule on the primary field is ignored (documented)
      const { forms } = formsOf(part, h.rule.list);
      const wildcard = spec.includes('*');
      return forms.some((f) => (h.rule.list === 'allow' && wildcard && neverWildcardAllowed(f) ? false : claudeBashMatches(spec, f)));
    };
    const matchesRaw = (h: Held, raw: string): boolean => {
      if (!shellRule(h)) return false;
      const spec = h.rule.specifier?.trim();
      if (spec === undefined || spec === '' || spec === '*') return true;
      // A wildcard rule matches the words (`mytool  build` is `Bash(mytool:*)`); an exact one the text as written.
      if (spec.includes('*')) return matchesPart(h, raw.replace(/[ \t]+/g, ' '));
      const words = wordsOf(raw);
      const text = words.length > 0 ? `${unquoted(words[0]!)}${raw.slice(raw.indexOf(words[0]!) + words[0]!.length)}` : raw;
      return !(spec.includes('*') && neverWildcardAllowed(text)) && claudeBashMatches(spec, text);
    };
    if (parts.length === 0 && inner.length === 0) return { decision: 'none', cannotDecide: cannot };
    // Measured (2.1.328): per command, a rule that names it exactly (`Bash(make run)`, or the prefix of
    // `Bash(make run:*)` with nothing after it; not `Bash(make run *)`) decides first, deny before ask; then the
    // other matching rules, deny before ask (`ask make run:*` beats `deny make:*` for `make run`, not for `make run x`).
    const exactly = (h: Held, part: string): boolean => {
      if (!shellRule(h)) return false;
      const spec = h.rule.specifier?.trim();
      if (spec === undefined || spec === '' || spec.startsWith('command:')) return false;
      const prefix = spec.endsWith(':*') ? spec.slice(0, -2) : spec;
      if (prefix.includes('*')) return false;
      return formsOf(part, h.rule.list).forms.includes(prefix);
    };
    let asked: Held | undefined;
    for (const [k, p] of [...parts, ...inner].entries()) {
      let decided: Held | undefined;
      // The commands inside a substitution or subshell have no exact stage (measured: `echo $(mytool test)` is
      // denied by `deny mytool*` beside `ask mytool test:*`).
      for (const match of k < parts.length ? [exactly, matchesPart] : [matchesPart]) {
        decided ??= byList('deny').find((h) => match(h, p)) ?? byList('ask').find((h) => match(h, p));
      }
      if (decided?.rule.list === 'deny') return { decision: 'deny', by: { rule: decided.rule, file: decided.file }, cannotDecide: cannot };
      if (decided !== undefined) asked ??= decided;
    }
    if (asked !== undefined) return { decision: 'ask', by: { rule: asked.rule, file: asked.file }, cannotDecide: cannot };
    // The client asks about these whatever its allow rules say (measured), unless an allow covers the whole tool.
    if (prompts.length > 0 || parts.length === 0) {
      const whole = byList('allow').find((h) => shellRule(h) && (h.rule.specifier === undefined || h.rule.specifier.trim() === '' || h.rule.specifier.trim() === '*'));
      return whole ? { decision: 'allow', by: { rule: whole.rule, file: whole.file }, cannotDecide: cannot } : { decision: 'none', cannotDecide: cannot };
    }
    const allows = byList('allow');
    let first: Held | undefined;
    for (const [k, p] of parts.entries()) {
      // Measured: an allow rule matches the text with its blanks as written (`npm  test` is not
      // `Bash(npm test)`, `mytool  build` is `Bash(mytool:*)`).
      const raw = irregular[k];
      const h = raw === undefined ? allows.find((a) => matchesPart(a, p)) : allows.find((a) => matchesRaw(a, raw));
      if (h === undefined) {
        if (formsOf(p, 'allow').assignmentHidden && allows.some((a) => shellRule(a) && formsOf(p, 'deny').forms.some((f) => a.rule.specifier !== undefined && claudeBashMatches(a.rule.specifier.trim(), f)))) {
          cannot.push('a leading variable assignment: Claude Code\'s allow rules look past "certain known-safe" variables, which it does not list');
        }
        // The read-only check may see past the wrappers an allow does (`timeout 5 find`): every form counts.
        const readOnlyPart = (q: string): boolean => [q, ...formsOf(q, 'deny').forms].some((f) => claudeReadOnly(wordsOf(f).map(unquoted)));
        if (parts.every((q) => readOnlyPart(q) || allows.some((a) => matchesPart(a, q)))) {
          cannot.push("Claude Code runs its own read-only commands with no rule (a measured set); whether these arguments keep one read-only is the client's");
          return { decision: 'none', possible: ['none', 'allow'], cannotDecide: cannot };
        }
        return { decision: 'none', cannotDecide: cannot };
      }
      first ??= h;
    }
    return { decision: 'allow', by: { rule: first!.rule, file: first!.file }, cannotDecide: cannot };
  };

  return {
    decide(call) {
      if (call.tool === 'Bash') {
        const command = call.input['command'];
        if (typeof command !== 'string') return { decision: 'none', cannotDecide: ['a Bash call without a command'] };
        return decideShell(command);
      }
      const cannot: string[] = [];
      for (const list of ['deny', 'ask', 'allow'] as const) {
        for (const h of byList(list)) {
          if (h.rule.tool === 'Bash') continue;
          const m = ruleMatchesTool(h, call, ctx);
          if (m === true) return { decision: list, by: { rule: h.rule, file: h.file }, cannotDecide: cannot };
          if (m !== false) cannot.push(m.open);
        }
      }
      return { decision: 'none', cannotDecide: cannot };
    },
  };
}

