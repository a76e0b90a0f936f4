import { parseArgs, type ParseArgsConfig } from 'node:util';
import { didYouMean } from '@verdict/engine';

export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** Advice printed under the message (`did you mean \`--format\`?`). */
  readonly help: string | undefined;
  constructor(message: string, help?: string) {
    super(message);
    this.help = help;
  }
}

/** `did you mean \`lint\`?` for a near miss of one of `names`, as `prefix` + name. */
export function suggestName(word: string, names: readonly string[], prefix = ''): string | undefined {
  const s = didYouMean(word, names);
  return s === undefined ? undefined : `did you mean \`${prefix}${s}\`?`;
}

/** `-` in place of a file: standard input, for every command that takes a policy file. */
export const STDIN_ARG = '-';
/**
 * Why `--policy -` cannot work for a command whose standard input carries something else (`eval`'s
 * requests, `hook`'s payload).
 */
export function policyFromStdinRefused(command: string, carries: string): string {
  return `\`verdict ${command} --policy -\` cannot read the policy from standard input: standard input carries ${carries}`;
}
export const POLICY_FROM_STDIN_HELP = 'save the policy to a file and pass its path to `--policy`';

export interface CommandIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  cwd: string;
  /** Whether stdout is a terminal (colours, progress bars). */
  isTTY: boolean;
  /** `--debug` was given (anywhere on the command line): stack traces, and what lint and fmt skipped and why. */
  debug?: boolean;
  /** The environment (`NO_COLOR`, `FORCE_COLOR`); default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(argv: string[], io: CommandIo): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

type OptionValue<T> = T extends { type: 'string' }
  ? T extends { multiple: true } ? string[] : string
  : T extends { multiple: true } ? boolean[] : boolean;

export interface Parsed<O extends Options> {
  values: { [K in keyof O]?: OptionValue<O[K]> } & { help?: boolean };
  positionals: string[];
}

/** parseArgs with strict checking, turning its exceptions into usage errors a person can read. */
export function parse<const O extends Options>(argv: string[], options: O, allowPositionals = true): Parsed<O> {
  const all = { ...options, help: { type: 'boolean', short: 'h' } } satisfies Options;
  try {
    return parseArgs({ args: joinNegativeValues(argv, options), options: all, allowPositionals, strict: true }) as unknown as Parsed<O>;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const unknown = /^Unknown option '(-{1,2})([^']*)'/.exec(message);
    if (unknown) {
      const [, dashes = '', name = ''] = unknown;
      const help = dashes === '--' ? suggestName(name.split('=')[0] ?? name, Object.keys(all), '--') : undefined;
      throw new UsageError(`unknown option \`${dashes}${name}\``, help);
    }
    throw new UsageError(message.replace(/\. To specify a positional argument.*$/s, ''));
  }
}

/**
 * `--runs -5` as `--runs=-5`: parseArgs refuses a value that starts with a dash ("ambiguous"), so a
 * negative number would never reach the command, which says what it wants (`--max-warnings -1` is
 * even meaningful, as in ESLint).
 */
function joinNegativeValues(argv: string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-[0-9]/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

export function write(stream: NodeJS.WritableStream, text: string): void {
  stream.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
}
