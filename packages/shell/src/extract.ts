/**
 * From shell command text to every simple command that would execute (README "Invariants").
 *
 * The text is parsed with just-bash's `parse()` (its interpreter's own AST) and walked without
 * recursion: one explicit stack of work items, so neither a 10,000-long `&&` chain nor deep
 * nesting can overflow the JavaScript stack. Scripts found inside words (`bash -c '…'`, static
 * `eval`, `alias x='…'`, `trap '…'`, `$((` `$(…)` `))`) are parsed again and pushed on the same
 * stack, to a bounded depth. Whatever cannot be modelled becomes an `Unknown` with a reason that
 * names the construct; the walk goes on past it, so a known command elsewhere is still reported.
 *
 * Parsing is total: `extract` never throws (an exception of the parser, a stack overflow inside it
 * included, becomes an unknown).
 */
import { parse } from 'just-bash';
import { screenText, shellSet, type ShellName } from './screen.ts';
import { DECLARATIONS, harmlessVariable, SHELLS, wrapperTable, type WrapperSpec } from './wrappers.ts';

/** Where a command stands in the text: UTF-16 offsets (`end` exclusive) and its 1-based line. */
export interface TextSpan {
  start: number;
  end: number;
  line: number;
}

/** One argv as written, after quote removal; `null` for a word whose value is not static. */
export interface Argv {
  /** argv[0] after quote removal, path included (`/bin/rm`). */
  readonly program: string;
  /** The rest: `null` stands for a word with an expansion (`$x`, `*`, `{a,b}`, `$(…)`). */
  readonly args: readonly (string | null)[];
}

/** A write redirection (`>`, `>>`, `>|`, `&>`, `&>>`, `<>`, `>&FILE`). */
export interface Redirect {
  readonly operator: string;
  /** The target after quote removal, or `null` when it has an expansion. */
  readonly target: string | null;
}

/** A simple command that would execute. */
export interface ShellCommand extends Argv {
  /** The wrappers it was found through, outermost first (`sudo`, `timeout`, `bash -c`, `find -exec`). */
  readonly wrappers: readonly Argv[];
  /** Its write redirections, and those of the compound commands around it. */
  readonly redirects: readonly Redirect[];
  /** The statement it belongs to (README "Spans"). */
  readonly span: TextSpan;
}

/** Something the extraction cannot model: never allowed. */
export interface Unknown {
  /** One lowercase sentence naming the construct. */
  readonly reason: string;
  readonly span: TextSpan;
}

/** A write redirection of a compound command with no simple command in it (`{ :; } > f` has one). */
export interface Extraction {
  readonly commands: ShellCommand[];
  /** Write redirections that no simple command carries (`> f` alone, a compound's with an empty body). */
  readonly writes: { redirect: Redirect; span: TextSpan }[];
  readonly unknowns: Unknown[];
}

export interface ExtractOptions {
  /** Wrappers added to (or replacing entries of) the built-in table. */
  readonly wrappers?: Readonly<Record<string, WrapperSpec>>;
  /** Variables the policy calls harmless to assign, besides the built-in ones (wrappers.ts `HARMLESS_VARIABLES`). */
  readonly environment?: readonly string[];
  /**
   * The shells that may run the text (`bash`, `zsh`, `sh`, or `any`; absent: any): a construct
   * only an excluded shell reads differently is read (README "Readings that differ").
   */
  readonly shells?: readonly string[];
}

/** Bounds (README "Bounds"). Over any of them the text is unknown. */
export const LIMITS = {
  /** Characters of command text (just-bash's own bound is 1,000,000). */
  maxChars: 1_000_000,
  /** Scripts parsed again inside one another (`bash -c "bash -c '…'"`). */
  maxReparseDepth: 16,
  /** AST nodes and words visited over the whole text, nested scripts included. */
  maxSteps: 2_000_000,
  /** Commands reported. */
  maxCommands: 100_000,
  /**
   * Characters the parser reads over the whole text, nested scripts included (`parseReads`): just-bash
   * reads a substitution's text again for each level of substitution around it, so 1 MB of nested
   * `$(` took it 40 s before it refused the nesting, and 199 levels of `$(` around 1 MB longer.
   */
  maxParseReads: 3_000_000,
} as const;

/* ----------------------------------------------------------------------------------------- */
/* The AST, as just-bash 3.4.2 builds it (only what the walk reads).                          */

type Node = { type: string; [key: string]: unknown };
interface WordNode extends Node {
  parts: Node[];
}
interface StatementNode extends Node {
  pipelines: { commands: Node[] }[];
  deferredError?: { message: string; token: string };
  sourceText?: string;
  line?: number;
}

/* ----------------------------------------------------------------------------------------- */

interface Ctx {
  /** Wrappers around everything in this context. */
  readonly wrappers: readonly Argv[];
  /** Redirections of the compound commands around this context. */
  readonly redirects: readonly Redirect[];
  /** The span things in this context take when no finer one is known. */
  readonly span: TextSpan;
  /** Scripts parsed again to reach this context. */
  readonly depth: number;
  /** Whether statements here are verbatim pieces of the text, to be found in it (else: `span`). */
  readonly locate: boolean;
  /** The shells that run the text here, when not the policy's (`zsh -c '…'` runs its script in zsh). */
  readonly shells?: ReadonlySet<ShellName>;
  /**
   * Inside a `$( )`, `<( )` or `>( )` whose body is more than one simple command. bash 5.2 runs such a
   * body from its own printing of it, and the printing drops a `;` after a heredoc's list
   * (`$(cat <<E⏎b⏎E⏎a 1; b 2)` runs `a 1 b 2`): a heredoc there is unknown.
   */
  readonly listInSubstitution?: boolean;
}

type Work =
  | { kind: 'script'; text: string; ctx: Ctx }
  | { kind: 'statements'; list: StatementNode[]; ctx: Ctx }
  | { kind: 'command'; node: Node; ctx: Ctx }
  | { kind: 'argv'; words: (string | null)[]; ctx: Ctx; redirects: Redirect[]; stdin?: string | null | undefined; declared?: true }
  /** After a shell's script is walked: when it reported no command (`bash -c ''`, `watch x=1`), the shell itself is the command. */
  | { kind: 'ran'; count: number; argv: Argv; ctx: Ctx };

/** Builtins that assign variables named in their arguments. */
const ASSIGNING = new Set(['printf', 'read', 'mapfile', 'readarray', 'getopts']);
/**
 * zsh's reserved words and precommand modifiers that run the command after them, which bash and
 * sh take for a program's name (`repeat 1 rm x`, `noglob rm x`), and its builtins that run one.
 */
const ZSH_KEYWORDS = new Set(['repeat', 'foreach', 'nocorrect', 'noglob', '-', 'sched', 'zpty', 'emulate', 'zmodload', 'autoload']);
/** Shell-internal tables of what a name runs, as arrays (bash and zsh). */
const SHELL_TABLES = new Set(['BASH_CMDS', 'BASH_ALIASES', 'commands', 'functions', 'functions_source', 'aliases', 'galiases', 'saliases', 'builtins', 'dis_functions', 'dis_aliases', 'dis_galiases', 'dis_saliases', 'dis_builtins', 'reswords', 'dis_reswords', 'options', 'parameters', 'nameddirs', 'userdirs', 'modules']);
const ZSH_PRECOMMANDS = new Set(['nocorrect', 'noglob', '-']);
/** zsh's declaration builtins beside bash's `DECLARATIONS`. */
const ZSH_DECLARATIONS = new Set(['float', 'integer']);

function subscriptReason(name: string): string {
  return `the variable name \`${oneLine(name)}\` holds a subscript, which the shell evaluates (\`a[$(cmd)]\` runs \`cmd\`; zsh's \`functions[ls]\` defines a command)`;
}

/** Parameter expansions read alike by the shells that run no code and assign nothing (README "Readings that differ"). */
const PLAIN_EXPANSIONS = new Set(['DefaultValue', 'ErrorIfUnset', 'UseAlternative', 'Length', 'Substring', 'PatternRemoval', 'PatternReplacement', 'CaseModification']);
const WRITE_OPERATORS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
const NOT_FILES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);

