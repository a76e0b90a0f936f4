/**
 * The shell oracles (issue 24): what the shells themselves make of a text, beside Verdict's reading.
 *
 * - Oracle B, the shells: each text runs in bash, zsh (`zsh -f`) and dash, in a throwaway folder
 *   of its own, with an empty environment (`PATH` holds only recording stubs, `HOME` is the stub
 *   folder), standard input from `/dev/null`, a timeout, and no network when `unshare -n` works.
 *   Every program on `PATH` is a stub (`STUBS` of generate.ts) that appends its name, arguments,
 *   working folder and environment names to a log; a redirection's target appears as a file in the
 *   text's folder. Many texts run in one shell process: the driver sources each text in a subshell
 *   from its own folder, so a batch of thousands costs one shell start.
 * - Oracle A, `bash --pretty-print` (bash's own parse; it runs nothing): a text Verdict reads must
 *   be one bash parses, and bash's printed form of it, read again by Verdict, must give the same
 *   commands when Verdict can read it.
 *
 * The invariant, per text and shell: Verdict's extraction (as the command rules see it) says
 * unknown, or everything the shell ran is in its reading: each program run with its arguments is a
 * command (or a wrapper layer) Verdict reported, a `null` word standing for any words; each file
 * written is a write target Verdict reported (or named in an argument of a command it reported);
 * each variable in a program's environment is one the shell always exports or one Verdict's
 * environment list calls harmless. A text that sources a file (`.`, `source`) runs what the file
 * holds: a reading that reports `.`/`source` covers whatever runs.
 *
 * Verdict reading more than the shell ran (a command behind `false &&`, a function never called,
 * a glob that matched nothing in zsh) is not a finding: the reading is a superset by design.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basename, extract, harmlessVariable, type Argv, type Extraction } from '../../src/index.ts';
import { STUBS } from './generate.ts';

export const SHELL_NAMES = ['bash', 'zsh', 'dash'] as const;
export type ShellName = (typeof SHELL_NAMES)[number];

/** How each shell is started on a driver file. */
const SHELL_ARGV: Record<ShellName, string[]> = { bash: ['bash', '--norc', '--noprofile'], zsh: ['zsh', '-f'], dash: ['dash'] };

/** What one stub run recorded. */
export interface StubRun {
  readonly program: string;
  readonly args: readonly string[];
  readonly env: readonly string[];
}

/** What one shell did with one text. */
export interface ShellRun {
  readonly status: 'ran' | 'timeout' | 'not-run';
  readonly runs: readonly StubRun[];
  /** Files in the text's folder afterwards. */
  readonly files: readonly string[];
}

/** Verdict's reading of a text: `null` when it is unknown. */
export interface Reading {
  readonly layers: readonly Argv[];
  /** Static write targets, `./` removed; `null` for one with an expansion. */
  readonly targets: readonly (string | null)[];
  /** Every static argument of every layer (a file named in an argument: `history -w FILE`). */
  readonly words: ReadonlySet<string>;
  /** The reading reports `.` or `source`: the text runs a file's contents. */
  readonly sources: boolean;
}

export function reading(text: string): Reading | null {
  return readingOf(extract(text));
}

export function readingOf(ext: Extraction): Reading | null {
  if (ext.unknowns.length > 0) return null;
  const layers: Argv[] = [];
  const targets: (string | null)[] = [];
  const words = new Set<string>();
  let sources = false;
  for (const c of ext.commands) {
    for (const l of [...c.wrappers, c]) {
      layers.push({ program: l.program, args: l.args });
      const b = basename(l.program);
      if (b === '.' || b === 'source') sources = true;
      for (const a of l.args) if (a !== null) words.add(a);
    }
    for (const r of c.redirects) targets.push(r.target === null ? null : normalTarget(r.target));
  }
  for (const w of ext.writes) targets.push(w.redirect.target === null ? null : normalTarget(w.redirect.target));
  return { layers, targets, words, sources };
}

function normalTarget(t: string): string {
  return t.replace(/^(\.\/)+/, '');
}

