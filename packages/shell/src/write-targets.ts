/**
 * Write targets: the files a command writes, deletes, moves, links or changes, read from its argv
 * (threat model, invariant 4). One place, beside the capability table (`capabilities.ts`): the
 * protected paths (`@verdict/engine`'s `protect/`) read it through {@link shellWrites}. A target is
 * the word as written (relative to the command's working folder, `~` not expanded); `null` is a
 * target known only at run time (an expansion, a word whose place an expansion shifts, a script
 * that names its own files), which the protections read as any path at all.
 *
 * The table over-reads on purpose, as the capability table does: a word that may be a target is one.
 */
import { basename, extract, type Argv, type ExtractOptions } from './extract.ts';
import { sedScriptReadsOnly } from './capabilities.ts';

/** How a program's argv is read: which options take a value (so their value is not an operand). */
interface OptionShape {
  /** Short options that take a value (the rest of the cluster, or the next word). */
  readonly shortValues?: string;
  /** Long options that take a value (`--suffix=X` or `--suffix X`). */
  readonly longValues?: readonly string[];
  /** Short options whose value, if any, is the rest of the cluster only (`sed -i.bak`). */
  readonly attachedValues?: string;
}

interface ReadArgs {
  readonly operands: (string | null)[];
  /** Option values by option (`-t`, `--target-directory`): the last one given. */
  readonly values: Map<string, string | null>;
  /** Every option letter or long name seen (`-i`, `--in-place`). */
  readonly flags: Set<string>;
  /** A word was not static where an option could stand: the operands' places are not known. */
  readonly shifted: boolean;
}

function readArgs(args: readonly (string | null)[], shape: OptionShape): ReadArgs {
  const operands: (string | null)[] = [];
  const values = new Map<string, string | null>();
  const flags = new Set<string>();
  let shifted = false;
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === null) {
      // An expansion may be an option that takes the next word, or several words.
      if (!ended) shifted = true;
      operands.push(null);
      continue;
    }
    if (ended || !a.startsWith('-') || a === '-') {
      operands.push(a);
      continue;
    }
    if (a === '--') {
      ended = true;
      continue;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a : a.slice(0, eq);
      flags.add(name);
      const long = (shape.longValues ?? []).find((l) => l === name || (name.length > 3 && l.startsWith(name)));
      if (long !== undefined) {
        flags.add(long);
        values.set(long, eq >= 0 ? a.slice(eq + 1) : (args[++i] ?? null));
      }
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const ch = a[j]!;
      flags.add(`-${ch}`);
      if ((shape.attachedValues ?? '').includes(ch)) break;
      if ((shape.shortValues ?? '').includes(ch)) {
        values.set(`-${ch}`, j + 1 < a.length ? a.slice(j + 1) : (args[++i] ?? null));
        break;
      }
    }
  }
  return { operands, values, flags, shifted };
}

/** The last name of a path as written (`a/b/` → `b`). */
const baseOf = (p: string): string => {
  const t = p.replace(/\/+$/, '');
  return t.slice(t.lastIndexOf('/') + 1);
};

/**
 * cp, mv, install, ln: the destination (`-t DIR`, or the last operand), and each source's name
 * inside it (the destination may be a folder). mv also changes its sources (they are removed).
 */
function copyTargets(args: readonly (string | null)[], shape: OptionShape, sourcesToo: boolean): (string | null)[] {
  const r = readArgs(args, shape);
  if (r.shifted) return [null];
  const dir = r.values.get('-t') ?? r.values.get('--target-directory');
  const ops = r.operands;
  const dest = dir !== undefined ? dir : ops.length >= 2 ? ops[ops.length - 1]! : ops.length === 1 && shape === LN ? '.' : undefined;
  if (dest === undefined) return sourcesToo ? ops : [];
  const sources = dir !== undefined ? ops : ops.length >= 2 ? ops.slice(0, -1) : ops;
  const out: (string | null)[] = [dest];
  if (dest === null) return [null];
  for (const s of sources) out.push(s === null ? null : `${dest.replace(/\/+$/, '')}/${baseOf(s)}`);
  if (sourcesToo) out.push(...sources);
  return out;
}

const CP: OptionShape = { shortValues: 'StZ', longValues: ['--target-directory', '--suffix', '--backup', '--reflink', '--sparse', '--preserve', '--no-preserve', '--context'] };
const MV: OptionShape = { shortValues: 'St', longValues: ['--target-directory', '--suffix', '--backup', '--context'] };
const INSTALL: OptionShape = { shortValues: 'gmoStZ', longValues: ['--target-directory', '--suffix', '--backup', '--group', '--mode', '--owner', '--strip-program', '--context'] };
const LN: OptionShape = { shortValues: 'St', longValues: ['--target-directory', '--suffix', '--backup'] };

/** Every operand (touch, rm, truncate, …), or `null` when their places are not known. */
function operandTargets(args: readonly (string | null)[], shape: OptionShape, skipFirst = false): (string | null)[] {
  const r = readArgs(args, shape);
  if (r.shifted) return [null];
  return skipFirst && !r.flags.has('--reference') ? r.operands.slice(1) : r.operands;
}