/** Parses `text` into every simple command that would execute. Never throws. */
export function extract(text: string, options: ExtractOptions = {}): Extraction {
  const out: Extraction = { commands: [], writes: [], unknowns: [] };
  const whole: TextSpan = { start: 0, end: text.length, line: 1 };
  try {
    new Walker(text, out, wrapperTable(options.wrappers), new Set(options.environment ?? []), shellSet(options.shells)).run({ kind: 'script', text, ctx: { wrappers: [], redirects: [], span: whole, depth: 0, locate: true } });
  } catch (e) {
    // Not expected (every parser call is guarded): still never an allow.
    out.unknowns.push({ reason: `the command could not be analysed (${e instanceof Error ? e.name : 'error'})`, span: whole });
  }
  return out;
}

/** just-bash 3.4.2's nesting bound: it refuses a text nested deeper, substitutions included. */
const PARSER_NESTING = 200;

/**
 * An upper bound of the characters just-bash 3.4.2's `parse()` reads for `text`: the text once, and
 * the text of each `$(…)` and `` `…` `` again for each level of substitution around it (it parses a
 * substitution's text on its own, inside the parse of the text around it). A character is inside at
 * most `PARSER_NESTING` levels, and inside no more than the substitutions that start before it: so
 * the text after each of the first `PARSER_NESTING` substitution starts (`$(`, a backquote) counts
 * once more. Stops counting past `LIMITS.maxParseReads`.
 */
function parseReads(text: string): number {
  const n = text.length;
  let reads = n;
  let starts = 0;
  for (let i = 0; i < n && starts < PARSER_NESTING && reads <= LIMITS.maxParseReads; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x60 /* ` */ || (c === 0x24 /* $ */ && text.charCodeAt(i + 1) === 0x28 /* ( */)) {
      reads += n - i;
      starts++;
    }
  }
  return reads;
}

class Walker {
  private steps = 0;
  /** Characters handed to the parser so far (`parseReads` of each script parsed). */
  private reads = 0;
  private readonly stack: Work[] = [];
  private nl: number[] | undefined;
  /** Words whose literal parts may hold blanks and newlines (heredoc bodies). */
  private readonly plain = new WeakSet<object>();

  constructor(
    private readonly text: string,
    private readonly out: Extraction,
    private readonly wrappers: Readonly<Record<string, WrapperSpec>>,
    private readonly environment: ReadonlySet<string>,
    private readonly shells: ReadonlySet<ShellName>,
  ) {}

  /** An assignment not known to be harmless (wrappers.ts `harmlessVariable`) makes the command unknown. */
  private assigns(name: string, exported: boolean, how: string, span: TextSpan): void {
    if (!harmlessVariable(name, exported, this.environment)) {
      this.unknown(`${how} \`${name}\`, which is not known to be harmless (it can change what a command runs); a policy names harmless variables in \`environment\``, span);
    }
  }

  run(first: Work): void {
    this.stack.push(first);
    while (this.stack.length > 0) {
      const w = this.stack.pop()!;
      if (++this.steps > LIMITS.maxSteps) {
        this.unknown(`the command is too large to analyse (more than ${LIMITS.maxSteps} steps)`, w.ctx.span);
        return;
      }
      if (w.kind === 'script') this.script(w.text, w.ctx);
      else if (w.kind === 'statements') this.statements(w.list, w.ctx);
      else if (w.kind === 'command') this.command(w.node, w.ctx);
      else if (w.kind === 'ran') {
        if (this.out.commands.length === w.count) this.emit(w.argv, w.ctx, []);
      } else this.argv(w.words, w.ctx, w.redirects, w.stdin, w.declared === true);
    }
  }

  /** The shells that may run the text of this context: the named shell's for a script it runs, else the policy's. */
  private shellsAt(ctx: Ctx): ReadonlySet<ShellName> {
    return ctx.shells ?? this.shells;
  }

  private unknown(reason: string, span: TextSpan): void {
    this.out.unknowns.push({ reason, span });
  }

  /** Pushes in reverse so that the stack pops them in text order. */
  private pushAll(items: Work[]): void {
    for (let i = items.length - 1; i >= 0; i--) this.stack.push(items[i]!);
  }

  private script(text: string, ctx: Ctx): void {
    if (ctx.depth > LIMITS.maxReparseDepth) {
      this.unknown(`scripts nested more than ${LIMITS.maxReparseDepth} deep (\`bash -c\`, \`eval\`) are not analysed`, ctx.span);
      return;
    }
    if (text.length > LIMITS.maxChars) {
      this.unknown(`the command is longer than ${LIMITS.maxChars} characters`, ctx.span);
      return;
    }
    // just-bash 3.4.2's arithmetic reader runs past the end of its text on a `${` that never closes
    // (`echo $((${`), and its caller then allocates until the process runs out of memory: such a
    // text is never handed to the parser.
    if (text.includes('((') || text.includes('$[')) {
      this.unknown('arithmetic (`$((…))`, `((…))`, `$[…]`) is not analysed: the parser can run past its end and never stop', ctx.span);
      return;
    }
    if (unclosedBrace(text)) {
      this.unknown('a `${` that is never closed is not parsed (it stalls the parser)', ctx.span);
      return;
    }
    // Readings that differ (README): unknown, but still parsed, so that a denied command in the text is found.
    for (const reason of screenText(text, this.shellsAt(ctx))) this.unknown(reason, ctx.span);
    this.reads += parseReads(text);
    if (this.reads > LIMITS.maxParseReads) {
      this.unknown(`the command is too large to analyse (its scripts and substitutions are more than ${LIMITS.maxParseReads} characters to parse)`, ctx.span);
      return;
    }
    let ast: { statements: StatementNode[] };
    try {
      ast = parse(text) as unknown as { statements: StatementNode[] };
    } catch (e) {
      this.unknown(parseFailure(e), ctx.span);
      return;
    }
    // A script parsed again is read by its own parse, not from an enclosing substitution's printing.
    if (ctx.listInSubstitution === true) ctx = { ...ctx, listInSubstitution: false };
    if (ctx.depth > 0 && ctx.locate) {
      // A script parsed again: its statements can be found in the text only if it is written there verbatim.
      const at = this.find(text, ctx.span.start, ctx.span.end);
      ctx = at >= 0 ? { ...ctx, span: this.spanAt(at, text.length) } : { ...ctx, locate: false };
    }
    this.statements(ast.statements, ctx);
  }

  /** `src` in the text between `from` and `to`, or -1; costs at most `to - from` (V8 slices without copying). */
  private find(src: string, from: number, to: number): number {
    if (src.length === 0 || to - from < src.length) return -1;
    const at = this.text.slice(from, to).indexOf(src);
    return at < 0 ? -1 : from + at;
  }

  private spanAt(start: number, length: number): TextSpan {
    return { start, end: start + length, line: lineOf((this.nl ??= newlines(this.text)), start) };
  }

  /** Spans: each statement's source text found in order inside the enclosing span. */
  private statements(list: StatementNode[], ctx: Ctx): void {
    let cursor = ctx.span.start;
    let misses = 0;
    const items: Work[] = [];
    for (const st of list) {
      let span = ctx.span;
      const src = st.sourceText;
      // Eight statements in a row not found: the rest are not verbatim either (each search costs the span).
      if (ctx.locate && misses < 8 && typeof src === 'string' && src.length > 0) {
        const at = this.find(src, cursor, ctx.span.end);
        if (at >= 0) {
          span = this.spanAt(at, src.length);
          cursor = at + src.length;
          misses = 0;
        } else misses++;
      }
      if (st.deferredError) {
        this.unknown(`syntax error: ${st.deferredError.message}`, span);
        continue;
      }
      const inner: Ctx = { ...ctx, span };
      for (const p of st.pipelines ?? []) {
        if ((p as { timed?: boolean }).timed === true && timeDiffers(p as unknown as Node)) {
          this.unknown("`time` followed by an option, `!` or an assignment is read differently by bash (a keyword), zsh (the option is a command) and sh (dash runs the time program, whose `-o FILE` writes a file)", span);
        }
        for (const c of p.commands ?? []) items.push({ kind: 'command', node: c, ctx: inner });
      }
    }
    this.pushAll(items);
  }