/** Whether `args` (with `null` for any run of words, none included) can be `run`. */
export function argsMatch(args: readonly (string | null)[], run: readonly string[]): boolean {
  // ok[j]: the first i patterns can produce the first j words.
  let ok: boolean[] = new Array<boolean>(run.length + 1).fill(false);
  ok[0] = true;
  for (const a of args) {
    const next = new Array<boolean>(run.length + 1).fill(false);
    if (a === null) {
      let any = false;
      for (let j = 0; j <= run.length; j++) {
        any ||= ok[j]!;
        next[j] = any;
      }
    } else {
      for (let j = 1; j <= run.length; j++) next[j] = ok[j - 1]! && run[j - 1] === a;
    }
    ok = next;
  }
  return ok[run.length]!;
}

/** A disagreement: the shell ran, wrote or exported something that Verdict's known reading does not hold. */
export interface Finding {
  readonly id: number;
  readonly shell: ShellName | 'bash --pretty-print';
  readonly text: string;
  readonly what: string;
}

/** Everything in `run` that `r` does not hold (empty: they agree). */
export function disagreements(r: Reading, run: ShellRun, baseline: ReadonlySet<string>, home: string): string[] {
  const out: string[] = [];
  if (r.sources) return out;
  // A static word starting with `~` is the tilde's expansion when it was written unquoted, itself when quoted: either.
  const held = (program: string, args: readonly string[]) =>
    r.layers.some(
      (l) =>
        (basename(l.program) === program || basename(tilde(l.program, home)) === program) &&
        (argsMatch(l.args, args) || argsMatch(l.args.map((a) => (a === null ? a : tilde(a, home))), args)),
    );
  for (const s of run.runs) {
    // sh's `time` is a program, bash's and zsh's a keyword: with no option it runs its words as the command (an option is a finding).
    const timed = s.program === 'time' && s.args.length > 0 && !s.args[0]!.startsWith('-') && held(basename(s.args[0]!), s.args.slice(1));
    if (!timed && !held(s.program, s.args)) {
      out.push(`ran \`${[s.program, ...s.args].map(show).join(' ')}\`, which the reading does not hold`);
    }
    for (const v of s.env) {
      if (!baseline.has(v) && !harmlessVariable(v, true)) out.push(`ran \`${s.program}\` with \`${v}\` in its environment`);
    }
  }
  for (const f of run.files) {
    if (!r.targets.some((t) => t === null || t === f) && ![...r.words].some((w) => w === f || w.endsWith(`=${f}`) || w.endsWith(`/${f}`))) {
      out.push(`wrote the file \`${show(f)}\`, which the reading does not hold`);
    }
  }
  return out;
}

/** A word as the shells expand its leading tilde (`~`, `~/x`: `home`; `~user`: that user's home, as in /etc/passwd). */
export function tilde(word: string, home: string): string {
  const m = /^~([A-Za-z_][A-Za-z0-9_.-]*)?(\/.*)?$/.exec(word);
  if (!m) return word;
  const dir = m[1] === undefined ? home : userHome(m[1]);
  return dir === undefined ? word : `${dir}${m[2] ?? ''}`;
}

let passwd: Map<string, string> | undefined;
function userHome(user: string): string | undefined {
  if (!passwd) {
    passwd = new Map();
    try {
      for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
        const f = line.split(':');
        if (f.length >= 6) passwd.set(f[0]!, f[5]!);
      }
    } catch {
      /* no passwd: `~user` stays as written */
    }
  }
  return passwd.get(user);
}

function show(s: string): string {
  return JSON.stringify(s).slice(1, -1);
}

/* ----------------------------------------------------------------------------------------- */

