import { CAPABILITIES } from './capabilities.ts';

/**
 * The wrapper table: programs that run another command given in their arguments. The extraction
 * looks through them (`timeout 5 rm x` executes `rm x`), keeps the wrapper as a layer of the
 * command it found (a deny or ask of the wrapper still matches), and refuses ("unknown") any option
 * of a wrapper that the table does not know: an unknown option may take a value, and then the
 * word taken for the command would be the wrong one.
 */

/** How one wrapper finds the command it runs. */
export interface WrapperSpec {
  /** Options that take no value (`-i`, `--foreground`). */
  readonly flags?: readonly string[];
  /** Options that take a value: the next word, or attached (`-n5`, `--signal=KILL`). */
  readonly options?: readonly string[];
  /**
   * Options whose value is optional and only ever attached (`xargs -l`, `-l5`, `--max-lines=5`):
   * the next word is never their value (`xargs -l rm x` runs `rm x`).
   */
  readonly optional?: readonly string[];
  /** Words between the options and the command (`timeout DURATION`, `chroot NEWROOT`). */
  readonly positionals?: number;
  /** `NAME=VALUE` words may stand before the command (`env`). */
  readonly assignments?: boolean;
  /** Options after which no command runs (`command -v x` looks `x` up). */
  readonly noCommand?: readonly string[];
  /** Options whose meaning the extraction does not model (`sudo -e`): the command is unknown. */
  readonly refuse?: readonly string[];
  /**
   * Options whose value the wrapper splits into words that it reads as more of its own arguments
   * (`env -S 'ls -l'` runs `ls -l`): read only when the value is static and made of words of
   * `SPLIT_SAFE` characters separated by single-space runs, which every splitter reads alike;
   * otherwise (quotes, `\`, `$`, `#`, tabs) the command is unknown.
   */
  readonly split?: readonly string[];
  /** The command is the rest of the words joined by spaces and run by a shell (`watch`). */
  readonly script?: boolean;
  /** Single-letter flags may be grouped (`-iu`); default true. */
  readonly grouped?: boolean;
}

/** The built-in table (README "Wrapper table"). A policy may add or replace entries. */
export const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  // GNU coreutils env(1) and BSD env(1): `-` is `-i`; the signal options take an optional value
  // (`--default-signal` alone, or `--default-signal=INT`), never the next word.
  env: {
    flags: ['-i', '-0', '--null', '--ignore-environment', '-v', '--debug', '-', '--block-signal', '--default-signal', '--ignore-signal'],
    options: ['-u', '--unset', '-C', '--chdir'],
    assignments: true,
    split: ['-S', '--split-string'],
  },
  command: { flags: ['-p'], noCommand: ['-v', '-V'] },
  builtin: {},
  exec: { flags: ['-c', '-l'], options: ['-a'] },
  nohup: {},
  nice: { options: ['-n', '--adjustment'] },
  ionice: { flags: ['-t', '--ignore'], options: ['-c', '--class', '-n', '--classdata'], noCommand: ['-p', '--pid', '-P', '--pgid', '-u', '--uid'] },
  time: { flags: ['-p', '-v', '--verbose', '-a', '--append', '-q', '--quiet', '--portability'], options: ['-f', '--format', '-o', '--output'] },
  timeout: { flags: ['--foreground', '--preserve-status', '-v', '--verbose'], options: ['-s', '--signal', '-k', '--kill-after'], positionals: 1 },
  stdbuf: { options: ['-i', '--input', '-o', '--output', '-e', '--error'] },
  setsid: { flags: ['-c', '--ctty', '-f', '--fork', '-w', '--wait'] },
  sudo: {
    flags: ['-A', '--askpass', '-b', '--background', '-E', '--preserve-env', '-H', '--set-home', '-n', '--non-interactive', '-P', '--preserve-groups', '-S', '--stdin', '-k', '--reset-timestamp', '-i', '--login', '-s', '--shell', '-B', '--bell', '-N', '--no-update'],
    options: ['-u', '--user', '-g', '--group', '-h', '--host', '-p', '--prompt', '-C', '--close-from', '-D', '--chdir', '-r', '--role', '-t', '--type', '-T', '--command-timeout', '-U', '--other-user', '-R', '--chroot'],
    noCommand: ['-l', '--list', '-v', '--validate', '-K', '--remove-timestamp', '-V', '--version'],
    refuse: ['-e', '--edit'],
  },
  doas: { flags: ['-n', '-s'], options: ['-u', '-a'], noCommand: ['-L'], refuse: ['-C'] },
  // GNU findutils xargs(1): `-e[EOF]`, `-i[R]`, `-l[N]` and `--eof[=EOF]`, `--replace[=R]`,
  // `--max-lines[=N]` take their value only attached.
  xargs: {
    flags: ['-0', '--null', '-r', '--no-run-if-empty', '-t', '--verbose', '-p', '--interactive', '-x', '--exit', '-o', '--open-tty'],
    options: ['-a', '--arg-file', '-d', '--delimiter', '-E', '-I', '-L', '-n', '--max-args', '-P', '--max-procs', '-s', '--max-chars', '--process-slot-var'],
    optional: ['-e', '--eof', '-i', '--replace', '-l', '--max-lines'],
    grouped: false,
  },
  busybox: {},
  toybox: {},
  chroot: { options: ['--userspec', '--groups'], flags: ['--skip-chdir'], positionals: 1 },
  taskset: { flags: ['-a', '--all-tasks'], positionals: 1, noCommand: ['-p', '--pid'] },
  flock: { flags: ['-s', '--shared', '-x', '--exclusive', '-n', '--nonblock', '-o', '--close', '-u', '--unlock'], options: ['-w', '--timeout', '-E', '--conflict-exit-code'], positionals: 1, refuse: ['-c', '--command'] },
  // `watch -x` runs its words as an argv, not as a script: not modelled.
  watch: { flags: ['-d', '-t', '--no-title', '-b', '--beep', '-e', '--errexit', '-g', '--chgexit', '-c', '--color', '-p', '--precise'], options: ['-n', '--interval'], refuse: ['-x', '--exec'], script: true },
  strace: { flags: ['-f', '-ff', '-c', '-q', '-v', '-t', '-tt', '-T', '-y'], options: ['-e', '-o', '-s', '-p', '-u'] },
  caffeinate: { flags: ['-d', '-i', '-m', '-s', '-u'], options: ['-t', '-w'] },
  unbuffer: {},
  'dbus-run-session': {},
};