  private command(node: Node, ctx: Ctx): void {
    switch (node.type) {
      case 'SimpleCommand':
        this.simple(node, ctx);
        return;
      case 'FunctionDef': {
        // The body runs when the function is called: its commands are judged as if they ran here.
        const redirects = this.redirections(node.redirections as Node[] | undefined, ctx);
        this.stack.push({ kind: 'command', node: node.body as Node, ctx: { ...ctx, redirects: [...ctx.redirects, ...redirects] } });
        return;
      }
      default: {
        const redirects = this.redirections(node.redirections as Node[] | undefined, ctx);
        const inner: Ctx = redirects.length > 0 ? { ...ctx, redirects: [...ctx.redirects, ...redirects] } : ctx;
        for (const r of redirects) this.out.writes.push({ redirect: r, span: ctx.span });
        this.compound(node, inner);
      }
    }
  }

  /** Compound commands: every statement list, and every word or expression that can hold a substitution. */
  private compound(node: Node, ctx: Ctx): void {
    const mark = this.stack.length;
    const items: Work[] = [];
    const lists: StatementNode[][] = [];
    switch (node.type) {
      case 'If':
        for (const c of node.clauses as { condition: StatementNode[]; body: StatementNode[] }[]) lists.push(c.condition, c.body);
        if (node.elseBody) lists.push(node.elseBody as StatementNode[]);
        break;
      case 'For':
        this.words((node.words as WordNode[] | null) ?? [], ctx);
        lists.push(node.body as StatementNode[]);
        break;
      case 'CStyleFor':
        this.expressions([node.init, node.condition, node.update], ctx);
        lists.push(node.body as StatementNode[]);
        break;
      case 'While':
      case 'Until':
        lists.push(node.condition as StatementNode[], node.body as StatementNode[]);
        break;
      case 'Case':
        this.words([node.word as WordNode], ctx);
        for (const item of node.items as { patterns: WordNode[]; body: StatementNode[] }[]) {
          this.words(item.patterns, ctx);
          lists.push(item.body);
        }
        break;
      case 'Subshell':
      case 'Group':
        lists.push(node.body as StatementNode[]);
        break;
      case 'ArithmeticCommand':
        this.expressions([node.expression], ctx);
        break;
      case 'ConditionalCommand':
        this.expressions([node.expression], ctx);
        break;
      default:
        this.unknown(`the shell construct \`${String(node.type)}\` is not modelled`, ctx.span);
        return;
    }
    for (const l of lists) items.push({ kind: 'statements', list: l, ctx });
    // Under the words' substitutions (pushed above), which come first in the text.
    this.stack.splice(mark, 0, ...items.reverse());
  }

  /** A simple command: its words' substitutions, its assignments, then its argv. */
  private simple(node: Node, ctx: Ctx): void {
    const mark = this.stack.length;
    const name = node.name as WordNode | null;
    const args = (node.args as WordNode[]) ?? [];
    const assignments = (node.assignments as { name: string; value: WordNode | null; array: WordNode[] | null }[]) ?? [];
    const redirects = this.redirections(node.redirections as Node[] | undefined, ctx);
    for (const a of assignments) {
      if (a.name.includes('[')) this.unknown(subscriptReason(a.name), ctx.span);
      if (a.array !== null && a.array !== undefined) this.arrayValue(a.name, a.array, ctx);
      // Before a command, the assignment is in that command's environment; alone, it sets a shell variable.
      this.assigns(a.name, name !== null, name !== null ? 'the command is run with' : 'the text assigns', ctx.span);
      this.words([...(a.value ? [a.value] : []), ...(a.array ?? [])], ctx);
    }
    if (name === null) {
      if (assignments.length === 0 && redirects.length === 0 && ((node.redirections as Node[] | undefined) ?? []).length === 0) {
        this.unknown('an empty command (two operators in a row, or an operator at the end)', ctx.span);
      } else if (assignments.length === 0) {
        // zsh runs `$NULLCMD` (cat) for a redirection with no command (`> f`), `$READNULLCMD` (a pager) for `< f`.
        this.unknown('a redirection with no command runs `cat` or a pager in zsh (`$NULLCMD`, `$READNULLCMD`); write `: > f`', ctx.span);
      }
      for (const r of redirects) this.out.writes.push({ redirect: r, span: ctx.span });
      return;
    }
    const words = [name, ...args];
    const head = name.parts[0];
    if (head?.type === 'Literal' && String(head.value).startsWith('{') && String(head.value) !== '{') {
      // `{ls}` and `{ls x}` are brace groups to zsh, which runs `ls`; bash and sh run a program named `{ls}`.
      this.unknown(`a command word starting with \`{\` (\`${oneLine(String(head.value))}\`) is a brace group to zsh, which runs what follows it`, ctx.span);
    }
    if (staticWord(name) === 'time' && args.length === 0 && ((node.redirections as Node[] | undefined) ?? []).length > 0) {
      // `ls | time > o`: zsh's keyword `time` with no command leaves a redirection alone, which runs `$NULLCMD` (cat).
      this.unknown('`time` with only a redirection after it is the keyword to zsh, which runs `cat` (`$NULLCMD`) on the redirection', ctx.span);
    }
    if (programKey(staticWord(name) ?? '') === 'printf' && args.length > 0 && staticWord(args[0]) === null) {
      this.unknown('`printf` whose first word is not static may be `-v NAME`, whose subscript bash evaluates', ctx.span);
    }
    this.declaration(words, ctx);
    this.words(words, ctx);
    // The argv under its substitutions (and its assignments' and redirections'): they run first, and are reported first.
    this.stack.splice(mark, 0, { kind: 'argv', words: words.map((w) => staticWord(w)), ctx, redirects, stdin: hereText(node.redirections as Node[] | undefined), declared: true });
  }

  /**
   * A compound array value `name=(…)`: a keyed element `[k]=v` has a subscript the shell evaluates
   * (`BASH_CMDS=([ls]=/bin/sh)` also says which program `ls` runs), and zsh's tables of commands,
   * functions and aliases are arrays whose elements define what a name runs.
   */
  private arrayValue(name: string, elements: WordNode[], ctx: Ctx): void {
    if (SHELL_TABLES.has(name)) {
      this.unknown(`assigning the array \`${name}\` changes what a command name runs (zsh's \`commands\`, \`functions\`, \`aliases\`; bash's \`BASH_CMDS\`, \`BASH_ALIASES\`)`, ctx.span);
      return;
    }
    for (const e of elements) {
      const p = e.parts[0];
      if (p !== undefined && (p.type === 'Glob' || p.type === 'Literal') && String(p.type === 'Glob' ? p.pattern : p.value).startsWith('[')) {
        this.unknown(subscriptReason(`${name}[…]`), ctx.span);
        return;
      }
    }
  }

  /**
   * `declare`, `typeset`, `local`, `export`, `readonly` (also behind `builtin` and `command`): a
   * name holding `[` (`a[$(cmd)]=1`: bash evaluates the subscript), a name that is not static, and
   * the options that make later values arithmetic or names (`-i`, `-n`) are unknown. Words, not
   * argv, since `export A=$(pwd)` has a static name before its expansion.
   */
  private declaration(words: WordNode[], ctx: Ctx): void {
    let i = 0;
    while (i < words.length && /^(builtin|command)$/.test(programKey(staticWord(words[i]) ?? ''))) {
      i++;
      while (i < words.length && /^-[pvV]+$/.test(staticWord(words[i]) ?? '')) i++;
    }
    const program = i < words.length ? staticWord(words[i]) : null;
    if (program === null || !(DECLARATIONS.has(programKey(program)) || (this.shellsAt(ctx).has('zsh') && ZSH_DECLARATIONS.has(programKey(program))))) return;
    for (const w of words.slice(i + 1)) {
      const v = staticWord(w);
      const head = v ?? (w.parts[0]?.type === 'Literal' ? String(w.parts[0].value) : '');
      if (v !== null && /^[-+]/.test(v)) {
        // `-T` (zsh) ties a scalar to an array: `typeset -T PATH p; p=(/tmp/x)` sets PATH through a harmless-looking name.
        if (/[inT]/.test(v.slice(1))) this.unknown(`\`${program} ${v}\` makes later values arithmetic or names, or ties one variable to another, which is not analysed`, ctx.span);
        continue;
      }
      const name = /^[^=]*/.exec(head)![0];
      if (name.includes('[')) this.unknown(subscriptReason(name), ctx.span);
      else if (!(v !== null ? /^[A-Za-z_][A-Za-z0-9_]*(\+?=|$)/ : /^[A-Za-z_][A-Za-z0-9_]*\+?=/).test(head)) {
        this.unknown(`\`${program}\` with a name that is not static cannot be judged`, ctx.span);
      } else if (v === null) {
        // A static name with an expanded value (`export A=$(pwd)`): the argv sees only `null`, so the assignment is judged here.
        const base = programKey(program);
        const exported = base === 'export' || words.slice(i + 1).some((o) => /^-[a-zA-Z]*x/.test(staticWord(o) ?? ''));
        this.assigns(name.replace(/\+$/, ''), exported, `\`${base}\` assigns`, ctx.span);
      }
    }
  }