const C_STUB = `#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
extern char **environ;
static char buf[1 << 20];
static size_t n;
static void put(const char *s) { size_t l = strlen(s) + 1; if (n + l < sizeof buf) { memcpy(buf + n, s, l); n += l; } }
int main(int argc, char **argv) {
  char exe[4096], cwd[4096], num[32];
  ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 16);
  if (k <= 0) return 0;
  exe[k] = 0;
  strcpy(strrchr(exe, '/') + 1, "log");
  if (!getcwd(cwd, sizeof cwd)) strcpy(cwd, "?");
  /* Started through "#!REC": argv[1] is the stub's path, argv[2..] the arguments. */
  const char *prog = argc > 1 ? strrchr(argv[1], '/') : 0;
  put("R"); put(cwd); put(prog ? prog + 1 : "?");
  snprintf(num, sizeof num, "%d", argc > 2 ? argc - 2 : 0); put(num);
  for (int i = 2; i < argc; i++) put(argv[i]);
  int e = 0; for (char **p = environ; *p; p++) e++;
  snprintf(num, sizeof num, "%d", e); put(num);
  for (char **p = environ; *p; p++) { char *eq = strchr(*p, '='); if (eq) *eq = 0; put(*p); if (eq) *eq = '='; }
  int fd = open(exe, O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd >= 0) { ssize_t w = write(fd, buf, n); (void)w; close(fd); }
  return 0;
}
`;

const GO_STUB = `package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

func main() {
	exe, err := os.Executable()
	if err != nil {
		return
	}
	cwd, err := os.Getwd()
	if err != nil {
		cwd = "?"
	}
	var b strings.Builder
	put := func(s string) { b.WriteString(s); b.WriteByte(0) }
	prog := "?"
	if len(os.Args) > 1 {
		prog = filepath.Base(os.Args[1])
	}
	put("R")
	put(cwd)
	put(prog)
	args := []string{}
	if len(os.Args) > 2 {
		args = os.Args[2:]
	}
	put(strconv.Itoa(len(args)))
	for _, a := range args {
		put(a)
	}
	env := os.Environ()
	put(strconv.Itoa(len(env)))
	for _, e := range env {
		put(strings.SplitN(e, "=", 2)[0])
	}
	f, err := os.OpenFile(filepath.Join(filepath.Dir(exe), "log"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err == nil {
		f.WriteString(b.String())
		f.Close()
	}
}
`;

/** Builds the recording program once per root: C when a compiler is there, else Go. */
function buildRecorder(root: string): string {
  const out = join(root, 'rec');
  writeFileSync(join(root, 'rec.c'), C_STUB);
  // Static when the C library allows it: no dynamic loading on each of the millions of stub runs.
  for (const cc of ['cc', 'gcc', 'clang']) {
    for (const flags of [['-O2', '-static'], ['-O2']]) {
      if (spawnSync(cc, [...flags, '-o', out, join(root, 'rec.c')], { stdio: 'ignore' }).status === 0) return out;
    }
  }
  mkdirSync(join(root, 'go'), { recursive: true });
  writeFileSync(join(root, 'go', 'main.go'), GO_STUB);
  writeFileSync(join(root, 'go', 'go.mod'), 'module rec\n\ngo 1.19\n');
  const r = spawnSync('go', ['build', '-o', out, '.'], { cwd: join(root, 'go'), stdio: 'pipe', env: { ...process.env, CGO_ENABLED: '0', GOFLAGS: '-mod=mod' } });
  if (r.status !== 0) throw new Error(`no C compiler and go build failed: ${r.stderr}`);
  return out;
}

export interface OracleOptions {
  readonly shells?: readonly ShellName[];
  /** Milliseconds a batch may take, per text, on top of a fixed allowance. */
  readonly msPerText?: number;
}

interface Batch {
  readonly n: number;
  readonly texts: readonly { id: number; text: string }[];
  readonly dir: string;
}

const POLL_MS = 250;
/** A text that writes nothing to the log for this long is taken to hang (texts take milliseconds). */
const STALL_MS = 3000;

/** A throwaway folder with a stub `PATH` per shell; `close()` removes it. */
export class ShellOracle {
  readonly root: string;
  readonly shells: readonly ShellName[];
  private readonly unshare: boolean;
  private readonly baselines = new Map<ShellName, Set<string>>();
  private batches = 0;
  private readonly msPerText: number;