/**
 * The wrapper table a policy's commands are read with: the built-in one, with the policy's own
 * `wrappers:` added or replacing entries, names in lower case (they are looked up by `programKey`).
 */
export function wrapperTable(extra: Readonly<Record<string, WrapperSpec>> = {}): Readonly<Record<string, WrapperSpec>> {
  const table: Record<string, WrapperSpec> = { ...WRAPPERS };
  for (const [name, spec] of Object.entries(extra)) table[name.toLowerCase()] = spec;
  return table;
}

/** Shells whose `-c SCRIPT` is parsed as a script of its own. */
export const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'yash', 'posh', 'rbash']);

/**
 * The environment as an allow list (threat model, invariant 3): an assignment makes its command
 * unknown unless the variable is one of these, known to change no program's code, files or network
 * (a deny list of "dangerous" names is always one name short), or the policy names it
 * (`environment:`). Locale, time zone, terminal and colour, CI markers, and a few build and log
 * switches that select nothing to run.
 */
export const HARMLESS_VARIABLES: ReadonlySet<string> = new Set([
  'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'LC_COLLATE', 'LC_MESSAGES', 'LC_NUMERIC', 'LC_TIME', 'LC_MONETARY', 'LC_PAPER', 'LC_NAME', 'LC_ADDRESS',
  'LC_TELEPHONE', 'LC_MEASUREMENT', 'LC_IDENTIFICATION', 'TZ', 'TERM', 'COLORTERM', 'NO_COLOR', 'FORCE_COLOR', 'CLICOLOR', 'CLICOLOR_FORCE', 'COLUMNS',
  'LINES', 'CI', 'NODE_ENV', 'RUST_BACKTRACE', 'RUST_LOG', 'PYTHONUNBUFFERED', 'PYTHONDONTWRITEBYTECODE', 'PYTHONIOENCODING', 'TIME_STYLE',
]);

/**
 * Variables the shell itself gives meaning to, or that make a program run code, which a policy can
 * never call harmless: the shells' own (`PATH`, `IFS`, `ENV`, `BASH_ENV`, `BASH_CMDS`, `BASH_ALIASES`,
 * prompts, `HOME`, zsh's `functions`, `commands`, `aliases` and the other zsh/parameter arrays), the
 * loaders' (`LD_*`, `DYLD_*`), and every variable of the capability table's entries (`GIT_*`,
 * `RIPGREP_CONFIG_PATH`, `NODE_OPTIONS`, …; capabilities.ts).
 */