  /**
   * Builtins that take a variable's name in an argument (`[ -v NAME ]`, `test -v`, `printf -v`,
   * `read`, `mapfile`, `getopts`, `unset`, `wait -p`): bash evaluates a subscript in the name
   * (`[ -v 'a[$(cmd)]' ]` runs `cmd`), so a name holding `[`, or not static, is unknown.
   */
  private names(base: string, args: readonly (string | null)[], ctx: Ctx): void {
    const bad = (a: string | null | undefined) => a === null || a === undefined || a.includes('[');
    let hit: string | null | undefined;
    let found = false;
    const check = (a: string | null | undefined) => {
      if (!found && bad(a)) {
        found = true;
        hit = a;
      }
    };
    if (base === '[' || base === 'test') {
      args.forEach((a, i) => a === '-v' && check(args[i + 1]));
    } else if (base === 'printf' || base === 'wait') {
      const flag = base === 'printf' ? '-v' : '-p';
      args.forEach((a, i) => {
        if (a === flag) check(args[i + 1]);
        else if (a !== null && a.startsWith(flag) && a.length > 2) check(a.slice(2));
      });
      if (base === 'wait' && args.some((a) => a === null)) check(null);
    } else if (base === 'read' || base === 'mapfile' || base === 'readarray' || base === 'unset') {
      for (const a of args) check(a);
    } else if (base === 'getopts') {
      for (const a of args.slice(1)) check(a);
    } else return;
    if (found) this.unknown(hit === null || hit === undefined ? `\`${base}\` with a variable name that is not static cannot be judged` : subscriptReason(hit), ctx.span);
  }