  constructor(options: OracleOptions = {}) {
    this.shells = options.shells ?? SHELL_NAMES;
    this.msPerText = options.msPerText ?? 50;
    this.root = mkdtempSync(join(tmpdir(), 'vo-'));
    const rec = buildRecorder(this.root);
    for (const sh of this.shells) {
      const dir = join(this.root, sh);
      mkdirSync(join(dir, 'bin'), { recursive: true });
      copyFileSync(rec, join(dir, 'rec'));
      chmodSync(join(dir, 'rec'), 0o755);
      for (const name of STUBS) {
        writeFileSync(join(dir, 'bin', name), `#!${join(dir, 'rec')}\n`);
        chmodSync(join(dir, 'bin', name), 0o755);
      }
    }
    this.unshare = spawnSync('unshare', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  }

  /** The `HOME` of a shell's texts: its stub folder. */
  home(sh: ShellName): string {
    return join(this.root, sh, 'bin');
  }

  /** Whether the shells run without a network (`unshare -n`). */
  get isolated(): boolean {
    return this.unshare;
  }

  /** The variable names a shell puts in every program's environment (an empty text's stub run). */
  async baseline(sh: ShellName): Promise<ReadonlySet<string>> {
    let b = this.baselines.get(sh);
    if (b) return b;
    const batch = this.prepare([{ id: 0, text: 'ls' }]);
    const runs = await this.runShell(sh, batch);
    this.dispose(batch);
    const names = runs.get(0)?.runs[0]?.env;
    if (!names) throw new Error(`${sh}: the stub did not run (is ${sh} installed?)`);
    b = new Set(names);
    this.baselines.set(sh, b);
    return b;
  }

  /** Writes a batch's texts (shared by the shells). */
  prepare(texts: readonly { id: number; text: string }[]): Batch {
    const n = this.batches++;
    const dir = join(this.root, 't', String(n));
    mkdirSync(dir, { recursive: true });
    for (const t of texts) writeFileSync(join(dir, String(t.id)), t.text);
    return { n, texts, dir };
  }

  dispose(batch: Batch): void {
    rmSync(batch.dir, { recursive: true, force: true });
    for (const sh of this.shells) rmSync(join(this.root, sh, 'w', String(batch.n)), { recursive: true, force: true });
  }

  /** Runs every text of `batch` in `sh`; texts after one that timed out run again in a new process. */
  async runShell(sh: ShellName, batch: Batch): Promise<Map<number, ShellRun>> {
    const results = new Map<number, ShellRun>();
    const base = join(this.root, sh);
    const work = join(base, 'w', String(batch.n));
    const log = join(base, 'log');
    let todo = batch.texts.map((t) => t.id);
    for (const id of todo) mkdirSync(join(work, String(id)), { recursive: true });
    while (todo.length > 0) {
      rmSync(log, { force: true });
      const lines = [`L='${log}'`, `W='${work}'`, `T='${batch.dir}'`];
      for (const id of todo) lines.push(`printf 'M\\000%s\\000' ${id} >>"$L"; cd "$W/${id}" && ( . "$T/${id}" ) </dev/null >/dev/null 2>&1`);
      lines.push(`printf 'M\\000end\\000' >>"$L"`);
      const driver = join(base, 'driver');
      writeFileSync(driver, `${lines.join('\n')}\n`);
      const [prog, ...flags] = SHELL_ARGV[sh];
      const argv = [which(prog!), ...flags, driver];
      const timedOut = await this.spawn(this.unshare ? [which('unshare'), '-n', ...argv] : argv, base, 5000 + this.msPerText * todo.length, log);
      const { started, records } = parseLog(existsSync(log) ? readFileSync(log) : Buffer.alloc(0), work);
      const last = started[started.length - 1];
      const finished = !timedOut && last === 'end';
      let rest: number[] = [];
      for (let i = 0; i < todo.length; i++) {
        const id = todo[i]!;
        const begun = started.includes(String(id));
        const isLast = String(id) === last;
        if (!finished && (isLast || !begun)) {
          if (isLast) results.set(id, { status: 'timeout', runs: records.get(id) ?? [], files: [] });
          else rest.push(id);
          continue;
        }
        results.set(id, { status: 'ran', runs: records.get(id) ?? [], files: readdirSync(join(work, String(id))) });
      }
      // A shell that stopped before its first text (it could not start) leaves the rest not run.
      if (!finished && rest.length === todo.length) {
        for (const id of rest) results.set(id, { status: 'not-run', runs: [], files: [] });
        rest = [];
      }
      todo = rest;
    }
    return results;
  }

  /**
   * Runs a driver; kills its process group when the whole batch takes over `ms`, or when the log
   * (a marker per text) has not grown for `STALL_MS`: one text hangs, and the rest run again.
   */
  private spawn(argv: string[], cwd: string, ms: number, log: string): Promise<boolean> {
    return new Promise((resolve) => {
      const home = join(cwd, 'bin');
      const child = spawn(argv[0]!, argv.slice(1), { cwd, env: { PATH: home, HOME: home }, stdio: 'ignore', detached: true });
      let timedOut = false;
      const kill = () => {
        timedOut = true;
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* already gone */
        }
      };
      const timer = setTimeout(kill, ms);
      let size = -1;
      let still = 0;
      const watch = setInterval(() => {
        let now = -1;
        try {
          now = statSync(log).size;
        } catch {
          /* not yet written */
        }
        still = now === size ? still + POLL_MS : 0;
        size = now;
        if (still >= STALL_MS) kill();
      }, POLL_MS);
      const done = (t: boolean) => {
        clearTimeout(timer);
        clearInterval(watch);
        resolve(t);
      };
      child.on('error', () => done(true));
      child.on('exit', () => done(timedOut));
    });
  }