function sedTargets(args: readonly (string | null)[]): (string | null)[] {
  const r = readArgs(args, { shortValues: 'efl', longValues: ['--expression', '--file', '--line-length'], attachedValues: 'i' });
  const inPlace = [...r.flags].some((f) => f === '-i' || f === '--in-place');
  const scripts = [r.values.get('-e'), r.values.get('--expression')].filter((s) => s !== undefined);
  const fromFile = r.values.has('-f') || r.values.has('--file');
  const ops = r.operands;
  const script = scripts.length > 0 || fromFile ? undefined : ops[0];
  const files = scripts.length > 0 || fromFile ? ops : ops.slice(1);
  const out: (string | null)[] = [];
  // A script that does more than read (`w FILE`, `e`, `s///w FILE`, a script from a file) names its own files.
  const texts = script !== undefined ? [script] : scripts;
  if (fromFile || texts.some((t) => t === null || !sedScriptReadsOnly(t))) out.push(null);
  if (inPlace) out.push(...(r.shifted ? [null] : files));
  return out;
}

/** Global options of git that take a value. */
const GIT_GLOBAL_VALUES = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env', '--super-prefix']);

/** git config's options that only read (any other option, or two operands, writes). */
const GIT_CONFIG_READS = new Set([
  '--get', '--get-all', '--get-regexp', '--get-urlmatch', '--get-color', '--get-colorbool', '-l', '--list', '--show-origin',
  '--show-scope', '--name-only', '-z', '--null', '--includes', '--no-includes', '--type', '--bool', '--int', '--bool-or-int',
  '--path', '--expiry-date', '--default', '--local', '--global', '--system', '--worktree', '-f', '--file', '--blob', '--fixed-value',
]);

function gitTargets(args: readonly (string | null)[]): (string | null)[] {
  let i = 0;
  let gitDir: string | null | undefined;
  let dir = '';
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === null || a === undefined) return [null];
    if (!a.startsWith('-')) break;
    const eq = a.indexOf('=');
    const name = eq < 0 ? a : a.slice(0, eq);
    if (GIT_GLOBAL_VALUES.has(name)) {
      const value = eq >= 0 ? a.slice(eq + 1) : (args[++i] ?? null);
      if (value === null) return [null];
      if (name === '-C') dir = `${dir}${value.replace(/\/+$/, '')}/`;
      if (name === '--git-dir') gitDir = value;
    }
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  const out: (string | null)[] = [];
  // --output of diff, log, show, format-patch… (the capability table marks it): its value is a target.
  rest.forEach((a, k) => {
    if (a === null) return;
    if (/^--(o|ou|out|outp|outpu|output)=/.test(a)) out.push(a.slice(a.indexOf('=') + 1));
    else if (/^--(o|ou|out|outp|outpu|output)$/.test(a)) out.push(rest[k + 1] ?? null);
    else if (sub === 'format-patch' && (a === '-o' || a === '--output-directory')) out.push(rest[k + 1] ?? null);
  });
  if (sub !== 'config') return out;
  const r = readArgs(rest, { shortValues: 'f', longValues: ['--file', '--type', '--default', '--blob', '--comment'] });
  const subcommand = r.operands[0];
  const verbs = ['get', 'list'];
  const writeVerbs = ['set', 'unset', 'rename-section', 'remove-section', 'edit'];
  const writes =
    r.shifted ||
    [...r.flags].some((f) => !GIT_CONFIG_READS.has(f)) ||
    (typeof subcommand === 'string' && writeVerbs.includes(subcommand)) ||
    (!(typeof subcommand === 'string' && verbs.includes(subcommand)) && r.operands.length >= 2);
  if (!writes) return out;
  const file = r.values.get('-f') ?? r.values.get('--file');
  if (file !== undefined) out.push(file);
  else if (r.flags.has('--global')) out.push('~/.gitconfig', '~/.config/git/config');
  else if (r.flags.has('--system')) out.push('/etc/gitconfig');
  else if (gitDir !== undefined) out.push(gitDir === null ? null : `${gitDir.replace(/\/+$/, '')}/config`);
  else out.push(`${dir}.git/config`, `${dir}.git/config.worktree`);
  return out;
}