  /** Judges argv[0]: wrappers, shells, eval, and finally the command itself. */
  /** `stdin`: the text of a heredoc or here-string (`null` when it has expansions), if there is one. */
  /** `declared`: the words are a simple command's, whose declaration words `declaration` has read (a word with an expansion there has a static name). */
  private argv(words: (string | null)[], ctx: Ctx, redirects: Redirect[], stdin?: string | null, declared = false): void {
    const program = words[0];
    if (program === null || program === undefined) {
      this.unknown('a program name that is not static (a variable, substitution, glob or brace expansion) cannot be judged', ctx.span);
      return;
    }
    const base = programKey(program);
    const args = words.slice(1);
    const here: Argv = { program, args };
    const wrapper = Object.prototype.hasOwnProperty.call(this.wrappers, base) ? this.wrappers[base] : undefined;
    const inner: Ctx = { ...ctx, wrappers: [...ctx.wrappers, here] };

    this.names(base, args, ctx);
    if (program === 'time' && args.length > 0 && (args[0] === null || args[0] === '!' || args[0]!.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*(\[|\+?=)/.test(args[0]!))) {
      // Not at a pipeline's start, `time` is a program to bash and sh and still the keyword to zsh (`ls | time -p wc`: zsh runs `-p`);
      // after `!` it is the keyword to bash too, and `NAME=v` after it an assignment (`! time IFS=, ls`).
      this.unknown('`time` followed by an option, `!` or an assignment is read as a program by some shells and as the keyword by others', ctx.span);
    }
    if (this.shellsAt(ctx).has('zsh') && ZSH_KEYWORDS.has(base)) {
      this.unknown(`\`${base}\` is a keyword or precommand of zsh that runs a command (\`repeat 1 rm\`, \`noglob rm\`), not analysed`, ctx.span);
      // zsh's reading too, so that a deny of the command it runs still matches.
      const rest = base === 'repeat' ? args.slice(1) : ZSH_PRECOMMANDS.has(base) ? args : [];
      if (rest.length > 0) this.stack.push({ kind: 'argv', words: rest, ctx: { ...ctx, wrappers: [...ctx.wrappers, { program, args }] }, redirects });
    }
    if (DECLARATIONS.has(base)) {
      // `export`, and `declare -x`/`typeset -x`/`local -x`, put the variable in the environment; `-n` makes a name refer to another variable.
      // Behind a simple command, `declaration` has read the words that are not static: a static name with an expanded value, assigned there.
      const exported = base === 'export' || args.some((a) => (a === null && !declared) || (a !== null && /^-[a-zA-Z]*x/.test(a)));
      if (args.some((a) => (a === null && !declared) || (a !== null && /^-[a-zA-Z]*n/.test(a)))) this.unknown(`\`${base} -n\` makes a name refer to another variable, which is not modelled`, ctx.span);
      for (const a of args) {
        if (a === null && declared) continue;
        if (a === null) {
          this.unknown(`\`${base}\` with an argument that is not static may assign any variable`, ctx.span);
          continue;
        }
        if (a.startsWith('-') || a.startsWith('+')) continue;
        const m = /^([^=+]*)\+?=/.exec(a);
        if (m) this.assigns(m[1]!, exported, `\`${base}\` assigns`, ctx.span);
        else if (exported) this.assigns(a, true, `\`${base}\` exports`, ctx.span);
      }
    }
    if (ASSIGNING.has(base)) {
      // `printf -v NAME`, `read NAME`, `mapfile NAME`: an assignment by another name. printf assigns
      // only its `-v` operand (`printf Hello` prints); the others may take any operand for a name.
      const named = base === 'printf' ? args.flatMap((a, i) => (a === '-v' ? [args[i + 1] ?? null] : a !== null && a.startsWith('-v') ? [a.slice(2)] : [])) : args;
      for (const a of named) {
        const m = a === null ? null : /^(?:-v)?([A-Za-z_][A-Za-z0-9_]*(\[.*)?)$/.exec(a);
        if (m) this.assigns(m[1]!, false, `\`${base}\` assigns`, ctx.span);
      }
      if ((base === 'mapfile' || base === 'readarray') && args.some((a) => a === null || /^-[a-zA-Z]*C/.test(a))) {
        this.unknown(`\`${base} -C\` runs a callback that is not analysed`, ctx.span);
      }
    }
    if ((base === 'set' && args.some((a) => a === null || /^-[a-zA-Z]*[ak]/.test(a) || /^(all_?export|keyword)$/i.test(a))) || (base === 'setopt' && args.some((a) => a === null || /^(no_?)?(all_?export|keyword)$/i.test(a.replace(/_/g, ''))))) {
      this.unknown(`\`${base}\` with \`allexport\` or \`keyword\` puts later assignments in the environment, which is not modelled`, ctx.span);
    }
    if (base === 'parallel') {
      this.unknown('`parallel` builds the commands it runs from its input at run time', ctx.span);
    }
    if ((base === 'hash' && args.some((a) => a === null || /^-[a-z]*p/.test(a))) || base === 'enable') {
      this.unknown(`\`${base}\` can change which program a name runs`, ctx.span);
    }
    if (base === 'let') {
      this.unknown('`let` evaluates arithmetic, where a variable can hold a command substitution', ctx.span);
    }

    if (wrapper) {
      const r = unwrap(wrapper, args, this.environment);
      if (r.kind === 'unknown') {
        this.unknown(`\`${base}\` ${r.reason}`, ctx.span);
        return;
      }
      if (r.kind === 'command') {
        if (wrapper.script) {
          const parts = r.words;
          if (parts.some((p) => p === null)) {
            this.unknown(`the script run by \`${base}\` is not static`, ctx.span);
            return;
          }
          // The wrapper's own redirections (`watch ls > out` writes `out`).
          for (const red of redirects) this.out.writes.push({ redirect: red, span: ctx.span });
          this.stack.push({ kind: 'ran', count: this.out.commands.length, argv: here, ctx });
          // watch runs its command with `sh -c`.
          this.stack.push({ kind: 'script', text: parts.join(' '), ctx: { ...inner, depth: ctx.depth + 1, shells: SH_ONLY } });
          return;
        }
        const words = base === 'xargs' ? xargsWords(args, r.words) : r.words;
        this.stack.push({ kind: 'argv', words, ctx: inner, redirects, ...(stdin !== undefined && base !== 'xargs' ? { stdin } : {}) });
        return;
      }
      // No command: the wrapper alone (`env`, `command -v git`, `timeout --help`) is the command.
      if (base === 'xargs') {
        // xargs with no command runs `echo` with the words it reads.
        this.stack.push({ kind: 'argv', words: ['echo', null], ctx: inner, redirects });
        return;
      }
      this.emit(here, ctx, redirects);
      return;
    }

    if (SHELLS.has(base)) {
      const r = shellScript(args);
      if (r.kind === 'unknown') {
        this.unknown(`\`${base}\` ${r.reason}`, ctx.span);
        return;
      }
      if (r.kind === 'script' || (r.kind === 'stdin' && typeof stdin === 'string')) {
        const text = r.kind === 'script' ? r.script : (stdin as string);
        // A script that runs no command still starts the shell: it is the command then (a deny of the shell matches).
        this.stack.push({ kind: 'ran', count: this.out.commands.length, argv: here, ctx });
        // The script is read as the shell named reads it, whatever the policy's list.
        this.stack.push({ kind: 'script', text, ctx: { ...inner, depth: ctx.depth + 1, shells: shellOfProgram(base) } });
        for (const red of redirects) this.out.writes.push({ redirect: red, span: ctx.span });
        return;
      }
      if (r.kind === 'stdin') {
        this.unknown(`\`${base}\` runs a script from its standard input, which is not analysed`, ctx.span);
        return;
      }
      this.emit(here, ctx, redirects);
      return;
    }

    if (base === 'eval') {
      if (args[0] === '--') {
        this.unknown('`eval --` ends the options in bash and zsh, and runs `--` in sh (dash)', ctx.span);
        return;
      }
      if (args.some((a) => a === null)) {
        this.unknown('`eval` of a string that is not static cannot be judged', ctx.span);
        return;
      }
      // `ionice -c 3 eval` runs a program named `eval`; a static eval that runs no command is itself the command.
      this.stack.push({ kind: 'ran', count: this.out.commands.length, argv: here, ctx });
      this.stack.push({ kind: 'script', text: (args as string[]).join(' '), ctx: { ...inner, depth: ctx.depth + 1 } });
      for (const red of redirects) this.out.writes.push({ redirect: red, span: ctx.span });
      return;
    }

    if (base === 'alias' || base === 'trap') {
      // The text an alias stands for, and a trap's action, run as scripts later.
      const scripts: string[] = [];
      if (base === 'alias') {
        for (const a of args) {
          if (a === null) return this.unknown('`alias` with a value that is not static cannot be judged', ctx.span);
          const eq = a.indexOf('=');
          if (eq > 0) scripts.push(a.slice(eq + 1));
        }
      } else {
        const first = args.findIndex((a) => a !== '--');
        const action = first >= 0 ? args[first] : undefined;
        if (action === null) return this.unknown('`trap` with an action that is not static cannot be judged', ctx.span);
        if (action !== undefined && !action.startsWith('-') && args.length > first + 1) scripts.push(action);
      }
      this.emit(here, ctx, redirects);
      this.pushAll(scripts.map((text): Work => ({ kind: 'script', text, ctx: { ...inner, depth: ctx.depth + 1 } })));
      return;
    }

    if (base === 'find' || base === 'fd' || base === 'fdfind') {
      const r = base === 'find' ? findCommands(args) : fdCommands(args);
      this.emit(here, ctx, redirects);
      if (r.unknown) this.unknown(`\`${base}\` ${r.unknown}`, ctx.span);
      this.pushAll(r.commands.map((words): Work => ({ kind: 'argv', words, ctx: inner, redirects: [] })));
      return;
    }

    this.emit(here, ctx, redirects);
  }

  private emit(argv: Argv, ctx: Ctx, redirects: Redirect[]): void {
    if (this.out.commands.length >= LIMITS.maxCommands) {
      if (this.out.commands.length === LIMITS.maxCommands) this.unknown(`more than ${LIMITS.maxCommands} commands are not analysed`, ctx.span);
      return;
    }
    this.out.commands.push({ program: argv.program, args: argv.args, wrappers: ctx.wrappers, redirects: [...ctx.redirects, ...redirects], span: ctx.span });
  }

  /** The write redirections of a command; substitutions in every target are walked. */
  private redirections(list: Node[] | undefined, ctx: Ctx): Redirect[] {
    const writes: Redirect[] = [];
    for (const r of list ?? []) {
      const target = r.target as Node;
      const op = String(r.operator);
      if (r.fdVariable !== undefined) this.unknown(`the redirection \`{${String(r.fdVariable)}}${op}\` is not modelled`, ctx.span);
      if (target.type === 'HereDoc') {
        if (ctx.listInSubstitution === true) {
          this.unknown("a heredoc inside a `$( )` or `<( )` that runs more than one command is not analysed: bash 5.2 runs the substitution from its own printing of it, which drops a `;` after the heredoc's list (`$(cat <<E⏎x⏎E⏎a 1; b 2)` runs `a 1 b 2`)", ctx.span);
        }
        if (target.terminated === false) this.unknown('a heredoc that is never closed is not analysed (the shell may end it elsewhere)', ctx.span);
        if (!/^[A-Za-z0-9_.-]+$/.test(String(target.delimiter))) {
          // `<<$'E'` (bash: `E`; the parser: `$E`), `<<"$x"`, `<<\\E`: only a plain delimiter is read alike.
          this.unknown(`a heredoc delimiter other than letters, digits and \`_.-\` (\`${oneLine(String(target.delimiter))}\`) is not analysed`, ctx.span);
        }
        this.plain.add(target.content as WordNode);
        const parts = (target.content as WordNode).parts;
        if (target.quoted !== true && parts.some((p, i) => p.type === 'Literal' && String(p.value).endsWith('$') && parts[i + 1]?.type === 'Literal' && /^[({[A-Za-z0-9_@*#?$!-]/.test(String(parts[i + 1]!.value)))) {
          // just-bash keeps `$` and what follows a backslash-newline apart (`$\⏎(cmd)`); bash joins them and expands.
          this.unknown('a line continuation after `$` in an unquoted heredoc is not modelled', ctx.span);
        }
        this.words([target.content as WordNode], ctx);
        continue;
      }
      this.words([target as WordNode], ctx);
      const value = staticWord(target as WordNode);
      const first = (target as WordNode).parts?.[0];
      if (this.shellsAt(ctx).has('zsh') && (op.startsWith('>') || op.startsWith('&>')) && first?.type === 'Literal' && String(first.value).startsWith('!')) {
        // zsh: `>! f`, `>&! f`, `>>! f`, `&>! f` write `f` (clobbering); bash and sh write a file named `!` or `!f`.
        this.unknown(`\`${op}!\` is zsh's clobbering redirection (it writes the next word), and a file named \`!…\` to bash and sh`, ctx.span);
      }
      if (WRITE_OPERATORS.has(op) || (op === '>&' && (value === null || !/^(\d+|-)$/.test(value)))) {
        if (value !== null && NOT_FILES.has(value)) continue;
        if (value !== null && /^\/dev\/fd\/\d+$/.test(value)) continue;
        writes.push({ operator: op, target: value });
      }
    }
    return writes;
  }

  /**
   * Every command and process substitution in `words` (scripts pushed), every `$((`…`))`
   * substitution string (parsed again), and the arithmetic refusals. Iterative over the parts.
   */
  private words(words: WordNode[], ctx: Ctx): void {
    const items: Work[] = [];
    for (const w of words) if (!this.plain.has(w)) this.reading(w, ctx);
    const todo: unknown[] = [...words].reverse();
    while (todo.length > 0) {
      const n = todo.pop();
      if (++this.steps > LIMITS.maxSteps) return;
      if (n === null || typeof n !== 'object') continue;
      if (Array.isArray(n)) {
        for (let i = n.length - 1; i >= 0; i--) todo.push(n[i]);
        continue;
      }
      const node = n as Node;
      if (typeof node.value === 'string' && node.value.includes('\0')) {
        this.unknown('a NUL character (`\\0`, `\\x00`, `\\c@`), which ends the string for the shell, is not analysed', ctx.span);
      }
      switch (node.type) {
        case 'CommandSubstitution':
        case 'ProcessSubstitution': {
          const list = (node.body as { statements: StatementNode[] }).statements;
          items.push({ kind: 'statements', list, ctx: { ...ctx, listInSubstitution: !oneSimpleCommand(list) } });
          continue;
        }
        case 'ArithCommandSubst':
          items.push({ kind: 'script', text: String(node.command), ctx: { ...ctx, depth: ctx.depth + 1 } });
          continue;
        case 'ArithmeticExpression':
          this.expressions([node], ctx);
          continue;
        case 'ParameterExpansion': {
          const p = String(node.parameter);
          const op = (node.operation as Node | null | undefined)?.type;
          if (op !== undefined && !PLAIN_EXPANSIONS.has(op)) {
            // `${x@P}` runs code, `${!x}` reads a name from a value (a subscript in it is evaluated), `${x:=v}` assigns.
            this.unknown(`the parameter expansion of \`${p}\` (${op}) is not analysed: it can assign, read a name from a value or run code`, ctx.span);
          }
          const sub = /\[(.*)\]$/.exec(p);
          if (sub && !/^(\d+|@|\*)$/.test(sub[1]!)) {
            this.unknown(`the array subscript in \`\${${p}}\` is evaluated as arithmetic, where a variable can hold a command substitution`, ctx.span);
          }
          break;
        }
      }
      const children = Object.values(node);
      for (let i = children.length - 1; i >= 0; i--) if (children[i] !== null && typeof children[i] === 'object') todo.push(children[i]);
    }
    this.pushAll(items);
  }

  /**
   * A word of a command, assignment, redirection, `for`, `case` or `[[ ]]` as the parser split it:
   * an unquoted blank, newline or `;&|<>()` in a literal part cannot come from bash, which ends
   * the word there (`ls x[ ; touch m`: the parser read `[ ; touch m` as a glob), so the parser
   * may have swallowed commands; a word starting with `=` is a command's path to zsh (`=rm`).
   */
  private reading(word: WordNode, ctx: Ctx): void {
    const parts = word.parts ?? [];
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (p.type !== 'Literal' && p.type !== 'Glob') continue;
      const v = String(p.type === 'Literal' ? p.value : p.pattern);
      if (/[ \t\n;&|<>()]/.test(v)) {
        this.unknown(`the parser read \`${oneLine(v)}\` as part of one word, where the shell would end the word (it may hold further commands)`, ctx.span);
        return;
      }
      if (this.shellsAt(ctx).has('zsh') && i === parts.length - 1 && p.type === 'Literal' && v.endsWith('}') && !v.endsWith('{}')) {
        // zsh closes a brace group at a word ending in `}` (`{ grep \{a,b}⏎make; }` runs `grep {a,b`).
        this.unknown(`a word ending in \`}\` (\`${oneLine(v)}\`) closes a brace group in zsh`, ctx.span);
        return;
      }
      if (this.shellsAt(ctx).has('zsh') && i === 0 && v.startsWith('=') && !(v === '=' && parts.length === 1)) {
        this.unknown(`a word starting with \`=\` (\`${oneLine(v)}\`) is a program's path to zsh (\`=rm\` runs rm), not analysed`, ctx.span);
        return;
      }
    }
  }

  /** Arithmetic and `[[ ]]` expressions: substitutions in them, and variables (arithmetic injection). */
  private expressions(exprs: unknown[], ctx: Ctx): void {
    const todo: unknown[] = [...exprs];
    const words: WordNode[] = [];
    let refused = false;
    let sh = false;
    while (todo.length > 0) {
      const n = todo.pop();
      if (++this.steps > LIMITS.maxSteps) return;
      if (n === null || typeof n !== 'object') continue;
      if (Array.isArray(n)) {
        for (const x of n) todo.push(x);
        continue;
      }
      const node = n as Node;
      if (node.type === 'Word') {
        words.push(node as WordNode);
        continue;
      }
      if (node.type === 'ArithCommandSubst') {
        this.stack.push({ kind: 'script', text: String(node.command), ctx: { ...ctx, depth: ctx.depth + 1 } });
        continue;
      }
      if (!refused && /^Arith(Variable|ArrayElement|Dynamic|DoubleSubscript|BracedExpansion|Assignment)/.test(node.type)) {
        refused = true;
        this.unknown('arithmetic over a variable is not analysed: its value can hold a command substitution', ctx.span);
      }
      if (node.type === 'CondUnary' && node.operator === '-v') {
        const v = staticWord(node.operand as WordNode);
        if (v === null || v.includes('[')) this.unknown(v === null ? '`[[ -v … ]]` with a name that is not static cannot be judged' : subscriptReason(v), ctx.span);
      }
      if (!sh && this.shellsAt(ctx).has('sh') && (/^Cond(And|Or|Group)$/.test(node.type) || (node.type === 'CondBinary' && /^[<>]$/.test(String(node.operator))))) {
        // sh (dash) has no `[[`: it runs `[[ a` and `b ]]` around `&&`, and `>` is a write there.
        sh = true;
        this.unknown('`&&`, `||`, `( )`, `<` or `>` inside `[[ ]]` are read by sh (dash) as operators and redirections', ctx.span);
      }
      if (!refused && node.type === 'CondBinary' && /^-(eq|ne|lt|le|gt|ge)$/.test(String(node.operator))) {
        for (const side of [node.left, node.right] as WordNode[]) {
          const v = staticWord(side);
          if (!refused && (v === null || !/^\s*-?\d+\s*$/.test(v))) {
            refused = true;
            this.unknown(`\`[[ … ${String(node.operator)} … ]]\` evaluates its operands as arithmetic, where a variable can hold a command substitution`, ctx.span);
          }
        }
      }
      for (const key in node) {
        const v = node[key];
        if (v !== null && typeof v === 'object') todo.push(v);
      }
    }
    this.words(words, ctx);
  }
}

/* ----------------------------------------------------------------------------------------- */

/** A word's value after quote removal, or `null` when it has any expansion. */
export function staticWord(word: WordNode | null | undefined): string | null {
  if (!word) return null;
  // A `[` with no `]` after it in the word matches itself (`[ -f x ]`, `a[1`): just-bash still calls it a glob.
  const lone = word.parts.findIndex((p) => p.type === 'Glob' && p.pattern === '[');
  if (lone >= 0 && !word.parts.slice(lone + 1).some((p) => JSON.stringify(p).includes(']'))) {
    word = { ...word, parts: word.parts.map((p, i) => (i === lone ? { type: 'Literal', value: '[' } : p)) };
  }
  // `~+`, `~-`, `~+1`, `~2` (the directory stack to bash and zsh; the parser keeps them as text).
  const first = word.parts[0];
  if (first?.type === 'Literal' && /^~[-+0-9]/.test(String(first.value))) return null;
  let out = '';
  const todo: Node[] = [...word.parts].reverse();
  while (todo.length > 0) {
    const p = todo.pop()!;
    switch (p.type) {
      case 'Literal':
      case 'SingleQuoted':
      case 'Escaped':
        out += String(p.value);
        break;
      case 'DoubleQuoted':
        for (let i = (p.parts as Node[]).length - 1; i >= 0; i--) todo.push((p.parts as Node[])[i]!);
        break;
      case 'TildeExpansion':
        // `~` and `~user` name a directory: the text stands for itself (a path, never a program name on its own).
        // `~+`, `~-`, `~+1` (the directory stack in bash and zsh, a user named `+` to sh) are not that text.
        if (p.user !== null && !/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(String(p.user))) return null;
        out += p.user === null ? '~' : `~${String(p.user)}`;
        break;
      default:
        return null;
    }
  }
  return out;
}

/** Whether a `time` pipeline's reading differs between the shells: `time -p`, `time -o FILE`, `time !`. */
function timeDiffers(p: Node): boolean {
  if (p.timePosix === true || p.negated === true) return true;
  const first = (p.commands as Node[] | undefined)?.[0];
  // `time A=1 ls`: an assignment to bash and zsh, the program `A=1` to sh's time program.
  if (first?.type === 'SimpleCommand' && ((first.assignments as unknown[] | undefined) ?? []).length > 0) return true;
  const name = first?.type === 'SimpleCommand' ? (first.name as WordNode | null) : null;
  const head = name?.parts[0];
  return head?.type === 'Literal' && /^[-!]/.test(String(head.value));
}

/** Whether a substitution's body is one simple command (a pipeline of one, no list, no compound command). */
function oneSimpleCommand(list: StatementNode[]): boolean {
  if (list.length !== 1) return false;
  const pipelines = list[0]!.pipelines ?? [];
  return pipelines.length === 1 && pipelines[0]!.commands.length === 1 && pipelines[0]!.commands[0]!.type === 'SimpleCommand';
}

/** The text a command reads from a heredoc or here-string: `undefined` if none, `null` if it has expansions. */
function hereText(list: Node[] | undefined): string | null | undefined {
  let text: string | null | undefined;
  for (const r of list ?? []) {
    const op = String(r.operator);
    const target = r.target as Node;
    if (op === '<<<') text = staticWord(target as WordNode) === null ? null : `${staticWord(target as WordNode)}\n`;
    else if (target.type === 'HereDoc') text = staticWord(target.content as WordNode);
    else if (op === '<' || op === '<&' || op === '<>') text = null;
  }
  return text;
}

export function basename(program: string): string {
  const i = program.lastIndexOf('/');
  return i >= 0 ? program.slice(i + 1) : program;
}

/**
 * The name a program is known by to the wrapper table and to deny and ask rules: its base name in
 * lower case (on a case-insensitive file system, macOS's, `/BIN/RM` and `TIMEOUT` run rm and timeout).
 */
export function programKey(program: string): string {
  return basename(program).toLowerCase();
}

/** Offsets of the newlines of `text`, for `line` lookups by binary search. */
function newlines(text: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) out.push(i);
  return out;
}

/** The 1-based line of `offset`: one plus the newlines before it. */
function lineOf(nl: readonly number[], offset: number): number {
  let lo = 0;
  let hi = nl.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (nl[mid]! < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo + 1;
}

/**
 * Whether some `${` in `text` is never closed, counting braces as just-bash's arithmetic reader
 * does (every `{` opens, every `}` closes, quotes and escapes not considered): a superset of the
 * texts on which that reader runs past its end. One pass: the depth at the end tells the first
 * unclosed `${` apart from a closed one.
 */
export function unclosedBrace(text: string): boolean {
  let depth = 0;
  // The smallest depth seen after each `${` opened: it is closed once the depth falls below it.
  const open: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */) {
      depth++;
      if (i > 0 && text.charCodeAt(i - 1) === 0x24 /* $ */) open.push(depth);
    } else if (c === 0x7d /* } */) {
      while (open.length > 0 && open[open.length - 1]! >= depth) open.pop();
      depth--;
    }
  }
  return open.length > 0;
}

function parseFailure(e: unknown): string {
  if (e instanceof RangeError) return 'the command is nested too deeply to parse';
  const message = e instanceof Error ? e.message : String(e);
  if (/coproc/.test(message)) return '`coproc` is not modelled';
  if (/select/.test(message)) return '`select` is not modelled';
  if (/too large|Too many tokens|nesting depth/i.test(message)) return `the command is over the parser's bounds (${oneLine(message)})`;
  return `syntax error: ${oneLine(message)}`;
}

function oneLine(s: string): string {
  const t = s.replace(/^Parse error at \d+:\d+: /, '').replace(/\s+/g, ' ').trim();
  return t.length > 200 ? `${t.slice(0, 200)}…` : t;
}

/** `env` takes every word with a `=` before its command as an assignment (`BASH_FUNC_ls%%=…` too). */
function isEnvAssignment(word: string): boolean {
  return word.includes('=') && !word.startsWith('-');
}

const SH_ONLY: ReadonlySet<ShellName> = new Set(['sh']);

/**
 * The shells a script given to `program` runs in: bash's, zsh's, sh's (dash, ash, posh, and bash
 * as `sh`); any other (ksh, mksh, yash, fish) is read as all three would read it, the strictest.
 */
function shellOfProgram(program: string): ReadonlySet<ShellName> {
  if (program === 'bash' || program === 'rbash') return new Set(['bash']);
  if (program === 'zsh') return new Set(['zsh']);
  if (program === 'sh' || program === 'dash' || program === 'ash' || program === 'posh') return SH_ONLY;
  return shellSet(undefined);
}

/** A split value read as words: only characters no splitter (GNU or BSD `env -S`) reads specially, and spaces. */
const SPLIT_SAFE = /^[A-Za-z0-9_./=:,+@ -]*$/;

type Unwrapped = { kind: 'command'; words: (string | null)[] } | { kind: 'none' } | { kind: 'unknown'; reason: string };

/** Finds the command a wrapper runs, by its table entry. */
export function unwrap(spec: WrapperSpec, written: readonly (string | null)[], environment: ReadonlySet<string> = new Set()): Unwrapped {
  let args = written;
  const flags = new Set(spec.flags ?? []);
  const split = new Set(spec.split ?? []);
  const optional = new Set(spec.optional ?? []);
  const options = new Set(spec.options ?? []);
  const none = new Set(spec.noCommand ?? []);
  const refuse = new Set(spec.refuse ?? []);
  const grouped = spec.grouped !== false;
  let i = 0;
  let positionals = spec.positionals ?? 0;
  let sawNone = false;
  const known = (o: string) => flags.has(o) || options.has(o) || none.has(o) || refuse.has(o) || split.has(o) || optional.has(o);
  /** `env -S VALUE`: VALUE's words read in place of the option (the words from `at` on replaced), or why not. */
  const splitIn = (opt: string, value: string | null | undefined, at: number, rest: number): string | undefined => {
    if (value === undefined) return `option \`${opt}\` has no value`;
    if (value === null) return `option \`${opt}\` has a value that is not static`;
    if (!SPLIT_SAFE.test(value)) return `option \`${opt}\` splits a value holding quotes, \`\\\`, \`$\`, \`#\` or other characters it reads specially, which is not modelled`;
    args = [...args.slice(0, at), ...value.split(' ').filter((w) => w !== ''), ...args.slice(rest)];
    return undefined;
  };
  while (i < args.length) {
    const a = args[i]!;
    if (a === null) return { kind: 'unknown', reason: 'has an argument that is not static before its command' };
    if (a === '-' && flags.has('-')) {
      i++; // `env -` is `env -i`
      continue;
    }
    if (a === '--') {
      i++;
      // `env -- A=1 cmd`: the assignments still come before the command.
      while (spec.assignments && i < args.length && typeof args[i] === 'string' && isEnvAssignment(args[i]!)) {
        const name = args[i]!.slice(0, args[i]!.indexOf('='));
        if (!harmlessVariable(name, true, environment)) return { kind: 'unknown', reason: `runs its command with \`${name}\`, which is not known to be harmless (it can change what a command runs)` };
        i++;
      }
      if (positionals > 0) i += positionals;
      break;
    }
    if (a.startsWith('-') && a.length > 1) {
      if (/^-\d+$/.test(a) && options.has('-n')) {
        i++; // `nice -10`
        continue;
      }
      const eq = a.startsWith('--') ? a.indexOf('=') : -1;
      const opt = eq > 0 ? a.slice(0, eq) : a;
      if (refuse.has(opt)) return { kind: 'unknown', reason: `option \`${opt}\` is not modelled` };
      if (split.has(opt)) {
        const why = eq > 0 ? splitIn(opt, a.slice(eq + 1), i, i + 1) : splitIn(opt, args[i + 1], i, i + 2);
        if (why !== undefined) return { kind: 'unknown', reason: why };
        continue;
      }
      if (none.has(opt)) {
        sawNone = true;
        i++;
        continue;
      }
      // An optional value is attached or absent: `-l`, `-l5`, `--max-lines=5`, never the next word.
      if (flags.has(opt) || optional.has(opt) || (!a.startsWith('--') && optional.has(a.slice(0, 2)))) {
        i++;
        continue;
      }
      if (options.has(opt)) {
        i += eq > 0 ? 1 : 2;
        continue;
      }
      if (!a.startsWith('--') && grouped) {
        // Grouped short options: `-iu NAME`, `-n5`, `-oL`.
        let j = 1;
        let consumedNext = false;
        let splitDone = false;
        let ok = true;
        while (j < a.length) {
          const o = `-${a[j]}`;
          if (refuse.has(o)) return { kind: 'unknown', reason: `option \`${o}\` is not modelled` };
          if (split.has(o)) {
            // `-iS VALUE`, `-SVALUE`: the flags before it stay, the value's words follow them.
            const before = j > 1 ? [a.slice(0, j)] : [];
            const why = j === a.length - 1 ? splitIn(o, args[i + 1], i, i + 2) : splitIn(o, a.slice(j + 1), i, i + 1);
            if (why !== undefined) return { kind: 'unknown', reason: why };
            args = [...args.slice(0, i), ...before, ...args.slice(i)];
            consumedNext = false;
            splitDone = true;
            break;
          }
          if (none.has(o)) sawNone = true;
          else if (options.has(o)) {
            if (j === a.length - 1) consumedNext = true;
            break;
          } else if (!flags.has(o)) {
            ok = false;
            break;
          }
          j++;
        }
        if (splitDone) continue; // the flags before `S` are read again, then the value's words
        if (ok) {
          i += consumedNext ? 2 : 1;
          continue;
        }
      } else if (!a.startsWith('--') && options.has(a.slice(0, 2))) {
        i++; // attached value: `-n5`
        continue;
      }
      if (!known(opt)) return { kind: 'unknown', reason: `option \`${opt}\` is not in the wrapper table` };
    }
    if (spec.assignments && isEnvAssignment(a)) {
      const name = a.slice(0, a.indexOf('='));
      if (!harmlessVariable(name, true, environment)) return { kind: 'unknown', reason: `runs its command with \`${name}\`, which is not known to be harmless (it can change what a command runs)` };
      i++;
      continue;
    }
    if (positionals > 0) {
      positionals--;
      i++;
      continue;
    }
    break;
  }
  if (i > args.length) return { kind: 'unknown', reason: 'has an option without its value' };
  // `flock FILE -c CMD`: an option the table refuses may also stand after the positionals.
  const next = args[i];
  if (typeof next === 'string' && refuse.has(next)) return { kind: 'unknown', reason: `option \`${next}\` is not modelled` };
  if (sawNone) return { kind: 'none' };
  if (i >= args.length) return { kind: 'none' };
  return { kind: 'command', words: args.slice(i) };
}

type ShellRun = { kind: 'script'; script: string } | { kind: 'stdin' } | { kind: 'file' } | { kind: 'unknown'; reason: string };

/** `bash -c SCRIPT`, `sh -lc SCRIPT`, `bash -o pipefail -c SCRIPT`: the script, if there is one. */
export function shellScript(args: readonly (string | null)[]): ShellRun {
  let command = false;
  let stdin = false;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === null) return command ? { kind: 'unknown', reason: 'runs a script that is not static' } : { kind: 'unknown', reason: 'has an argument that is not static before its script' };
    if (a === '--' || a === '-') {
      i++;
      break;
    }
    if (/^[-+]o$/.test(a) || a === '-O' || a === '+O' || a === '--rcfile' || a === '--init-file') {
      i++;
      continue;
    }
    if (/^--[a-z-]+$/.test(a)) continue;
    if (/^[-+][A-Za-z]+$/.test(a)) {
      if (a.startsWith('-') && a.includes('c')) command = true;
      if (a.startsWith('-') && a.includes('s')) stdin = true;
      if (a.startsWith('-') && (a.includes('o') || a.includes('O'))) i++; // `-eo pipefail`: the value follows
      continue;
    }
    break;
  }
  if (!command) {
    if (stdin || i >= args.length) return { kind: 'stdin' };
    // A script file that is the shell's own standard input, or another open file descriptor.
    const file = args[i];
    if (file === null || file === undefined) return { kind: 'unknown', reason: 'runs a script that is not static' };
    if (/^\/dev\/stdin$|^\/dev\/fd\/0$|^\/proc\/(self|thread-self|[0-9]+)\/fd\/0$/.test(file)) return { kind: 'stdin' };
    if (/^\/dev\/fd\/[0-9]+$|^\/proc\/(self|thread-self|[0-9]+)\/fd\/[0-9]+$/.test(file)) {
      return { kind: 'unknown', reason: `runs a script from the open file \`${file}\`, which is not analysed` };
    }
    return { kind: 'file' };
  }
  if (i >= args.length) return { kind: 'unknown', reason: '`-c` has no script' };
  const s = args[i];
  if (s === null || s === undefined) return { kind: 'unknown', reason: 'runs a script that is not static' };
  return { kind: 'script', script: s };
}

/** The commands of `find … -exec CMD … ;` (and `-execdir`, `-ok`, `-okdir`, ending `;` or `+`). */
export function findCommands(args: readonly (string | null)[]): { commands: (string | null)[][]; unknown?: string } {
  const commands: (string | null)[][] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === null) {
      // A dynamic word could be `-exec`.
      return { commands, unknown: 'has an argument that is not static (it could be `-exec`)' };
    }
    if (a === '-exec' || a === '-execdir' || a === '-ok' || a === '-okdir') {
      const start = i + 1;
      let end = start;
      while (end < args.length && args[end] !== ';' && !(args[end] === '+' && args[end - 1] === '{}')) end++;
      if (end >= args.length) return { commands, unknown: `\`${a}\` has no \`;\` or \`{} +\` end` };
      if (end === start) return { commands, unknown: `\`${a}\` has no command` };
      // `{}` (alone or inside a word: GNU find replaces both) is a file name known only at run time.
      commands.push(args.slice(start, end).map((w) => (w !== null && w.includes('{}') ? null : w)));
      i = end;
    }
  }
  return { commands };
}

