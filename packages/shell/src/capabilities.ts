/**
 * The program capability table (threat model, invariant 3): for the programs agents run every day,
 * the options, subcommands and operands that **run another program**, **write a file** or **reach
 * the network**, the environment variables that make the program run code, and the configuration
 * files it reads that can make it run code. One place: the judge (an allow of a program never
 * covers a marked capability unless the rule names it, docs/shell.md "Capabilities"), lint's
 * `rules/command-allows-anything` (which capability a rule lets through), and the protected paths
 * (`CONFIG_FILES`) read it.
 *
 * Sources: each entry's `source` (GTFOBins, https://gtfobins.github.io/, and the program's manual).
 * The table over-marks on purpose: an option is read wherever it stands (a value that merely looks
 * like a marked option is marked too), and a long option is marked by any prefix of its name where
 * the program accepts abbreviations (GNU getopt_long, argp, git's parse-options: `--out` is
 * `--output`). A word that is not static (an expansion, or a word known only at run time) may be any
 * marked option.
 */

export type CapabilityKind = 'runs' | 'writes' | 'network';

/** One capability a command uses, as the judge and lint report it. */
export interface Capability {
  readonly kind: CapabilityKind;
  /** The table's name for it: an option (`--output`), a subcommand (`push`), or a description. */
  readonly what: string;
  /** Every spelling a rule may name it by (`-o`, `--output`); empty: no rule can name it. */
  readonly names: readonly string[];
  /** Why it is marked. */
  readonly note: string;
  /** The argument it was found in, as written (`-xzf` for `-x`): a rule that names that word names it. */
  readonly word?: string;
  /** A subcommand's index among the arguments: a rule names it by a further word at that place only (`[git, remote, add]`, not `[git, add]`). */
  readonly at?: number;
}

/** A marked option. `names`: short (`-o`), long (`--output`) or single-dash long (`-exec`) spellings. */
export interface OptionCapability {
  readonly names: readonly string[];
  readonly kind: CapabilityKind;
  readonly note: string;
}

/** One program's entry. */
export interface ProgramCapabilities {
  /** Where the knowledge comes from. */
  readonly source: string;
  /** What the program does by its nature: named by naming the program (lint reports it). */
  readonly inherent?: readonly { readonly kind: CapabilityKind; readonly note: string }[];
  /** Options that run, write or reach the network. */
  readonly options?: readonly OptionCapability[];
  /** Short options that take a value: in a cluster (`-tx`), the rest of the word is that value. */
  readonly shortValues?: string;
  /** Long options may be abbreviated to any unambiguous prefix (GNU getopt_long, argp, parse-options). */
  readonly abbreviations?: boolean;
  /** Options are whole words after one dash (`find -exec`): no clusters, no abbreviations. */
  readonly wordOptions?: boolean;
  /** The first word may be a cluster of options without a dash (`tar xzf`). */
  readonly oldStyle?: boolean;
  /** The first operand is a subcommand: those that only read; any other is marked. */
  readonly subcommands?: { readonly read: readonly string[]; readonly kind: CapabilityKind; readonly note: string; readonly network?: readonly string[] };
  /** Operands and program texts the generic reading cannot judge (sed and awk scripts, git). */
  readonly check?: (args: readonly (string | null)[]) => Capability[];
  /** Environment variables that make it run code, write files or reach elsewhere (`NAME`, or a prefix `NAME_*`). */
  readonly environment?: readonly string[];
  /** Configuration files whose contents can make it run code (for the protected paths). */
  readonly configFiles?: readonly string[];
}

const GTFO = (p: string) => `GTFOBins ${p}; `;

const opt = (kind: CapabilityKind, note: string, ...names: string[]): OptionCapability => ({ names, kind, note });

/* ----------------------------------------------------------------------------------------- */
/* Scripts the table reads: sed and awk programs.                                              */

/**
 * Whether a sed script only prints, deletes, substitutes and moves between lines: every command is
 * one of `p P d D q Q = n N h H g G x l b t T : { } !` or `s/…/…/FLAGS` (FLAGS of `g p i I m M` and
 * digits) or `y/…/…/`, each with an optional address (`N`, `$`, `/re/`, `N,M`, `N~M`). Anything else
 * (`e`, `w FILE`, `W`, `r`, `s///e`, `s///w FILE`, a command this reader does not know) is not.
 */
export function sedScriptReadsOnly(script: string): boolean {
  let i = 0;
  const n = script.length;
  const ws = () => {
    while (i < n && /[ \t\n;]/.test(script[i]!)) i++;
  };
  /** Text up to an unescaped `d`; false when it never comes or holds a newline. */
  const delimited = (d: string): boolean => {
    while (i < n && script[i] !== d) {
      if (script[i] === '\n') return false;
      if (script[i] === '\\') i++;
      i++;
    }
    if (i >= n) return false;
    i++;
    return true;
  };
  const address = (): boolean => {
    if (i < n && /[0-9]/.test(script[i]!)) {
      while (i < n && /[0-9~]/.test(script[i]!)) i++;
    } else if (script[i] === '$') i++;
    else if (script[i] === '/') {
      i++;
      if (!delimited('/')) return false;
      while (i < n && /[IM]/.test(script[i]!)) i++;
    }
    return true;
  };
  ws();
  while (i < n) {
    const start = i;
    if (!address()) return false;
    if (i > start && script[i] === ',') {
      i++;
      if (script[i] === '+' || script[i] === '~') i++;
      if (!address()) return false;
    }
    while (script[i] === ' ' || script[i] === '!') i++;
    const c = script[i];
    if (c === undefined) return i > start ? false : true;
    i++;
    if ('pPdDqQ=nNhHgGxl{}'.includes(c)) {
      if ((c === 'q' || c === 'Q') && /[0-9]/.test(script[i] ?? '')) while (/[0-9]/.test(script[i] ?? '')) i++;
    } else if (c === 'b' || c === 't' || c === 'T' || c === ':') {
      while (i < n && /[A-Za-z0-9_]/.test(script[i]!)) i++;
    } else if (c === 's' || c === 'y') {
      const d = script[i];
      if (d === undefined || d === '\\' || d === '\n' || d === ' ') return false;
      i++;
      if (!delimited(d) || !delimited(d)) return false;
      if (c === 's') while (i < n && /[gpiImM0-9]/.test(script[i]!)) i++;
    } else return false;
    if (i < n && !/[ \t\n;}]/.test(script[i]!)) return false;
    ws();
  }
  return true;
}

function sedCheck(args: readonly (string | null)[]): Capability[] {
  const out: Capability[] = [];
  const scripts: (string | null)[] = [];
  let explicit = false;
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (a === null) continue; // the generic reading marks it
    if (a === '-e' || a === '--expression' || isPrefixOf(a, '--expression', 4)) {
      explicit = true;
      scripts.push(args[k + 1] ?? null);
      k++;
    } else if (/^--expression=|^--exp[a-z]*=/.test(a)) {
      explicit = true;
      scripts.push(a.slice(a.indexOf('=') + 1));
    } else if (/^-[a-zA-Z]*e/.test(a) && !a.startsWith('--')) {
      // `-ne SCRIPT`, `-es/x/y/`: the rest of the cluster, or the next word.
      const rest = a.slice(a.indexOf('e') + 1);
      explicit = true;
      if (rest === '') {
        scripts.push(args[k + 1] ?? null);
        k++;
      } else scripts.push(rest);
    }
  }
  if (!explicit) {
    const first = args.find((a) => a === null || !a.startsWith('-'));
    if (first !== undefined) scripts.push(first);
  }
  for (const s of scripts) {
    if (s === null || !sedScriptReadsOnly(s)) {
      out.push({ kind: 'runs', what: 'a sed script', names: [], note: 'a sed script that is not only p, d, s///, y///… can run a command (`e`, `s///e`) or write a file (`w FILE`)' });
      break;
    }
  }
  return out;
}