export const SHELL_VARIABLES: readonly string[] = [
  'PATH', 'IFS', 'ENV', 'BASH_ENV', 'BASH_*', 'SHELLOPTS', 'BASHOPTS', 'PROMPT_COMMAND', 'PS0', 'PS1', 'PS2', 'PS3', 'PS4', 'CDPATH', 'HOME', 'ZDOTDIR',
  'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CONFIG_DIRS', 'TMPDIR', 'SHELL', 'PAGER', 'EDITOR', 'VISUAL', 'BROWSER', 'FPATH', 'MAILPATH', 'LD_*', 'DYLD_*', 'GLOBIGNORE', 'FIGNORE',
  'HISTFILE', 'HISTCONTROL', 'INPUTRC', 'EXECIGNORE', 'POSIXLY_CORRECT', 'FUNCNEST', 'OPTIND', 'OPTARG', 'TIMEFORMAT', 'READLINE_LINE',
  // zsh: zshparam(1) and the zsh/parameter module's arrays (zshmodules(1)).
  'path', 'fpath', 'cdpath', 'manpath', 'module_path', 'mailpath', 'fignore', 'psvar', 'watch', 'prompt', 'histchars', 'aliases', 'galiases', 'saliases',
  'builtins', 'commands', 'functions', 'functions_source', 'options', 'parameters', 'modules', 'nameddirs', 'userdirs', 'reswords', 'patchars', 'dis_*',
  'jobdirs', 'jobstates', 'jobtexts', 'history', 'historywords', 'funcstack', 'funcfiletrace', 'funcsourcetrace', 'functrace', 'widgets', 'keymaps',
  'zsh_eval_context', 'precmd_functions', 'preexec_functions', 'chpwd_functions', 'periodic_functions', 'zshaddhistory_functions', 'zshexit_functions',
  'zsh_directory_name_functions', 'argv', 'status', 'pipestatus', 'signals', 'termcap', 'terminfo', 'sysparams', 'errnos', 'epochtime', 'mapfile', 'ZSH_*', 'ZLE_*',
  'NULLCMD', 'READNULLCMD', 'TMPPREFIX', 'PERIOD', 'KEYBOARD_HACK', 'WORDCHARS', 'STTY', 'TRAPDEBUG', 'TRAPEXIT', 'TRAPZERR', 'TRAPERR',
];

/**
 * Whether assigning `name` is harmless. `exported`: the assignment reaches the environment of the
 * programs run (a prefix `NAME=… cmd`, `export`, `declare -x`, `env NAME=…`); otherwise it sets a
 * shell variable (`NAME=…` alone, `local`, `read`, `printf -v`), which is harmless also when the
 * name is lower case and not one zsh gives meaning to (bash gives meaning to no lower-case name;
 * an upper-case one may already be in the environment, where the assignment changes it: `HOME=…`).
 * A subscripted name (`BASH_CMDS[ls]`, `a[$i]`) never is.
 */
export function harmlessVariable(name: string, exported: boolean, policy: ReadonlySet<string> = EMPTY): boolean {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return false;
  if (HARMLESS_VARIABLES.has(name)) return true;
  if (isShellVariable(name)) return false;
  if (policy.has(name)) return true;
  return !exported && /^[a-z_][a-z0-9_]*$/.test(name);
}

const EMPTY: ReadonlySet<string> = new Set();

/** Whether `name` is one of `SHELL_VARIABLES` or the capability table's variables (a `NAME_*` entry is a prefix). */
export function isShellVariable(name: string): boolean {
  return matchesNames(SHELL_VARIABLES, name) || capabilityVariables().some((n) => nameMatches(n, name));
}

let capVars: readonly string[] | undefined;
function capabilityVariables(): readonly string[] {
  return (capVars ??= Object.values(CAPABILITIES).flatMap((e) => e.environment ?? []));
}

function matchesNames(list: readonly string[], name: string): boolean {
  return list.some((n) => nameMatches(n, name));
}

function nameMatches(pattern: string, name: string): boolean {
  return pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : pattern === name;
}

/** Builtins whose `NAME=VALUE` arguments assign variables. */
export const DECLARATIONS: ReadonlySet<string> = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);
