import { execFile } from 'node:child_process';
import { basename, dirname, resolve } from 'node:path';
import { readSourceFile } from '@verdict/compiler';
import { ruleWhere } from '@verdict/engine';
import { type DiffChange, diffPolicies, type DiffWitness, type PolicyDiff } from '@verdict/analysis';
import { type Command, type CommandIo, parse, UsageError, write } from '../args.ts';
import { DECIDING } from '../command-rules.ts';
import { compileOrReport, type PolicyInput, readPolicyInput, stdinFilenameOption, stdinName } from '../load.ts';
import { type DiffSide, diffSides, type NativeDiffReport, nativeFormatFor, nativeSide, verdictSide } from '../native-diff.ts';
import { policyDiffReport, renderGithub, renderMarkdown, renderNativeText, renderSarif } from '../native-diff-render.ts';

const USAGE = `usage: verdict diff OLD NEW [-f text|json|github|sarif|markdown] [--stdin-filename NAME]
       verdict diff --rev A[..B] FILE [-f ...]

Compares the approvers of two policy files semantically and lists, for every tool whose decisions
changed, a call the old policy allows and the new one denies (or the reverse): a witness you can
paste into \`verdict explain\`, checked against the real engine. Then a verdict: stricter, looser,
equivalent, neither or unknown (the analysis is bounded; it says unknown rather than guess).
With ask rules on either side, decisions are ordered allow < ask < deny, and the calls the new
policy newly asks about are listed too. Command rules on shell tools are compared exactly where the
changes decide it (a deny rule added can only deny more) and by example commands otherwise: a
direction no example shows stays unknown. Either file (not both) may be \`-\`: standard input.

Either side may be an agent's own permission file (.claude/settings.json, .codex/rules/*.rules,
.gemini/policies/*.toml, .cursor/cli.json; known by its name or its content), decided as that agent
decides (Codex and Gemini CLI exactly, Claude Code and Cursor as documented; docs/native/). Candidate
commands are built from both sides' rules (their own words, respellings, wrappers, compound commands)
and decided by both; one witness per program is listed for each direction: newly allowed, newly left
to the agent (no rule decides any more), newly asked, newly denied. A Verdict policy beside an
agent's file is asked under that agent's shell tool (Bash, run_shell_command, Shell). equivalent and
stricter are said only when the rule sets prove them; a direction no witness shows is unknown.

--rev A compares FILE at git revision A with the working tree; --rev A..B compares A with B.

options:
  -f, --format F   text (default), json, github (workflow annotations on the new file's rule
                   lines), sarif (SARIF 2.1.0) or markdown (a pull-request comment)
  --rev A[..B]     compare FILE across git revisions
  --stdin-filename NAME
               the name standard input goes by in messages; its extension picks the syntax
  -h, --help   show this help

exit: 0 equivalent, 1 the policies differ (or unknown), 2 a file cannot load (or is not in the revision)`;

const FORMATS = ['text', 'json', 'github', 'sarif', 'markdown'] as const;
type Format = (typeof FORMATS)[number];

/** One side as named on the command line: its display name, the path its format is known by, its text when read. */
interface Named {
  display: string;
  path: string;
  input: PolicyInput;
}

/** A file's text at a git revision (`git show REV:./NAME` in the file's folder; no shell). */
function gitShow(io: CommandIo, file: string, rev: string): Promise<{ text: string } | { error: string }> {
  const abs = resolve(io.cwd, file);
  return new Promise((done) => {
    execFile('git', ['-C', dirname(abs), 'show', `${rev}:./${basename(abs)}`], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, env: { ...process.env, GIT_PAGER: 'cat' } }, (err, stdout, stderr) => {
      if (err === null) return done({ text: stdout });
      const why = String(stderr).split('\n').find((l) => l.trim() !== '') ?? (err as Error).message;
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return done({ error: 'git is not installed (--rev runs `git show`)' });
      if (/not a git repository/i.test(why)) return done({ error: `not in a git checkout (git: ${why.trim()})` });
      if (/does not exist in|exists on disk, but not in/.test(why)) return done({ error: `not in revision \`${rev}\` (git: ${why.trim()})` });
      if (/invalid object name|unknown revision|bad revision|ambiguous argument/i.test(why)) return done({ error: `no revision \`${rev}\` (git: ${why.trim()})` });
      done({ error: `git show failed: ${why.trim()}` });
    });
  });
}