function awkCheck(args: readonly (string | null)[]): Capability[] {
  let program: string | null | undefined;
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (a === null) return [{ kind: 'runs', what: 'an awk program', names: [], note: 'an awk program that is not static can run commands (`system()`, `| getline`)' }];
    if (a === '-F' || a === '-v' || a === '--assign' || a === '--field-separator') {
      k++;
      continue;
    }
    if (/^-[Fv]./.test(a) || /^--(assign|field-separator)=/.test(a)) continue;
    if (a === '-f' || a === '--file' || a.startsWith('-f') || a.startsWith('--file=') || a === '-i' || a === '--include' || a === '-l' || a === '--load' || a === '-E' || a === '--exec') {
      return [{ kind: 'runs', what: a.slice(0, 2), names: ['-f', '--file', '-E', '--exec', '-i', '--include', '-l', '--load'], note: 'runs an awk program (or loads an extension) from a file it does not show' }];
    }
    if (/^-[opdD]|^--(pretty-print|profile|dump-variables|debug)/.test(a)) {
      return [{ kind: 'writes', what: a.split('=')[0]!, names: ['-o', '--pretty-print', '-p', '--profile', '-d', '--dump-variables', '-D', '--debug'], note: 'gawk writes its program, a profile or its variables to a file (or runs its debugger)' }];
    }
    if (a === '-e' || a === '--source') {
      program = (program ?? '') + (args[k + 1] ?? '');
      k++;
      continue;
    }
    if (a === '--') continue;
    if (a.startsWith('-')) continue;
    if (program === undefined) program = a;
    break;
  }
  if (program === undefined || program === null) return [];
  if (/system|\||>|@|getline|print[ (]*[^;}]*>|ENVIRON|PROCINFO|close|fflush/.test(program)) {
    return [{ kind: 'runs', what: 'an awk program', names: [], note: 'an awk program with `system`, `|`, `>`, `getline` or `@load` can run commands or write files' }];
  }
  return [];
}

/* ----------------------------------------------------------------------------------------- */
/* git: global options, subcommands and their options.                                        */

