/**
 * Command rules as a policy writes them, and their compilation (the regexes through the engine's
 * RE2). Apart from the judge so that a program can check a policy's command rules without loading
 * the shell parser (`verdict hook` for a call to a tool that carries no shell command).
 */
import { commandAlternatives, compileRegex, type CompiledRegex } from '@verdict/engine';
import { isShellVariable, type WrapperSpec } from './wrappers.ts';
import { SHELL_NAMES } from './screen.ts';

export type CommandWord = string | readonly string[];

/** One command rule as written in a policy. At least one of `command` and `redirect`. */
export interface CommandRule {
  /** An argv prefix: each element a word or a list of alternatives. */
  readonly command?: readonly CommandWord[];
  /** RE2 over the words after the prefix, joined by single spaces, matched whole. */
  readonly args?: string;
  /** RE2 over a write redirection's target, matched whole. */
  readonly redirect?: string;
  readonly reason?: string;
}

export type ShellDecision = 'allow' | 'ask' | 'deny';
export type RuleList = 'allow' | 'ask' | 'deny';

export interface CommandRules {
  readonly allow?: readonly CommandRule[];
  readonly ask?: readonly CommandRule[];
  readonly deny?: readonly CommandRule[];
  /** The decision for what cannot be modelled: `deny` (the default) or `ask`. */
  readonly unknown?: 'ask' | 'deny';
  /** Wrappers added to the built-in table. */
  readonly wrappers?: Readonly<Record<string, WrapperSpec>>;
  /** Variables the policy calls harmless to assign (besides the built-in ones); never a shell's own or the capability table's. */
  readonly environment?: readonly string[];
  /** The shells that may run the text: `bash`, `zsh`, `sh`, or `any` (absent: any). */
  readonly shells?: readonly string[];
}

export interface CompiledCommandRule {
  readonly list: RuleList;
  readonly index: number;
  readonly rule: CommandRule;
  readonly command: readonly (readonly string[])[] | undefined;
  readonly args: CompiledRegex | undefined;
  readonly redirect: CompiledRegex | undefined;
}

export interface CompiledCommandRules {
  readonly allow: readonly CompiledCommandRule[];
  readonly ask: readonly CompiledCommandRule[];
  readonly deny: readonly CompiledCommandRule[];
  readonly unknown: 'ask' | 'deny';
  readonly wrappers: Readonly<Record<string, WrapperSpec>>;
  readonly environment: readonly string[];
  readonly shells: readonly string[] | undefined;
}

export interface RuleError {
  readonly list: RuleList;
  readonly index: number;
  readonly key: 'command' | 'args' | 'redirect' | 'environment' | 'shells';
  readonly message: string;
}

export type CompileResult = { ok: true; rules: CompiledCommandRules } | { ok: false; errors: RuleError[] };

/** Compiles command rules (their regexes through the engine's RE2). */
export function compileCommandRules(rules: CommandRules): CompileResult {
  const errors: RuleError[] = [];
  const compileList = (list: RuleList): CompiledCommandRule[] =>
    (rules[list] ?? []).map((rule, index) => {
      const regex = (key: 'args' | 'redirect'): CompiledRegex | undefined => {
        const p = rule[key];
        if (p === undefined) return undefined;
        const r = compileRegex(p);
        if (!r.ok) {
          errors.push({ list, index, key, message: r.error });
          return undefined;
        }
        return r.regex;
      };
      let command: (readonly string[])[] | undefined;
      if (rule.command !== undefined) {
        command = commandAlternatives(rule.command);
        if (command.length === 0 || command.some((alts) => alts.length === 0)) {
          errors.push({ list, index, key: 'command', message: 'a command rule needs at least one word, and each list of alternatives at least one' });
        }
      } else if (rule.redirect === undefined) {
        errors.push({ list, index, key: 'command', message: 'a command rule needs `command` or `redirect`' });
      }
      if (rule.args !== undefined && rule.command === undefined) {
        errors.push({ list, index, key: 'args', message: '`args` needs `command`' });
      }
      return { list, index, rule, command, args: regex('args'), redirect: regex('redirect') };
    });
  const environment = rules.environment ?? [];
  environment.forEach((name, index) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) errors.push({ list: 'allow', index, key: 'environment', message: `\`${name}\` is not a variable name` });
    else if (isShellVariable(name)) errors.push({ list: 'allow', index, key: 'environment', message: `\`${name}\` is never harmless: the shell or a program gives it meaning (it can change what a command runs)` });
  });
  (rules.shells ?? []).forEach((name, index) => {
    if (!SHELL_NAMES.includes(name)) errors.push({ list: 'allow', index, key: 'shells', message: `\`${name}\` is not a shell Verdict reads for: write \`bash\`, \`zsh\`, \`sh\` or \`any\`` });
  });
  if (rules.shells !== undefined && rules.shells.length === 0) errors.push({ list: 'allow', index: 0, key: 'shells', message: '`shells` names no shell: write `bash`, `zsh`, `sh` or `any`' });
  const compiled = { allow: compileList('allow'), ask: compileList('ask'), deny: compileList('deny'), unknown: rules.unknown ?? 'deny', wrappers: rules.wrappers ?? {}, environment, shells: rules.shells };
  return errors.length > 0 ? { ok: false, errors } : { ok: true, rules: compiled };
}