/** The side a named file is: an agent's own file (by name or content), else a Verdict policy. */
async function sideOf(n: Named, io: CommandIo): Promise<DiffSide | 'verdict' | undefined> {
  let text = n.input.source;
  if (text === undefined) {
    const read = readSourceFile(n.display, resolve(io.cwd, n.path));
    // An unreadable file is reported by the policy loader, as before.
    if (read.text === undefined) return 'verdict';
    text = read.text;
  }
  const format = nativeFormatFor(n.path, text);
  if (format === undefined) return 'verdict';
  return nativeSide(n.display, text, format);
}

function verdictSideOf(n: Named, io: CommandIo): DiffSide | undefined {
  const result = compileOrReport(n.input, io, { ...DECIDING, compat: true });
  if (!result) return undefined;
  if (!result.ir?.approver || !result.approver) {
    io.stderr.write(`verdict diff: ${n.input.file} has no approver block [cli/no-approver]\n`);
    return undefined;
  }
  return verdictSide(n.input.file, result.ir.approver, result.approver);
}

function renderReport(r: NativeDiffReport, format: Format, annotate: string, io: CommandIo): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(r, (k, v) => (k === 'span' ? undefined : v), 2)}\n`;
    case 'github':
      return renderGithub(r, annotate);
    case 'sarif':
      return renderSarif(r, annotate, io.cwd);
    case 'markdown':
      return renderMarkdown(r);
    default:
      return renderNativeText(r);
  }
}

function quoteShell(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function decided(r: DiffWitness['old']): string {
  if (!r.rule) return r.by === 'command' ? `${r.decision} by the command rules: ${r.reason}` : `${r.decision} by the default`;
  return `${r.decision} by ${ruleWhere(r.rule, 'parens')}`;
}

export function renderDiff(d: PolicyDiff, newFile: string): string {
  const lines = [`verdict: ${d.verdict}`];
  // With ask rules on either side the titles say so, and newly asked calls get their section.
  const withAsk = d.newlyAsked !== undefined;
  const sections: [DiffChange['direction'], string][] = withAsk
    ? [
        ['newly-denied', 'newly denied (the old policy allows or asks, the new one denies)'],
        ['newly-allowed', 'newly allowed (the old policy denies or asks, the new one allows)'],
        ['newly-asked', 'newly asked (the old policy allows or denies, the new one asks)'],
      ]
    : [
        ['newly-denied', 'newly denied (the old policy allows, the new one denies)'],
        ['newly-allowed', 'newly allowed (the old policy denies, the new one allows)'],
      ];
  for (const [direction, title] of sections) {
    const changes = d.changes.filter((c) => c.direction === direction);
    // Newly asked calls may show one tool twice: one call allowed before, one denied before.
    const tools = new Set(changes.map((c) => c.toolName)).size;
    lines.push('', `${title}: ${changes.length === 0 ? 'none' : `${tools} tool${tools === 1 ? '' : 's'}`}`);
    for (const c of changes) {
      lines.push(
        `  ${c.toolName}  ${c.input}`,
        `    old: ${decided(c.old)}`,
        `    new: ${decided(c.new)}`,
        `    try: verdict explain --policy ${quoteShell(newFile)} --tool ${quoteShell(c.toolName)} --input ${quoteShell(c.input)}`,
      );
    }
  }
  if (d.unknown.length > 0) lines.push('');
  for (const why of d.unknown) lines.push(`unknown: ${why}`);
  return `${lines.join('\n')}\n`;
}

export const diffCommand: Command = {
  name: 'diff',
  summary: 'calls one policy allows and the other denies, with witnesses',
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parse(argv, { format: { type: 'string', short: 'f' }, rev: { type: 'string' }, ...stdinFilenameOption });
    if (values.help) return write(io.stdout, USAGE), 0;
    const format = (values.format ?? 'text') as Format;
    if (!FORMATS.includes(format)) throw new UsageError(`unknown format \`${format}\` (want ${FORMATS.join(', ')})`);
    let oldNamed: Named;
    let newNamed: Named;
    if (values.rev !== undefined) {
      const [file, extra] = positionals;
      if (file === undefined) throw new UsageError('--rev wants one file: verdict diff --rev A[..B] FILE');
      if (extra !== undefined) throw new UsageError(`unexpected argument \`${extra}\` (--rev compares one file across revisions)`);
      if (file === '-') throw new UsageError('--rev reads the file from git: give its path, not `-`');
      const m = /^(.+?)(?:\.\.(.+))?$/.exec(values.rev);
      const [a, b] = [m?.[1], m?.[2]];
      if (a === undefined || values.rev.startsWith('-') || (b !== undefined && b.startsWith('-'))) throw new UsageError(`--rev wants A or A..B, not \`${values.rev}\``);
      const at = async (rev: string): Promise<Named | undefined> => {
        const shown = await gitShow(io, file, rev);
        if ('error' in shown) {
          io.stderr.write(`${file}: error: ${shown.error} [cli/diff-rev]\n`);
          return undefined;
        }
        return { display: `${rev}:${file}`, path: file, input: { file: `${rev}:${file}`, source: shown.text } };
      };
      const older = await at(a);
      if (!older) return 2;
      let newer: Named | undefined = { display: file, path: file, input: { file } };
      if (b !== undefined) newer = await at(b);
      if (!newer) return 2;
      oldNamed = older;
      newNamed = newer;
    } else {
      const [oldFile, newFile, extra] = positionals;
      if (oldFile === undefined || newFile === undefined) throw new UsageError('want two files: OLD NEW');
      if (extra !== undefined) throw new UsageError(`unexpected argument \`${extra}\``);
      const name = stdinName([oldFile, newFile], values['stdin-filename']);
      const oldInput = await readPolicyInput(oldFile, io, name);
      const newInput = await readPolicyInput(newFile, io, name);
      if (!oldInput || !newInput) return 2;
      oldNamed = { display: oldInput.file, path: oldInput.file, input: oldInput };
      newNamed = { display: newInput.file, path: newInput.file, input: newInput };
    }
    const oldKind = await sideOf(oldNamed, io);
    const newKind = await sideOf(newNamed, io);
    if (oldKind === 'verdict' && newKind === 'verdict') {
      // Two Verdict policies: the exact diff, as it always was.
      const older = compileOrReport(oldNamed.input, io, { ...DECIDING, compat: true });
      const newer = compileOrReport(newNamed.input, io, { ...DECIDING, compat: true });
      if (!older || !newer) return 2;
      const oldIr = older.ir?.approver;
      const newIr = newer.ir?.approver;
      if (!oldIr || !newIr) {
        io.stderr.write(`verdict diff: ${!oldIr ? oldNamed.input.file : newNamed.input.file} has no approver block [cli/no-approver]\n`);
        return 2;
      }
      const d = diffPolicies(oldIr, newIr, DECIDING);
      if (format === 'text' || format === 'json') write(io.stdout, format === 'json' ? JSON.stringify(d, null, 2) : renderDiff(d, newNamed.input.file));
      else write(io.stdout, renderReport(policyDiffReport(d, oldNamed.display, newNamed.display), format, newNamed.path, io));
      return d.verdict === 'equivalent' ? 0 : 1;
    }
    const oldSide = oldKind === 'verdict' ? verdictSideOf(oldNamed, io) : oldKind;
    const newSide = newKind === 'verdict' ? verdictSideOf(newNamed, io) : newKind;
    if (!oldSide || !newSide) return 2;
    for (const s of [oldSide, newSide]) {
      if (s.info.kind === 'gemini-settings') {
        io.stderr.write(`${s.info.file}: error: a Gemini CLI settings file's tool lists are not modelled for diff; compare its policy files (.gemini/policies/*.toml) [cli/diff-unsupported]\n`);
        return 2;
      }
    }
    const report = diffSides(oldSide, newSide);
    write(io.stdout, renderReport(report, format, newNamed.path, io));
    return report.verdict === 'equivalent' ? 0 : 1;
  },
};