/** The write targets of one program's argv, by the table (unknown programs: none). */
export function writeTargets(argv: Argv): (string | null)[] {
  const args = argv.args;
  switch (basename(argv.program).toLowerCase()) {
    case 'tee':
      return operandTargets(args, { longValues: ['--output-error'] });
    case 'cp':
      return copyTargets(args, CP, false);
    case 'mv':
      return copyTargets(args, MV, true);
    case 'install':
      return args.some((a) => a === '-d' || a === '--directory' || (a !== null && /^-[^-]*d/.test(a))) ? operandTargets(args, INSTALL) : copyTargets(args, INSTALL, false);
    case 'ln':
      return copyTargets(args, LN, false);
    case 'rsync':
    case 'scp': {
      const ops = args.filter((a) => a === null || !a.startsWith('-'));
      const last = ops[ops.length - 1];
      return last === undefined ? [] : [last === null || args.includes(null) ? null : last];
    }
    case 'dd':
      return args.flatMap((a) => (a === null ? [null] : a.startsWith('of=') ? [a.slice(3)] : []));
    case 'sed':
      return sedTargets(args);
    case 'git':
      return gitTargets(args);
    case 'touch':
      return operandTargets(args, { shortValues: 'dtr', longValues: ['--date', '--reference', '--time'] });
    case 'rm':
    case 'rmdir':
    case 'unlink':
      return operandTargets(args, {});
    case 'find':
      // -delete removes what it finds, -fprint and the like write the file they are given.
      return args.some((a) => a === null || a === '-delete' || /^-f(print|print0|printf|ls)$/.test(a)) ? [null] : [];
    case 'shred':
      return operandTargets(args, { shortValues: 'ns', longValues: ['--iterations', '--size', '--random-source'] });
    case 'mkdir':
    case 'mkfifo':
    case 'mknod':
      return operandTargets(args, { shortValues: 'm', longValues: ['--mode'] });
    case 'truncate':
      return operandTargets(args, { shortValues: 'rs', longValues: ['--reference', '--size'] });
    case 'chmod':
    case 'chown':
    case 'chgrp':
    case 'setfacl':
    case 'chattr':
      return operandTargets(args, { longValues: ['--reference'] }, true);
    case 'sort':
    case 'tree': {
      const r = readArgs(args, { shortValues: argv.program.endsWith('tree') ? 'oLIPH' : 'okStT', longValues: ['--output'] });
      const o = r.values.get('-o') ?? r.values.get('--output');
      return o === undefined ? (r.shifted ? [null] : []) : [o];
    }
    case 'patch': {
      const r = readArgs(args, { shortValues: 'oidpBDFrVYzgi', longValues: ['--output', '--input', '--directory', '--strip', '--prefix', '--reject-file', '--suffix'] });
      const o = r.values.get('-o') ?? r.values.get('--output');
      // Without an output file the patch text names the files it changes.
      return [o ?? null];
    }
    case 'tar': {
      const extracts = args.some((a) => a === null || (/^-?[A-Za-z]*x/.test(a) && !a.startsWith('--')) || a === '--extract' || a === '--get');
      return extracts ? [null] : [];
    }
    case 'unzip':
    case 'cpio':
      return [null];
    case 'curl': {
      const r = readArgs(args, { shortValues: 'oHdXuAeEKrTwxyYzbcCDFmQ', longValues: ['--output', '--dump-header', '--cookie-jar', '--trace', '--trace-ascii', '--stderr', '--libcurl', '--etag-save', '--hsts', '--alt-svc'] });
      const named = ['-o', '--output', '--dump-header', '-D', '--cookie-jar', '-c', '--trace', '--trace-ascii', '--stderr', '--libcurl', '--etag-save'].map((k) => r.values.get(k)).filter((v) => v !== undefined);
      return r.flags.has('-O') || r.flags.has('--remote-name') || r.flags.has('--remote-name-all') ? [...named, null] : named;
    }
    case 'wget': {
      const r = readArgs(args, { shortValues: 'OoaPe', longValues: ['--output-document', '--output-file', '--append-output', '--directory-prefix'] });
      const named = ['-O', '--output-document', '-o', '--output-file', '-a', '--append-output'].map((k) => r.values.get(k)).filter((v) => v !== undefined);
      return named.length > 0 ? named : [null];
    }
    default:
      return [];
  }
}

/** Programs whose targets are removed or moved away (with what a folder holds). */
const REMOVERS = new Set(['rm', 'rmdir', 'unlink', 'shred', 'mv']);

/** What a shell text writes: each target as written, and the folders its `cd`s move to. */
export interface ShellWrites {
  /** Write targets: redirections and {@link writeTargets}; `null`: known only at run time. */
  readonly targets: (string | null)[];
  /** The targets of programs that remove or move what they are given (`rm`, `mv`): a folder goes with what is in it. */
  readonly removes: (string | null)[];
  /** Arguments of `cd`/`pushd` in the text (`~` for none; `null`: not static): a relative target may be under any of them. */
  readonly dirs: (string | null)[];
}

/** The write targets of every command a shell text would run (see the file's comment). */
export function shellWrites(text: string, options: ExtractOptions = {}): ShellWrites {
  const e = extract(text, options);
  const targets: (string | null)[] = [];
  const removes: (string | null)[] = [];
  const dirs: (string | null)[] = [];
  for (const w of e.writes) targets.push(w.redirect.target);
  for (const c of e.commands) {
    for (const r of c.redirects) targets.push(r.target);
    const name = basename(c.program).toLowerCase();
    if (name === 'cd' || name === 'pushd') {
      const ops = c.args.filter((a) => a === null || !a.startsWith('-') || a === '-');
      dirs.push(ops.length === 0 ? '~' : ops[0] === '-' ? null : ops[0]!);
      continue;
    }
    (REMOVERS.has(name) ? removes : targets).push(...writeTargets(c));
  }
  return { targets, removes, dirs };
}
