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
  /** Words between the options and the command (`timeout DURATION`, `chroot NEWROOT`). */
  readonly positionals?: number;
  /** `NAME=VALUE` words may stand before the command (`env`). */
  readonly assignments?: boolean;
  /** Options after which no command runs (`command -v x` looks `x` up). */
  readonly noCommand?: readonly string[];
  /** Options whose meaning the extraction does not model (`env -S`): the command is unknown. */
  readonly refuse?: readonly string[];
  /** The command is the rest of the words joined by spaces and run by a shell (`watch`). */
  readonly script?: boolean;
  /** Single-letter flags may be grouped (`-iu`); default true. */
  readonly grouped?: boolean;
}

/** The built-in table (README "Wrapper table"). A policy may add or replace entries. */
export const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  env: {
    flags: ['-i', '-0', '--null', '--ignore-environment', '-v', '--debug', '-'],
    options: ['-u', '--unset', '-C', '--chdir', '--block-signal', '--default-signal', '--ignore-signal'],
    assignments: true,
    refuse: ['-S', '--split-string'],
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
  xargs: {
    flags: ['-0', '--null', '-r', '--no-run-if-empty', '-t', '--verbose', '-p', '--interactive', '-x', '--exit', '-o', '--open-tty'],
    options: ['-a', '--arg-file', '-d', '--delimiter', '-E', '-e', '--eof', '-I', '-i', '--replace', '-L', '-l', '--max-lines', '-n', '--max-args', '-P', '--max-procs', '-s', '--max-chars', '--process-slot-var'],
    grouped: false,
  },
  busybox: {},
  toybox: {},
  chroot: { options: ['--userspec', '--groups'], flags: ['--skip-chdir'], positionals: 1 },
  taskset: { flags: ['-a', '--all-tasks'], positionals: 1, noCommand: ['-p', '--pid'] },
  flock: { flags: ['-s', '--shared', '-x', '--exclusive', '-n', '--nonblock', '-o', '--close', '-u', '--unlock'], options: ['-w', '--timeout', '-E', '--conflict-exit-code'], positionals: 1, refuse: ['-c', '--command'] },
  watch: { flags: ['-d', '-t', '--no-title', '-b', '--beep', '-e', '--errexit', '-g', '--chgexit', '-c', '--color', '-x', '--exec', '-p', '--precise'], options: ['-n', '--interval'], script: true },
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
 * Variables whose value changes which program runs or makes a program run another one: an
 * assignment to one of them (prefix, statement, `export`, `env NAME=`) makes the command unknown.
 */
export const DANGEROUS_VARIABLES: ReadonlySet<string> = new Set([
  'PATH', 'IFS', 'BASH_ENV', 'ENV', 'PROMPT_COMMAND', 'PS0', 'PS1', 'PS2', 'PS4', 'SHELLOPTS', 'BASHOPTS', 'CDPATH',
  'LD_PRELOAD', 'LD_LIBRARY_PATH', 'LD_AUDIT', 'DYLD_INSERT_LIBRARIES', 'DYLD_LIBRARY_PATH',
  'GIT_SSH', 'GIT_SSH_COMMAND', 'GIT_EXTERNAL_DIFF', 'GIT_PAGER', 'GIT_EDITOR', 'GIT_ASKPASS', 'GIT_EXEC_PATH',
  'GIT_CONFIG', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT', 'GIT_PROXY_COMMAND',
  'GIT_TEMPLATE_DIR', 'GIT_DIR', 'GIT_WORK_TREE', 'SSH_ASKPASS', 'PAGER', 'MANPAGER', 'EDITOR', 'VISUAL', 'BROWSER',
  'NODE_OPTIONS', 'NODE_PATH', 'PYTHONSTARTUP', 'PYTHONPATH', 'PYTHONHOME', 'PERL5OPT', 'PERL5LIB', 'RUBYOPT', 'RUBYLIB',
  'LESSOPEN', 'LESSCLOSE', 'TAR_OPTIONS', 'GREP_OPTIONS', 'ZDOTDIR', 'HOME', 'XDG_CONFIG_HOME', 'npm_config_script_shell',
]);

/** Builtins whose `NAME=VALUE` arguments assign variables. */
export const DECLARATIONS: ReadonlySet<string> = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);