const GIT_GLOBAL_VALUE = new Set(['-c', '-C', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--super-prefix', '--config-env', '--list-cmds', '--attr-source']);
const GIT_GLOBAL_RUNS: readonly OptionCapability[] = [
  opt('runs', 'sets configuration for this run (`core.pager`, `core.fsmonitor`, `diff.external`, `alias.x=!sh` run programs)', '-c', '--config-env'),
  opt('runs', 'reads another repository, whose `.git/config` can name programs to run (`core.fsmonitor`, `core.pager`)', '-C', '--git-dir', '--work-tree'),
  opt('runs', 'runs git commands from another folder', '--exec-path'),
];
/** Subcommands that only read (with the option marks below). */
const GIT_READ = new Set([
  'status', 'diff', 'log', 'show', 'blame', 'annotate', 'rev-parse', 'ls-files', 'ls-tree', 'describe', 'shortlog', 'cat-file', 'rev-list', 'grep', 'show-ref',
  'for-each-ref', 'name-rev', 'merge-base', 'count-objects', 'whatchanged', 'version', 'var', 'check-ignore', 'check-attr', 'check-ref-format', 'diff-tree', 'diff-files',
  'diff-index', 'range-diff', 'cherry', 'show-branch', 'branch', 'tag', 'config', 'remote', 'stash', 'worktree', 'reflog', 'notes', 'symbolic-ref', 'ls-remote',
]);
const GIT_NETWORK = new Set(['fetch', 'pull', 'push', 'clone', 'ls-remote', 'submodule', 'request-pull', 'send-email', 'archive', 'remote']);
/** Options of the read subcommands that run a program or write a file. */
const GIT_SUB_OPTIONS: readonly OptionCapability[] = [
  opt('writes', 'writes the output to a file', '--output', '-o', '--output-directory'),
  opt('runs', 'runs the external diff program the configuration or GIT_EXTERNAL_DIFF names', '--ext-diff'),
  opt('runs', 'runs the textconv filters `.gitattributes` and the configuration name', '--textconv', '--filters'),
  opt('runs', 'runs the pager program it is given', '-O', '--open-files-in-pager'),
  opt('runs', 'opens an editor', '-e', '--edit', '--edit-description'),
  opt('runs', 'runs the program it is given', '--exec', '--upload-pack', '--receive-pack'),
];
/** The option marks that apply to each read subcommand (the others of GIT_SUB_OPTIONS' spellings mean something else there). */
const GIT_SUB_MARKS: Readonly<Record<string, readonly string[]>> = {
  diff: ['--output', '--ext-diff', '--textconv'],
  log: ['--output', '--ext-diff', '--textconv'],
  show: ['--output', '--ext-diff', '--textconv'],
  whatchanged: ['--output', '--ext-diff', '--textconv'],
  'range-diff': ['--output', '--ext-diff', '--textconv'],
  'diff-tree': ['--output', '--ext-diff', '--textconv'],
  'diff-files': ['--output', '--ext-diff', '--textconv'],
  'diff-index': ['--output', '--ext-diff', '--textconv'],
  blame: ['--textconv'],
  annotate: ['--textconv'],
  'cat-file': ['--textconv', '--filters'],
  grep: ['-O', '--open-files-in-pager', '--textconv', '--ext-grep'],
  'ls-remote': ['--upload-pack', '--exec'],
};
const GIT_BRANCH_LIST = /^(-a|-r|-v|-vv|-l|-i|-q|--list|--show-current|--all|--remotes|--verbose|--quiet|--ignore-case|--no-color|--no-column|--no-abbrev|--omit-empty|--color(=.*)?|--column(=.*)?|--abbrev(=.*)?|--sort(=.*)?|--format(=.*)?|--(no-)?contains(=.*)?|--(no-)?merged(=.*)?|--points-at(=.*)?)$/;
const GIT_BRANCH_VALUE = new Set(['--contains', '--no-contains', '--merged', '--no-merged', '--points-at', '--sort', '--format']);
const GIT_TAG_LIST = /^(-l|-n[0-9]*|-i|--list|--ignore-case|--no-color|--no-column|--omit-empty|--color(=.*)?|--column(=.*)?|--sort(=.*)?|--format(=.*)?|--(no-)?contains(=.*)?|--(no-)?merged(=.*)?|--points-at(=.*)?)$/;

/** The options of `rest` that are not listing ones (`-D`, `--move`): what makes `git branch`/`git tag` write. */
function changing(rest: readonly (string | null)[], list: RegExp): string[] {
  return rest.filter((x): x is string => x !== null && x.startsWith('-') && !list.test(x)).map((x) => (x.includes('=') ? x.slice(0, x.indexOf('=')) : x));
}

function gitCheck(args: readonly (string | null)[]): Capability[] {
  const out: Capability[] = [];
  let k = 0;
  for (; k < args.length; k++) {
    const a = args[k];
    if (a === null || a === undefined) {
      out.push(...GIT_GLOBAL_RUNS.map((o) => fromOption(o)));
      out.push({ kind: 'writes', what: 'a subcommand that is not static', names: [], note: 'a word that is not static may be any git option or subcommand' });
      return out;
    }
    if (!a.startsWith('-')) break;
    const eq = a.indexOf('=');
    const name = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : /^-[cC]./.test(a) ? a.slice(0, 2) : a;
    const mark = GIT_GLOBAL_RUNS.find((o) => o.names.includes(name));
    if (mark) out.push(fromOption(mark, name));
    if (GIT_GLOBAL_VALUE.has(a) && name === a && a !== '--exec-path') k++;
  }
  const sub = args[k];
  if (sub === undefined) return out;
  if (sub === null) {
    out.push({ kind: 'writes', what: 'a subcommand that is not static', names: [], note: 'a word that is not static may be any git subcommand' });
    return out;
  }
  const rest = args.slice(k + 1);
  /** `names`: the words that make it write (an action, an option); none: a name operand, which no rule can name. */
  const write = (note: string, names: readonly string[] = [sub], at: number | undefined = k) => out.push({ kind: 'writes', what: names[0] ?? sub, names, note, ...(at !== undefined ? { at } : {}) });
  const place = (w: string | null | undefined) => (w === undefined ? k : k + 1 + rest.indexOf(w));
  if (GIT_NETWORK.has(sub) && !(sub === 'remote' && rest.every((x) => x === '-v' || x === '--verbose'))) {
    if (!(sub === 'archive' && !rest.some((x) => x === null || x.startsWith('--remote')))) {
      out.push({ kind: 'network', what: sub, names: [sub], note: `\`git ${sub}\` reaches a remote`, at: k });
    }
  }
  if (!GIT_READ.has(sub)) {
    write(`\`git ${sub}\` changes the repository or its files, or runs a program (hooks, an editor, an alias)`);
    if (sub === 'archive') out.push(...optionMarks(rest, [opt('writes', 'writes the archive to a file', '-o', '--output'), opt('runs', 'runs the program it is given', '--exec')], { abbreviations: true }));
    return out;
  }
  const marks = GIT_SUB_MARKS[sub];
  if (marks) {
    const options = GIT_SUB_OPTIONS.map((o) => ({ ...o, names: o.names.filter((x) => marks.includes(x)) })).filter((o) => o.names.length > 0);
    out.push(...optionMarks(rest, options, { abbreviations: true, shortValues: sub === 'grep' ? 'efABCm' : '' }));
  }
  // The changing options name it; without one, the name operand does, at its place (`allow [git, tag, v1]`).
  const byWhat = (changingOptions: string[]): [string[], number | undefined] => {
    if (changingOptions.length > 0) return [changingOptions, undefined];
    const operand = rest.find((x) => x !== null && !x.startsWith('-'));
    return operand ? [[operand], place(operand)] : [[], undefined];
  };
  const positional = (list: RegExp, values: ReadonlySet<string>) => {
    let listing = false;
    let operand = false;
    for (let j = 0; j < rest.length; j++) {
      const x = rest[j];
      if (x === null || x === undefined) return { listing, operand: true, other: true };
      if (list.test(x)) {
        if (!/^(-q|--quiet|-v|-vv|--verbose|-i|--ignore-case|--no-color|--color.*|--column.*|--no-column|--abbrev.*|--no-abbrev|--omit-empty)$/.test(x)) listing = true;
        if (values.has(x)) j++;
        continue;
      }
      if (x.startsWith('-')) return { listing, operand, other: true };
      operand = true;
    }
    return { listing, operand, other: false };
  };
  switch (sub) {
    case 'branch': {
      const p = positional(GIT_BRANCH_LIST, GIT_BRANCH_VALUE);
      if (p.other || (p.operand && !p.listing)) write('`git branch` with a name or a changing option (`-d`, `-m`, `-c`, `-f`, `-u`) creates, deletes, renames or moves a branch', ...byWhat(changing(rest, GIT_BRANCH_LIST)));
      break;
    }
    case 'tag': {
      const p = positional(GIT_TAG_LIST, GIT_BRANCH_VALUE);
      if (p.other || (p.operand && !p.listing)) write('`git tag` with a name or a changing option (`-a`, `-d`, `-f`, `-s`) creates or deletes a tag (and `-s`, `-v` run gpg)', ...byWhat(changing(rest, GIT_TAG_LIST)));
      break;
    }
    case 'config': {
      const readOp = /^(--get|--get-all|--get-regexp|--get-urlmatch|--list|-l|get|list)$/;
      const neutral = /^(--show-origin|--show-scope|--name-only|--null|-z|--global|--system|--local|--worktree|--includes|--no-includes|--type=.*|--bool|--int|--path|--bool-or-int|--default=.*|--all|--regexp|--value=.*)$/;
      const ops = rest.filter((x) => x !== null && readOp.test(x));
      const others = rest.filter((x) => x === null || (!readOp.test(x) && !neutral.test(x)));
      const operands = others.filter((x) => x !== null && !x.startsWith('-'));
      const reading = others.length === operands.length && (ops.length > 0 ? operands.length <= 2 : operands.length === 1);
      if (!reading) write('`git config` without `--get`/`--list` sets configuration, which can name programs to run', others.filter((x): x is string => x !== null && (x.startsWith('-') || /^(set|unset|edit|rename-section|remove-section)$/.test(x))), undefined);
      break;
    }
    case 'remote': {
      const first = rest.find((x) => x === null || !x.startsWith('-'));
      if (first !== undefined && first !== 'get-url' && first !== 'show') write(`\`git remote ${first ?? '…'}\` changes the remotes`, first === null ? [] : [first], place(first));
      if (first === 'show' && !rest.includes('-n')) out.push({ kind: 'network', what: 'remote show', names: [], note: '`git remote show` contacts the remote (without `-n`)' });
      if (rest.some((x) => x !== null && x.startsWith('-') && x !== '-v' && x !== '--verbose' && x !== '-n')) write('`git remote` with an option that changes the remotes', [], undefined);
      break;
    }
    case 'stash':
    case 'worktree':
    case 'notes':
    case 'reflog': {
      const first = rest.find((x) => x === null || !x.startsWith('-'));
      const reads = sub === 'stash' ? ['list', 'show'] : sub === 'worktree' ? ['list'] : sub === 'notes' ? ['list', 'show'] : ['show'];
      if (first === null || (first === undefined ? sub !== 'reflog' && sub !== 'notes' : !reads.includes(first) && !(sub === 'reflog' && !['expire', 'delete', 'exists', 'drop'].includes(first)))) {
        write(`\`git ${sub}${first ? ` ${first}` : ''}\` changes the repository`, first === null ? [] : [first ?? sub], first === null ? undefined : place(first));
      }
      break;
    }
    case 'symbolic-ref': {
      const operands = rest.filter((x) => x === null || !x.startsWith('-'));
      if (operands.length > 1 || rest.some((x) => x === '-d' || x === '--delete' || x === '-m')) write('`git symbolic-ref` with two names or `-d` changes a reference', [], undefined);
      break;
    }
  }
  return out;
}

/* ----------------------------------------------------------------------------------------- */
/* Package managers and runners.                                                               */

const NPM_FLAGS = /^(-g|--global|-s|--silent|-q|--quiet|-d|-dd|-ddd|--json|--long|-l|--parseable|-p|--offline|--no-color|--color|--yes|-y|--no|--verbose|--ws|--workspaces|--include-workspace-root|-r|--recursive|--frozen-lockfile|--prod|-P|--dev|-D|--[a-z-]+=.*)$/;

function packageManager(read: readonly string[], network: readonly string[]): (args: readonly (string | null)[]) => Capability[] {
  return (args) => {
    const out: Capability[] = [];
    let k = 0;
    for (; k < args.length; k++) {
      const a = args[k];
      if (a === null || a === undefined || !a.startsWith('-')) break;
      if (a === '--version' || a === '-v' || a === '--help' || a === '-h') return out;
      if (!NPM_FLAGS.test(a)) {
        out.push({ kind: 'runs', what: a, names: [a], note: 'an option before the subcommand may take the next word as its value, so the subcommand is not known' });
      }
    }
    const sub = args[k];
    if (sub === null) out.push({ kind: 'runs', what: 'a subcommand that is not static', names: [], note: 'a word that is not static may be any subcommand (`exec`, a script)' });
    else if (sub !== undefined) {
      if (network.includes(sub)) out.push({ kind: 'network', what: sub, names: [sub], note: `\`${sub}\` reaches the registry`, at: k });
      if (!read.includes(sub)) out.push({ kind: 'runs', what: sub, names: [sub], note: `\`${sub}\` runs the project's scripts, an installed binary or a downloaded package`, at: k });
    }
    for (const a of args) {
      if (a !== null && /^--(script-shell|userconfig|globalconfig|node-options|prefix|dir|C)(=|$)/.test(a)) {
        out.push({ kind: 'runs', what: a.split('=')[0]!, names: [a.split('=')[0]!], note: 'points at a shell, a configuration (`script-shell`) or another project whose scripts run' });
      }
    }
    return out;
  };
}

/** An interpreter: its code options, and reading its program from standard input when given no file. */
function interpreter(codeOptions: readonly string[], valued: readonly string[], note: string): (args: readonly (string | null)[]) => Capability[] {
  return (args) => {
    const out: Capability[] = [];
    for (let k = 0; k < args.length; k++) {
      const a = args[k];
      if (a === null || a === undefined) {
        out.push({ kind: 'runs', what: 'a word that is not static', names: [], note });
        return out;
      }
      if (a === '--version' || a === '-V' || a === '-v' || a === '--help' || a === '-h') return out;
      if (a === '-' || !a.startsWith('-')) return out; // the script file: the rule names it (args)
      const base = a.startsWith('--') ? a.split('=')[0]! : a.slice(0, 2);
      if (codeOptions.includes(base) || (!a.startsWith('--') && codeOptions.some((c) => c.length === 2 && a.slice(1).includes(c[1]!)))) {
        out.push({ kind: 'runs', what: base, names: codeOptions.filter((c) => c === base || c.length === 2) as string[], note });
        return out;
      }
      if (valued.includes(a)) k++;
    }
    out.push({ kind: 'runs', what: 'a program read from standard input', names: [], note: 'with no script file, it runs the program on its standard input' });
    return out;
  };
}

/* ----------------------------------------------------------------------------------------- */

const NONE = { source: 'the program\'s manual: no option runs a program, writes a file or reaches the network' };

/** The table, by program name (looked up by the program's base name in lower case). */
export const CAPABILITIES: Readonly<Record<string, ProgramCapabilities>> = {
  git: {
    source: `${GTFO('git')}git(1) (OPTIONS, "git -c"), git-config(1) (core.pager, core.fsmonitor, core.sshCommand, diff.external, alias.*), gitattributes(5) (textconv, filter, diff drivers), git-diff(1) --output/--ext-diff`,
    check: gitCheck,
    environment: ['GIT_*', 'EDITOR', 'VISUAL', 'PAGER', 'HOME', 'XDG_CONFIG_HOME', 'SSH_ASKPASS'],
    configFiles: ['.git/config', '.git/hooks/', '.git/info/attributes', '.gitattributes', '.gitmodules', '.git/commondir', '~/.gitconfig', '~/.config/git/config', '~/.config/git/attributes', '/etc/gitconfig'],
  },
  rg: {
    source: 'rg(1): --pre runs a preprocessor for every file, --hostname-bin runs a program for hyperlinks, -z/--search-zip runs decompression programs; RIPGREP_CONFIG_PATH names a file of options',
    options: [
      opt('runs', 'runs the program it is given on every file searched', '--pre'),
      opt('runs', 'runs the program it is given to find the host name', '--hostname-bin'),
      opt('runs', 'runs decompression programs (gzip, xz, bzip2…) found on PATH', '-z', '--search-zip'),
    ],
    shortValues: 'eEfgtTmABCjMrd',
    environment: ['RIPGREP_CONFIG_PATH'],
    configFiles: ['$RIPGREP_CONFIG_PATH'],
  },
  grep: { source: 'grep(1), GNU grep: no option runs a program or writes a file' },
  egrep: NONE,
  fgrep: NONE,
  find: {
    source: `${GTFO('find')}find(1) ACTIONS: -exec, -execdir, -ok, -okdir run programs; -delete removes; -fprint, -fprint0, -fprintf, -fls write files`,
    wordOptions: true,
    options: [
      opt('runs', 'runs a program for each file (its command is judged too, with `{}` a word known only at run time)', '-exec', '-execdir', '-ok', '-okdir'),
      opt('writes', 'deletes the files it finds', '-delete'),
      opt('writes', 'writes its output to a file', '-fprint', '-fprint0', '-fprintf', '-fls'),
    ],
  },
  fd: {
    source: 'fd(1): -x/--exec and -X/--exec-batch run a program for the files found',
    options: [opt('runs', 'runs a program for each file found (its command is judged too)', '-x', '--exec', '-X', '--exec-batch')],
    shortValues: 'etdESjcoT',
  },
  sed: {
    source: `${GTFO('sed')}sed(1), GNU sed: the \`e\` command and \`s///e\` run commands, \`w FILE\`, \`s///w FILE\` and -i/--in-place write files`,
    options: [opt('writes', 'edits the files in place', '-i', '--in-place'), opt('runs', 'runs a sed script from a file it does not show', '-f', '--file')],
    shortValues: 'eflsS',
    abbreviations: true,
    check: sedCheck,
  },
  awk: { source: `${GTFO('awk')}awk(1): system(), print | "cmd", "cmd" | getline, print > FILE`, check: awkCheck, environment: ['AWKPATH', 'AWKLIBPATH'] },
  gawk: { source: `${GTFO('gawk')}gawk(1): as awk, and -l/--load, @load, -E`, check: awkCheck, environment: ['AWKPATH', 'AWKLIBPATH'] },
  mawk: { source: `${GTFO('mawk')}mawk(1)`, check: awkCheck },
  nawk: { source: `${GTFO('nawk')}awk(1)`, check: awkCheck },
  sort: {
    source: `${GTFO('sort')}sort(1): -o/--output writes, --compress-program runs a program`,
    options: [opt('writes', 'writes its output to a file', '-o', '--output'), opt('runs', 'runs the program it is given to compress temporary files', '--compress-program')],
    shortValues: 'ktoST',
    abbreviations: true,
  },
  tree: {
    source: 'tree(1): -o FILE writes the listing to a file; -R with -H writes 00Tree.html in every folder',
    options: [opt('writes', 'writes its output to a file', '-o'), opt('writes', 'with -H, writes 00Tree.html in every folder', '-R')],
  },
  tar: {
    source: `${GTFO('tar')}tar(1), GNU tar: --to-command, -I/--use-compress-program, --checkpoint-action=exec, -F/--info-script, --rsh-command, --rmt-command run programs; -x, -c, -r, -u, -A, --delete write`,
    options: [
      opt('runs', 'runs the program it is given', '--to-command', '-I', '--use-compress-program', '--checkpoint-action', '-F', '--info-script', '--new-volume-script', '--rsh-command', '--rmt-command'),
      opt('writes', 'writes files (extracts, creates or changes an archive)', '-x', '--extract', '--get', '-c', '--create', '-r', '--append', '-u', '--update', '-A', '--catenate', '--concatenate', '--delete', '--remove-files', '--index-file', '--volno-file'),
    ],
    shortValues: 'fCIFTXbgHKLNV',
    abbreviations: true,
    oldStyle: true,
    environment: ['TAR_OPTIONS', 'TAPE'],
  },
  less: {
    source: `${GTFO('less')}less(1): LESSOPEN/LESSCLOSE run input preprocessors, -o/-O write a log file, a lesskey file (-k) can set LESSOPEN, +CMD runs commands`,
    options: [
      opt('writes', 'writes its input to a log file', '-o', '--log-file', '-O', '--LOG-FILE'),
      opt('runs', 'reads a lesskey file, which can set LESSOPEN', '-k', '--lesskey-file', '--lesskey-src', '--lesskey-content'),
    ],
    shortValues: 'bhjkpPtTxyz#',
    check: (args) => (args.some((a) => a === null || a.startsWith('+')) ? [{ kind: 'runs', what: '+CMD', names: [], note: '`+CMD` runs less commands at start (`!` runs a shell)' }] : []),
    environment: ['LESSOPEN', 'LESSCLOSE', 'LESS', 'LESSKEY', 'LESSKEYIN', 'LESSKEY_CONTENT', 'VISUAL', 'EDITOR', 'SHELL'],
    configFiles: ['~/.lesskey', '~/.config/lesskey', '~/.less'],
  },
  more: { source: `${GTFO('more')}more(1): \`!\` runs a shell (interactive only)`, environment: ['MORE', 'SHELL', 'EDITOR', 'VISUAL'] },
  man: {
    source: `${GTFO('man')}man(1): -P/--pager runs a pager, -H/--html a browser, -p preprocessors, -C a configuration`,
    options: [opt('runs', 'runs the program it is given (pager, browser, preprocessors, configuration)', '-P', '--pager', '-H', '--html', '-p', '--preprocessor', '-X', '--gxditview', '-C', '--config-file', '-t', '--troff', '-T', '--troff-device')],
    shortValues: 'PpCLmMSrEeRs',
    abbreviations: true,
    environment: ['MANPAGER', 'PAGER', 'BROWSER', 'MANOPT', 'MANPATH', 'MANROFFOPT', 'GROFF_*'],
    configFiles: ['/etc/manpath.config', '~/.manpath'],
  },
  diff: { source: 'diff(1), GNU diffutils: no option runs a program other than `pr` (-l) or writes a file' },
  sdiff: { source: 'sdiff(1): -o writes the merge, --diff-program runs a program', options: [opt('writes', 'writes the merged file', '-o', '--output'), opt('runs', 'runs the program it is given', '--diff-program')], abbreviations: true },
  diff3: { source: 'diff3(1): --diff-program runs a program', options: [opt('runs', 'runs the program it is given', '--diff-program')], abbreviations: true },
  jq: { source: 'jq(1): reads files and the environment, runs and writes nothing' },
  yq: { source: 'yq(1): -i/--inplace writes the file', options: [opt('writes', 'edits the file in place', '-i', '--inplace')] },
  uniq: {
    source: 'uniq(1): a second operand is the output file',
    check: (args) => (args.filter((a) => a === null || (!a.startsWith('-') && a !== '')).length > 1 ? [{ kind: 'writes', what: 'OUTPUT', names: [], note: 'a second operand is the file uniq writes' }] : []),
  },
  file: { source: 'file(1): -C writes a compiled magic file', options: [opt('writes', 'writes a compiled magic file', '-C', '--compile')] },
  date: { source: 'date(1): -s/--set sets the system clock', options: [opt('writes', 'sets the system clock', '-s', '--set')], shortValues: 'dfrI', abbreviations: true },
  history: {
    source: 'bash(1) SHELL BUILTIN COMMANDS, history: -w and -a write the history file, -r and -n read one into the history list',
    options: [opt('writes', 'writes the history to a file', '-w', '-a'), opt('runs', 'reads a file into the history list', '-r', '-n')],
    environment: ['HISTFILE'],
  },
  npm: {
    source: 'npm(1), npm-run-script(7), npm-exec(1): run, test, start, exec, install (lifecycle scripts) run programs; script-shell; .npmrc',
    check: packageManager(['ls', 'list', 'll', 'la', 'outdated', 'view', 'info', 'show', 'v', 'why', 'explain', 'help', 'prefix', 'root', 'bin', 'audit', 'search', 'ping', 'whoami', 'doctor', 'fund', 'query'], ['view', 'info', 'show', 'v', 'outdated', 'audit', 'search', 'install', 'i', 'ci', 'add', 'update', 'exec', 'x', 'publish', 'ping', 'whoami', 'fund', 'doctor']),
    environment: ['npm_config_*', 'NPM_CONFIG_*', 'NODE_OPTIONS', 'NODE_PATH'],
    configFiles: ['.npmrc', '~/.npmrc', 'package.json'],
  },
  pnpm: {
    source: 'pnpm(1): an unknown subcommand runs a script or a binary of that name; dlx, exec, install (lifecycle scripts), .pnpmfile.cjs',
    check: packageManager(['ls', 'list', 'll', 'outdated', 'view', 'info', 'why', 'help', 'root', 'bin', 'audit', 'licenses', 'store'], ['view', 'info', 'outdated', 'audit', 'install', 'i', 'add', 'update', 'up', 'dlx', 'exec', 'publish']),
    environment: ['npm_config_*', 'NPM_CONFIG_*', 'PNPM_*', 'NODE_OPTIONS'],
    configFiles: ['.npmrc', '.pnpmfile.cjs', 'pnpm-workspace.yaml', 'package.json'],
  },
  yarn: {
    source: 'yarn(1): an unknown subcommand runs a script of that name; `yarnPath` in .yarnrc.yml runs another yarn',
    check: packageManager(['list', 'outdated', 'info', 'why', 'help', 'bin', 'audit', 'licenses', 'npm'], ['info', 'outdated', 'audit', 'install', 'add', 'upgrade', 'dlx', 'npm', 'publish']),
    environment: ['YARN_*', 'npm_config_*', 'NODE_OPTIONS'],
    configFiles: ['.yarnrc', '.yarnrc.yml', '.pnp.cjs', 'package.json'],
  },
  npx: { source: 'npx(1): runs a package\'s binary, downloading it if needed', inherent: [{ kind: 'runs', note: 'runs a package\'s binary' }, { kind: 'network', note: 'downloads packages' }], environment: ['npm_config_*', 'NPM_CONFIG_*'] },
  bun: { source: 'bun(1): run, x, install run programs', check: packageManager(['pm', 'outdated', 'help'], ['install', 'i', 'add', 'x', 'update', 'outdated']), environment: ['BUN_*', 'NODE_OPTIONS'], configFiles: ['bunfig.toml', 'package.json'] },
  cargo: {
    source: 'cargo(1): build, check, test, run, clippy, doc run build scripts and proc macros; --config sets build.rustc-wrapper and the like; .cargo/config.toml',
    check: (args) => {
      const out: Capability[] = [];
      const sub = args.find((a) => a === null || !a.startsWith('-'));
      if (sub === null) out.push({ kind: 'runs', what: 'a subcommand that is not static', names: [], note: 'a word that is not static may be any subcommand' });
      else if (sub !== undefined && !['tree', 'metadata', 'locate-project', 'pkgid', 'verify-project', 'version', 'help', 'search', 'read-manifest'].includes(sub) && !sub.startsWith('+')) {
        out.push({ kind: 'runs', what: sub, names: [sub], note: `\`cargo ${sub}\` runs the package's build scripts, tests or binaries (or a \`cargo-${sub}\` program)`, at: args.indexOf(sub) });
      }
      out.push(...optionMarks(args, [opt('runs', 'sets configuration (`build.rustc-wrapper`, `target.*.runner`)', '--config', '-Z')], {}));
      return out;
    },
    environment: ['CARGO_*', 'RUSTC', 'RUSTC_WRAPPER', 'RUSTC_WORKSPACE_WRAPPER', 'RUSTFLAGS', 'RUSTDOCFLAGS', 'RUSTUP_*'],
    configFiles: ['.cargo/config.toml', '.cargo/config', 'build.rs', 'rust-toolchain.toml', 'rust-toolchain', 'Cargo.toml'],
  },
  go: {
    source: 'go(1): build, test, run, generate, install run programs (cgo, -toolexec, -exec, //go:generate); go.mod\'s toolchain line downloads and runs a toolchain; go env -w',
    check: (args) => {
      const out: Capability[] = [];
      const sub = args.find((a) => a === null || !a.startsWith('-'));
      if (sub === null) out.push({ kind: 'runs', what: 'a subcommand that is not static', names: [], note: 'a word that is not static may be any subcommand' });
      else if (sub !== undefined && !['version', 'env', 'list', 'doc', 'help'].includes(sub)) out.push({ kind: 'runs', what: sub, names: [sub], note: `\`go ${sub}\` compiles and runs code, or changes the module`, at: args.indexOf(sub) });
      out.push(...optionMarks(args, [opt('runs', 'runs the program it is given', '-toolexec', '-exec', '-vettool', '-overlay'), opt('writes', 'writes the go environment file', '-w', '-u')], { wordOptions: true }));
      return out;
    },
    environment: ['GO*', 'CGO_*', 'CC', 'CXX'],
    configFiles: ['go.mod', 'go.work', '~/.config/go/env'],
  },
  make: { source: 'make(1): runs the recipes of the Makefile (and `$(shell …)` even with -n)', inherent: [{ kind: 'runs', note: 'runs the Makefile\'s recipes' }], environment: ['MAKEFLAGS', 'MAKEFILES', 'SHELL'], configFiles: ['Makefile', 'makefile', 'GNUmakefile'] },
  pip: {
    source: 'pip(1): install, download, wheel build packages (setup.py, build backends) and reach the index',
    check: packageManager(['list', 'show', 'freeze', 'check', 'help', 'config', 'debug', 'inspect', 'hash', 'cache', 'index', 'search'], ['install', 'download', 'wheel', 'index', 'search']),
    environment: ['PIP_*', 'PYTHONPATH'],
    configFiles: ['pip.conf', 'pip.ini', 'setup.py', 'pyproject.toml'],
  },
  python: { source: `${GTFO('python')}python(1): -c runs code, -m runs a module, no file: the program on standard input`, check: interpreter(['-c', '-m'], ['-W', '-X', '-Q'], 'runs the Python code it is given'), environment: ['PYTHON*'] },
  node: {
    source: `${GTFO('node')}node(1): -e/--eval, -p/--print run code, -r/--require, --import, --loader load modules, --env-file reads NODE_OPTIONS, --inspect listens`,
    check: interpreter(['-e', '--eval', '-p', '--print', '-r', '--require', '--import', '--loader', '--experimental-loader', '--env-file', '-i', '--interactive', '--inspect', '--inspect-brk'], ['-C', '--conditions', '--title'], 'runs the JavaScript it is given (or loads a module)'),
    environment: ['NODE_OPTIONS', 'NODE_PATH'],
  },
  ruby: { source: `${GTFO('ruby')}ruby(1): -e runs code, -r requires a library`, check: interpreter(['-e', '-r', '-x', '-n', '-p', '-i'], ['-I', '-C', '-E', '-F'], 'runs the Ruby code it is given'), environment: ['RUBYOPT', 'RUBYLIB'] },
  perl: { source: `${GTFO('perl')}perl(1): -e/-E run code, -M/-m load modules, -i edits in place`, check: interpreter(['-e', '-E', '-M', '-m', '-i', '-x', '-n', '-p'], ['-I', '-C', '-l', '-0', '-F'], 'runs the Perl code it is given'), environment: ['PERL5OPT', 'PERL5LIB', 'PERLLIB'] },
  docker: {
    source: 'docker(1): run, exec, build, compose up and the like run containers; -H/--context reach another daemon',
    check: (args) => {
      const out: Capability[] = [];
      const words = args.filter((a) => a === null || !a.startsWith('-'));
      const [a, b] = words;
      const read = new Set(['ps', 'images', 'logs', 'inspect', 'version', 'info', 'top', 'port', 'diff', 'history', 'events', 'stats']);
      const group = new Set(['container', 'image', 'network', 'volume', 'context', 'compose', 'system']);
      const groupRead = new Set(['ls', 'list', 'ps', 'logs', 'inspect', 'history', 'config', 'images', 'top', 'port', 'df', 'info', 'version']);
      const ok = a !== null && a !== undefined && (read.has(a) || (group.has(a) && b !== null && b !== undefined && groupRead.has(b)));
      if (a !== undefined && !ok) out.push({ kind: 'runs', what: a === null ? '…' : a, names: a === null ? [] : [a], note: 'runs or changes containers, images or the daemon (containers run what their image says)', at: args.indexOf(a) });
      out.push(...optionMarks(args, [opt('network', 'reaches another daemon (and `ssh://` runs ssh)', '-H', '--host', '--context', '-c', '--config')], {}));
      return out;
    },
    environment: ['DOCKER_*', 'COMPOSE_*'],
    configFiles: ['~/.docker/config.json', 'docker-compose.yml', 'compose.yaml', 'Dockerfile'],
  },
  gh: {
    source: 'gh(1): every subcommand reaches GitHub; api sends any request; aliases (`alias set --shell`) and extensions run programs',
    check: (args) => {
      const words = args.filter((a) => a === null || !a.startsWith('-'));
      const [a, b] = words;
      const out: Capability[] = [];
      if (a === undefined) return out;
      out.push({ kind: 'network', what: a ?? '…', names: a ? [a] : [], note: '`gh` reaches GitHub', at: args.indexOf(a) });
      const read: Record<string, readonly string[]> = { pr: ['list', 'view', 'status', 'checks', 'diff'], issue: ['list', 'view', 'status'], run: ['list', 'view'], repo: ['view', 'list'], release: ['list', 'view'], auth: ['status'], workflow: ['list', 'view'], search: ['repos', 'issues', 'prs', 'code', 'commits'] };
      if (a === null || !(a in read) || b === null || b === undefined || !read[a]!.includes(b)) {
        out.push({ kind: 'runs', what: a === null ? '…' : b ? `${a} ${b}` : a, names: a === null ? [] : [b ?? a], note: 'changes something on GitHub, runs an alias or extension, or sends any request (`api`)', at: b === undefined ? args.indexOf(a) : args.indexOf(b) });
      }
      return out;
    },
    environment: ['GH_*', 'BROWSER', 'PAGER', 'GIT_EDITOR', 'EDITOR', 'VISUAL'],
    configFiles: ['~/.config/gh/config.yml'],
  },
  curl: {
    source: `${GTFO('curl')}curl(1): -o/-O/-D/-c/--trace/--stderr/--libcurl write files, -K/--config reads options, @FILE and -T upload a local file, --unix-socket reaches a local daemon`,
    inherent: [{ kind: 'network', note: 'sends requests' }],
    options: [
      opt('writes', 'writes a file', '-o', '--output', '-O', '--remote-name', '--remote-name-all', '--output-dir', '-D', '--dump-header', '-c', '--cookie-jar', '--trace', '--trace-ascii', '--stderr', '--libcurl', '--etag-save', '--hsts', '--alt-svc', '--create-dirs'),
      opt('runs', 'reads its options from a file (which may write or upload anything)', '-K', '--config'),
      opt('network', 'uploads a local file', '-T', '--upload-file'),
      opt('runs', 'reaches a local daemon through a socket (the Docker API runs containers)', '--unix-socket', '--abstract-unix-socket'),
    ],
    shortValues: 'AbCdEFHmruwxXYyzKoDcTe',
    abbreviations: true,
    check: (args) => (args.some((a) => a !== null && /^@|=@|^-[dF]@/.test(a)) ? [{ kind: 'network', what: '@FILE', names: ['@'], note: '`@FILE` sends a local file' }] : []),
    configFiles: ['~/.curlrc', '$CURL_HOME/.curlrc'],
    environment: ['CURL_HOME', 'SSLKEYLOGFILE'],
  },
  wget: {
    source: `${GTFO('wget')}wget(1): writes what it downloads; -O/-o/-a write files, -e/--execute runs wgetrc commands, --use-askpass runs a program`,
    inherent: [{ kind: 'network', note: 'downloads' }, { kind: 'writes', note: 'writes what it downloads' }],
    options: [
      opt('runs', 'runs wgetrc commands or a program', '-e', '--execute', '--use-askpass', '--config'),
      opt('writes', 'writes a file', '-O', '--output-document', '-o', '--output-file', '-a', '--append-output', '-P', '--directory-prefix'),
      opt('network', 'uploads a local file', '--post-file', '--body-file'),
    ],
    shortValues: 'eOoaPiBtTwQlAR',
    abbreviations: true,
    environment: ['WGETRC'],
    configFiles: ['~/.wgetrc', '/etc/wgetrc'],
  },
  rsync: {
    source: `${GTFO('rsync')}rsync(1): -e/--rsh runs a remote shell program, --rsync-path runs a program on the remote`,
    inherent: [{ kind: 'writes', note: 'writes the copies' }, { kind: 'network', note: 'copies to and from other machines' }],
    options: [opt('runs', 'runs the program it is given', '-e', '--rsh', '--rsync-path'), opt('writes', 'writes a log or batch file', '--log-file', '--write-batch', '--only-write-batch')],
    abbreviations: true,
    environment: ['RSYNC_RSH', 'RSYNC_CONNECT_PROG'],
  },
  ssh: {
    source: `${GTFO('ssh')}ssh(1), ssh_config(5): -o ProxyCommand/LocalCommand/KnownHostsCommand/Match exec run programs, -F reads a configuration, -E writes a log`,
    inherent: [{ kind: 'network', note: 'connects to another machine and runs commands there' }],
    options: [opt('runs', 'sets options (ProxyCommand, LocalCommand) or reads a configuration that runs programs', '-o', '-F', '-J'), opt('writes', 'writes a log file', '-E')],
    shortValues: 'BbcDEeFIiJLlmOopQRSWw',
    configFiles: ['~/.ssh/config', '/etc/ssh/ssh_config'],
    environment: ['SSH_ASKPASS', 'SSH_ASKPASS_REQUIRE'],
  },
  scp: { source: `${GTFO('scp')}scp(1): -S runs a program, -o/-F as ssh`, inherent: [{ kind: 'network', note: 'copies to other machines' }], options: [opt('runs', 'runs the program it is given, or sets ssh options that do', '-S', '-o', '-F', '-J')], shortValues: 'cDFiJlOoPSX' },
  xxd: { source: `${GTFO('xxd')}xxd(1): a second operand is the output file`, check: (args) => (args.filter((a) => a === null || !a.startsWith('-')).length > 1 ? [{ kind: 'writes', what: 'OUTFILE', names: [], note: 'a second operand is the file xxd writes' }] : []) },
  sudo: { source: 'sudo(8): runs its command as another user (root by default)', check: () => [{ kind: 'runs', what: 'sudo', names: [], note: 'runs the command with another user\'s privileges' }] },
  doas: { source: 'doas(1): runs its command as another user', check: () => [{ kind: 'runs', what: 'doas', names: [], note: 'runs the command with another user\'s privileges' }] },
  tee: { source: 'tee(1): writes its operands', inherent: [{ kind: 'writes', note: 'writes every file it is given' }] },
  time: { source: 'time(1), GNU time: -o/--output writes a file', options: [opt('writes', 'writes its report to a file', '-o', '--output')], abbreviations: true },
  strace: { source: 'strace(1): -o writes a file', options: [opt('writes', 'writes the trace to a file', '-o', '--output')] },
  ag: { source: 'ag(1): --pager runs a program', options: [opt('runs', 'runs the pager it is given', '--pager')] },
  bat: { source: 'bat(1): --pager runs a program; BAT_PAGER, BAT_CONFIG_PATH', options: [opt('runs', 'runs the pager it is given', '--pager')], environment: ['BAT_PAGER', 'BAT_CONFIG_PATH', 'PAGER'], configFiles: ['~/.config/bat/config'] },
  fzf: { source: 'fzf(1): --preview and --bind execute() run programs', options: [opt('runs', 'runs the program it is given', '--preview', '--bind')], environment: ['FZF_DEFAULT_COMMAND', 'FZF_DEFAULT_OPTS'] },
  zip: { source: `${GTFO('zip')}zip(1): -TT/--unzip-command runs a program`, inherent: [{ kind: 'writes', note: 'writes the archive' }], options: [opt('runs', 'runs the program it is given', '-TT', '--unzip-command')], wordOptions: true },
  kubectl: {
    source: 'kubectl(1): exec, run, apply and the like change or run in the cluster; --kubeconfig can name an exec credential plugin',
    inherent: [{ kind: 'network', note: 'talks to the cluster' }],
    check: (args) => {
      const sub = args.find((a) => a === null || !a.startsWith('-'));
      const out: Capability[] = [];
      if (sub !== undefined && (sub === null || !['get', 'describe', 'logs', 'explain', 'api-resources', 'api-versions', 'version', 'top', 'cluster-info'].includes(sub))) {
        out.push({ kind: 'runs', what: sub ?? '…', names: sub ? [sub] : [], note: 'changes the cluster or runs in it', at: args.indexOf(sub) });
      }
      out.push(...optionMarks(args, [opt('runs', 'reads a configuration that can name a credential plugin to run', '--kubeconfig')], {}));
      return out;
    },
    environment: ['KUBECONFIG'],
    configFiles: ['~/.kube/config'],
  },
};

/** Every configuration file the table names (for the protected paths). */
export const CONFIG_FILES: readonly string[] = [...new Set(Object.values(CAPABILITIES).flatMap((e) => e.configFiles ?? []))];

/* ----------------------------------------------------------------------------------------- */

function fromOption(o: OptionCapability, as?: string): Capability {
  return { kind: o.kind, what: as ?? o.names[0]!, names: o.names, note: o.note };
}

function isPrefixOf(word: string, long: string, min: number): boolean {
  return word.length >= min && word.startsWith('--') && long.startsWith(word);
}

/**
 * The marked options among `args`, read as the program reads them: clusters of short options
 * (`-Io`: `-o` is there, unless a letter before it takes the rest as its value), long options
 * with `=VALUE`, and abbreviations where the program takes them. A word that is not static may be
 * any marked option.
 */
export function optionMarks(
  args: readonly (string | null)[],
  options: readonly OptionCapability[],
  how: { shortValues?: string; abbreviations?: boolean; wordOptions?: boolean; oldStyle?: boolean },
): Capability[] {
  const found = new Map<OptionCapability, string>();
  const words = new Map<OptionCapability, string>();
  const shortOf = new Map<string, OptionCapability>();
  const longs: [string, OptionCapability][] = [];
  for (const o of options) {
    for (const n of o.names) {
      if (/^-[^-]$/.test(n) && !how.wordOptions) shortOf.set(n[1]!, o);
      else longs.push([n, o]);
    }
  }
  let word = '';
  const cluster = (letters: string, stop: boolean) => {
    for (const ch of letters) {
      const o = shortOf.get(ch);
      if (o && !found.has(o)) {
        found.set(o, `-${ch}`);
        words.set(o, word);
      }
      if (stop && (how.shortValues ?? '').includes(ch)) return;
    }
  };
  args.forEach((a, index) => {
    if (a === null) {
      for (const o of options) if (!found.has(o)) found.set(o, o.names[0]!);
      return;
    }
    word = a;
    if (index === 0 && how.oldStyle && /^[A-Za-z]+$/.test(a)) {
      cluster(a, false);
      return;
    }
    if (!a.startsWith('-') || a === '-' || a === '--') return;
    if (how.wordOptions) {
      for (const [n, o] of longs) if (a === n && !found.has(o)) found.set(o, n);
      if (!a.startsWith('--')) return;
    }
    if (a.startsWith('--')) {
      const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
      for (const [n, o] of longs) {
        if (found.has(o)) continue;
        if (name === n || (how.abbreviations && n.startsWith('--') && name.length > 2 && n.startsWith(name))) found.set(o, n);
      }
      return;
    }
    if (!how.wordOptions) {
      for (const [n, o] of longs) if (!n.startsWith('--') && a === n && !found.has(o)) found.set(o, n); // `-TT`
      cluster(a.slice(1), true);
    }
  });
  return [...found].map(([o, as]) => {
    const w = words.get(o);
    return w !== undefined && w !== as ? { ...fromOption(o, as), word: w } : fromOption(o, as);
  });
}

/** The capabilities `program` with `args` uses that the table marks (inherent ones not included). */
export function capabilitiesOf(program: string, args: readonly (string | null)[]): Capability[] {
  const key = program.slice(program.lastIndexOf('/') + 1).toLowerCase();
  const e = entryOf(key);
  if (!e) return [];
  const out = e.options ? optionMarks(args, e.options, e) : [];
  if (e.check) out.push(...e.check(args));
  return out;
}

/** The table's entry for a program name (its base name, any letter case; `python3.12` is `python`). */
export function entryOf(program: string): ProgramCapabilities | undefined {
  const key = program.slice(program.lastIndexOf('/') + 1).toLowerCase();
  if (Object.hasOwn(CAPABILITIES, key)) return CAPABILITIES[key];
  const alias = /^(python|node|ruby|perl|pip)[0-9.]*$/.exec(key) ?? (key === 'nodejs' ? ['', 'node'] : null);
  return alias ? CAPABILITIES[alias[1]!] : undefined;
}

/**
 * Whether a rule names a capability: one of the capability's spellings is one of the rule's own
 * further words (`[git, push]`, `[sort, -o]`), or stands in its `args` pattern as literal text,
 * not inside a longer option name (`args: '--output=[^ ]+'` names `--output`; `-I ?[^ ]+` names
 * no `-o`). Spelling an option in the rule is taking it on knowingly; a pattern that merely
 * happens to match it (`-[a-z]+`, `.*`) does not.
 */
export function namesCapability(rule: { readonly words: readonly (readonly string[])[]; readonly args?: string | undefined }, cap: Capability): boolean {
  for (const name of cap.word !== undefined ? [...cap.names, cap.word] : cap.names) {
    if (cap.at !== undefined ? rule.words[cap.at]?.includes(name) === true : rule.words.some((alts) => alts.includes(name))) return true;
    if (rule.args !== undefined && literalIn(rule.args, name)) return true;
  }
  return false;
}

function literalIn(source: string, name: string): boolean {
  let at = source.indexOf(name);
  while (at >= 0) {
    const before = source[at - 1];
    const after = source[at + name.length];
    const okBefore = before === undefined || !/[A-Za-z0-9_-]/.test(before);
    const okAfter = after === undefined || !/[A-Za-z0-9_-]/.test(after);
    if (okBefore && okAfter) return true;
    at = source.indexOf(name, at + 1);
  }
  return false;
}