/**
 * The words of the command `xargs` runs: those written, then the words it reads from its input
 * (run-time words, `null`); with `-I R`/`-i`/`--replace`, every word holding `R` is a run-time word.
 */
export function xargsWords(xargsArgs: readonly (string | null)[], words: readonly (string | null)[]): (string | null)[] {
  let replace: string | undefined;
  for (let i = 0; i < xargsArgs.length; i++) {
    const a = xargsArgs[i];
    if (a === null || a === undefined) break;
    if (a === '-I') replace = xargsArgs[i + 1] ?? undefined;
    else if (a.startsWith('-I')) replace = a.slice(2);
    else if (a === '-i' || a === '--replace') replace = '{}';
    else if (a.startsWith('-i')) replace = a.slice(2);
    else if (a.startsWith('--replace=')) replace = a.slice('--replace='.length);
  }
  const out = words.map((w) => (w !== null && replace !== undefined && replace !== '' && w.includes(replace) ? null : w));
  out.push(null);
  return out;
}

/** Whether an fd option cluster holds `-x` or `-X` before a letter that takes the rest as its value (`-tx` is `-t x`). */
function fdClusterExec(cluster: string): boolean {
  for (const ch of cluster.slice(1)) {
    if (ch === 'x' || ch === 'X') return true;
    if ('etdESjcoT'.includes(ch)) return false;
  }
  return false;
}