  close(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

const paths = new Map<string, string>();
/** A program's path on the caller's `PATH` (the shells start with the stub folder as theirs). */
function which(program: string): string {
  let p = paths.get(program);
  if (p === undefined) {
    p = spawnSync('sh', ['-c', 'command -v "$1"', 'sh', program], { encoding: 'utf8' }).stdout.trim() || program;
    paths.set(program, p);
  }
  return p;
}

/** The log: `M id` markers (a text started) and `R cwd prog argc args… envc names…` records, NUL-separated. */
function parseLog(buf: Buffer, work: string): { started: string[]; records: Map<number, StubRun[]> } {
  const fields = buf.toString('utf8').split('\0');
  const started: string[] = [];
  const records = new Map<number, StubRun[]>();
  const prefix = `${work}/`;
  let i = 0;
  while (i < fields.length - 1) {
    const kind = fields[i++];
    if (kind === 'M') {
      started.push(fields[i++]!);
      continue;
    }
    if (kind !== 'R') break;
    const cwd = fields[i++]!;
    const program = fields[i++]!;
    const argc = Number(fields[i++]);
    const args = fields.slice(i, i + argc);
    i += argc;
    const envc = Number(fields[i++]);
    const env = fields.slice(i, i + envc);
    i += envc;
    if (!cwd.startsWith(prefix)) continue;
    const id = Number(cwd.slice(prefix.length).split('/')[0]);
    let list = records.get(id);
    if (!list) records.set(id, (list = []));
    list.push({ program, args, env });
  }
  return { started, records };
}

/* ----------------------------------------------------------------------------------------- */

/** Oracle A: bash's own parse of `text` (`bash --pretty-print`), or `null` when bash refuses it. */
export function prettyPrint(text: string, dir: string): string | null {
  const file = join(dir, 'pp.sh');
  writeFileSync(file, text);
  const r = spawnSync(which('bash'), ['--pretty-print', file], { encoding: 'utf8', env: { PATH: '/nonexistent' }, timeout: 10_000 });
  // bash keeps its internal quoting (CTLESC, \x01) before the bytes \x01 and \x7f in what it prints.
  return r.status === 0 && r.stderr === '' ? r.stdout.replace(/\x01([\x01\x7f])/g, '$1') : null;
}

/** The commands of a reading as comparable strings (program and words), sorted. */
function shape(ext: Extraction): string[] {
  return ext.commands.map((c) => JSON.stringify([c.program, ...c.args])).sort();
}

/**
 * Oracle A for one text Verdict reads: bash must parse it, and its printed form, when Verdict reads
 * that too, must hold the same commands. Returns what disagrees (empty: they agree).
 */
export function prettyDisagreements(text: string, ext: Extraction, dir: string): string[] {
  const printed = prettyPrint(text, dir);
  if (printed === null) return ['bash refuses the text (a syntax error) that the reading holds as known'];
  // bash's printer drops the separator after a heredoc inside a list (`( cat <<E⏎E⏎a⏎b⏎)` prints
  // `a b`, where bash runs `a` and `b`): with a heredoc, only that bash parses the text is checked.
  if (text.includes('<<')) return [];
  const again = extract(printed);
  if (again.unknowns.length > 0) return [];
  const a = shape(ext);
  const b = shape(again);
  if (a.length !== b.length || a.some((x, i) => x !== b[i])) return [`bash's own parse holds the commands ${b.join(' ')}, the reading ${a.join(' ')}`];
  return [];
}

/* ----------------------------------------------------------------------------------------- */

export interface Tally {
  ran: number;
  unknown: number;
  agreed: number;
  findings: number;
  timeouts: number;
  notRun: number;
}

export function emptyTally(): Tally {
  return { ran: 0, unknown: 0, agreed: 0, findings: 0, timeouts: 0, notRun: 0 };
}

/** What became of one text Verdict reads, in one shell. */
export type Outcome = { kind: 'agreed' | 'timeout-agreed' | 'not-run' } | { kind: 'finding' | 'timeout-finding'; what: string[] };

/** Runs texts Verdict reads in every shell of `oracle`, and holds each run against the reading. */
export async function runKnown(oracle: ShellOracle, known: readonly { id: number; text: string; r: Reading }[]): Promise<Map<ShellName, Map<number, Outcome>>> {
  const out = new Map<ShellName, Map<number, Outcome>>();
  if (known.length === 0) {
    for (const sh of oracle.shells) out.set(sh, new Map());
    return out;
  }
  const baselines = new Map(await Promise.all(oracle.shells.map(async (sh) => [sh, await oracle.baseline(sh)] as const)));
  const batch = oracle.prepare(known);
  try {
    const results = await Promise.all(oracle.shells.map(async (sh) => [sh, await oracle.runShell(sh, batch)] as const));
    for (const [sh, runs] of results) {
      const m = new Map<number, Outcome>();
      for (const t of known) {
        const run = runs.get(t.id)!;
        if (run.status === 'not-run') {
          m.set(t.id, { kind: 'not-run' });
          continue;
        }
        const what = disagreements(t.r, run, baselines.get(sh)!, oracle.home(sh));
        const timeout = run.status === 'timeout';
        m.set(t.id, what.length === 0 ? { kind: timeout ? 'timeout-agreed' : 'agreed' } : { kind: timeout ? 'timeout-finding' : 'finding', what });
      }
      out.set(sh, m);
    }
  } finally {
    oracle.dispose(batch);
  }
  return out;
}

/** Adds one outcome to a tally. */
export function tallyOutcome(t: Tally, o: Outcome | 'unknown'): void {
  if (o === 'unknown') {
    t.unknown++;
    return;
  }
  if (o.kind === 'not-run') {
    t.notRun++;
    return;
  }
  t.ran++;
  if (o.kind.startsWith('timeout')) t.timeouts++;
  if (o.kind.endsWith('agreed')) t.agreed++;
  else t.findings++;
}

/**
 * Judges `texts` with Verdict, runs those it reads in every shell, and tallies per shell. Texts
 * Verdict calls unknown are not run (whatever the shell does with them, the invariant holds).
 */
export async function checkBatch(oracle: ShellOracle, texts: readonly { id: number; text: string }[], tallies: Map<ShellName, Tally>, findings: Finding[]): Promise<void> {
  const known: { id: number; text: string; r: Reading }[] = [];
  for (const t of texts) {
    const r = reading(t.text);
    if (r === null) for (const sh of oracle.shells) tallyOutcome(tallies.get(sh)!, 'unknown');
    else known.push({ ...t, r });
  }
  const outcomes = await runKnown(oracle, known);
  for (const [sh, m] of outcomes) {
    for (const t of known) {
      const o = m.get(t.id)!;
      tallyOutcome(tallies.get(sh)!, o);
      if ('what' in o) for (const what of o.what) findings.push({ id: t.id, shell: sh, text: t.text, what });
    }
  }
}