/**
 * The commands of `fd … -x CMD …` and `-X CMD …` (`--exec`, `--exec-batch`): the words after the
 * option up to a `;` or the end. `{}`, `{/}`, `{//}`, `{.}`, `{/.}` are run-time words, and without
 * one fd appends the path: a run-time word too.
 */
export function fdCommands(args: readonly (string | null)[]): { commands: (string | null)[][]; unknown?: string } {
  const commands: (string | null)[][] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === null) return { commands, unknown: 'has an argument that is not static (it could be `-x`)' };
    if (/^-[A-Za-z]+$/.test(a) && a.length > 2 && fdClusterExec(a)) return { commands, unknown: `option cluster \`${a}\` may hold \`-x\`, which is not modelled` };
    if (a === '-x' || a === '-X' || a === '--exec' || a === '--exec-batch') {
      let end = i + 1;
      while (end < args.length && args[end] !== ';') end++;
      if (end === i + 1) return { commands, unknown: `\`${a}\` has no command` };
      const placeholder = /\{(\/|\/\/|\.|\/\.)?\}/;
      const words = args.slice(i + 1, end);
      const held = words.some((w) => w === null || placeholder.test(w));
      const cmd = words.map((w) => (w !== null && placeholder.test(w) ? null : w));
      if (!held) cmd.push(null);
      commands.push(cmd);
      i = end;
    } else if (/^--exec(-batch)?=/.test(a)) return { commands, unknown: `\`${a}\` is not modelled` };
  }
  return { commands };
}
