import {
  formatReport,
  FUZZ_PROPERTIES,
  type FuzzPropertyName,
  type FuzzSkipped,
  fuzzPolicy,
  loadPolicy,
  policyFromSource,
  NEEDS_OTHER,
  NEEDS_WHERE,
  type PolicyUnderTest,
  propertyReportJson,
  wherePredicate,
} from '@verdict/testing';
import { DECIDING } from '../command-rules.ts';
import { type Command, type CommandIo, parse, UsageError, write } from '../args.ts';
import { type PolicyInput, readPolicyInput, stdinFilenameOption, stdinName } from '../load.ts';
import { renderDiagnostics } from '../render.ts';

const USAGE = `usage: verdict fuzz --policy FILE|- [--property NAME]… [--other FILE|-] [--tool NAME] [--where REGEX]
                    [--reason TEXT] [--runs N] [--seed S] [--time-limit SECONDS] [-f text|json]
                    [--stdin-filename NAME]

Checks properties of a policy on generated tool calls: calls shaped like real agent calls, calls
aimed at each rule (inputs that match its regex and inputs one edit away), and variants of the
policy's inline tests. A failure shrinks to a small call, printed as an inline test to paste.
The seed is printed; run again with --seed to replay.

properties:
  respelling      the decision does not change when the same JSON input is spelled differently
                  (key order, whitespace, \\uXXXX and \\/ escapes); the default
  duplicate-keys  an input that repeats a key is not allowed when its last value (what the tool
                  runs) is denied or asked about
  never-allows    no call whose decoded input has a string matching --where (for --tool, if
                  given) is allowed
  always-denies   every such call is denied (not asked about), with --reason if given
  equivalent      --other FILE decides every call as the policy does (a refactor)
  stricter        the policy allows nothing --other FILE denies (with ask rules: decides every
                  call at least as strictly, allow < ask < deny)

options:
  --policy FILE     the policy file (YAML, JSON or .verdict); "-" reads it from stdin (one of
                    --policy and --other at most)
  --property NAME   a property above; repeat for several
  --other FILE      the second policy of equivalent and stricter
  --tool NAME       limit never-allows / always-denies to this tool (case-insensitive)
  --where REGEX     the calls never-allows / always-denies are about (RE2, searched in each string
                    value of the decoded input, or in the raw input when it is not JSON)
  --reason TEXT     the reason always-denies expects
  --stdin-filename NAME
                    the name a policy read from stdin goes by in messages; its extension picks
                    the syntax
  --runs N          generated calls per property (default 200)
  --seed S          the seed (default: random, printed)
  --time-limit S    seconds for the whole run (default 120): past it no new call is generated, and
                    the report says which properties stopped early, which did not run, and which
                    rules got no aimed calls (a rule whose regex is a large program is slow to sample)
  -f, --format FMT  text (default) or json
  -h, --help        show this help

exit: 0 every property held, 1 a property failed, 2 usage error or a policy that cannot load`;

/** Seconds a run may take unless `--time-limit` says otherwise. */
const DEFAULT_TIME_LIMIT = 120;

function skippedText(s: FuzzSkipped): string {
  const lines = [`time limit of ${s.timeLimit} s reached (--time-limit):`];
  if (s.stopped.length > 0) lines.push(`  stopped early: ${s.stopped.join(', ')}`);
  if (s.notRun.length > 0) lines.push(`  not run: ${s.notRun.join(', ')}`);
  if (s.unsampledRules.length > 0) {
    lines.push(`  no calls aimed at ${s.unsampledRules.length} rule${s.unsampledRules.length === 1 ? '' : 's'} (their regexes were still being sampled):`);
    for (const r of s.unsampledRules) lines.push(`    ${r}`);
  }
  return lines.join('\n');
}

function load(input: PolicyInput, io: CommandIo): PolicyUnderTest | undefined {
  const result = input.source !== undefined ? policyFromSource(input.source, input.file, DECIDING) : loadPolicy(input.file, DECIDING);
  const text = renderDiagnostics(result.diagnostics, input.file);
  if (text) io.stderr.write(text);
  return result.ok ? result.policy : undefined;
}

function progressBar(io: CommandIo, label: string): ((done: number, total: number) => void) | undefined {
  if (!io.isTTY) return undefined;
  let last = -1;
  return (done, total) => {
    const width = 30;
    const filled = Math.min(width, Math.round((done / total) * width));
    if (filled === last && done !== total) return;
    last = filled;
    io.stdout.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
  };
}

export const fuzzCommand: Command = {
  name: 'fuzz',
  summary: 'check properties of a policy on generated calls; counterexamples print as inline tests',
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parse(argv, {
      policy: { type: 'string', short: 'p' },
      property: { type: 'string', multiple: true },
      other: { type: 'string' },
      tool: { type: 'string' },
      where: { type: 'string' },
      reason: { type: 'string' },
      runs: { type: 'string' },
      seed: { type: 'string' },
      'time-limit': { type: 'string' },
      format: { type: 'string', short: 'f' },
      ...stdinFilenameOption,
    });
    if (values.help) return write(io.stdout, USAGE), 0;
    if (!values.policy) throw new UsageError('missing `--policy FILE`');
    if (positionals.length > 0) throw new UsageError(`unexpected argument \`${positionals[0]}\``);
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json') throw new UsageError(`unknown format \`${format}\` (want text or json)`);
    const names = (values.property ?? (values.where !== undefined ? ['never-allows'] : ['respelling'])) as string[];
    for (const n of names) {
      if (!(FUZZ_PROPERTIES as readonly string[]).includes(n)) throw new UsageError(`unknown property \`${n}\` (want ${FUZZ_PROPERTIES.join(', ')})`);
    }
    const properties = names as FuzzPropertyName[];
    const runs = values.runs === undefined ? 200 : Number(values.runs);
    if (!Number.isInteger(runs) || runs < 1) throw new UsageError(`\`--runs\` wants a positive whole number, not \`${values.runs}\``);
    const seed = values.seed === undefined ? (Math.random() * 0x7fffffff) | 0 : Number(values.seed);
    if (!Number.isSafeInteger(seed)) throw new UsageError(`\`--seed\` wants a whole number, not \`${values.seed}\``);
    const limitText = values['time-limit'];
    const timeLimit = limitText === undefined ? DEFAULT_TIME_LIMIT : Number(limitText);
    if (!Number.isFinite(timeLimit) || timeLimit <= 0) throw new UsageError(`\`--time-limit\` wants a positive number of seconds, not \`${limitText}\``);
    if (properties.some((n) => NEEDS_OTHER.includes(n)) && values.other === undefined) throw new UsageError('`equivalent` and `stricter` need `--other FILE`');
    if (properties.some((n) => NEEDS_WHERE.includes(n)) && values.where === undefined) throw new UsageError('`never-allows` and `always-denies` need `--where REGEX`');
    if (values.where !== undefined) {
      const w = wherePredicate(values.where, values.tool);
      if (!w.ok) throw new UsageError(`\`--where\` is not a valid regex: ${w.error}`);
    }

    const name = stdinName([values.policy, values.other], values['stdin-filename']);
    const policyInput = await readPolicyInput(values.policy, io, name);
    const otherInput = values.other === undefined ? undefined : await readPolicyInput(values.other, io, name);
    if (!policyInput || (values.other !== undefined && !otherInput)) return 2;
    const policy = load(policyInput, io);
    const other = otherInput === undefined ? undefined : load(otherInput, io);
    if (!policy || (values.other !== undefined && !other)) return 2;

    if (format === 'text') write(io.stdout, `verdict fuzz: ${policyInput.file}, ${runs} runs per property, seed ${seed}`);
    let showingProgress = false;
    const run = fuzzPolicy({
      policy,
      ...(other === undefined ? {} : { other }),
      properties,
      ...(values.where === undefined ? {} : { where: values.where }),
      ...(values.tool === undefined ? {} : { tool: values.tool }),
      ...(values.reason === undefined ? {} : { reason: values.reason }),
      runs,
      seed,
      timeLimit,
      onStart: (name) => {
        const bar = format === 'text' ? progressBar(io, name) : undefined;
        showingProgress = bar !== undefined;
        return bar;
      },
      onReport: (report) => {
        if (showingProgress) io.stdout.write('\r\x1b[K');
        if (format === 'text') write(io.stdout, formatReport(report));
      },
    });
    const { reports, failed, notRun, skipped } = run;
    if (format === 'json') {
      write(io.stdout, JSON.stringify({ policy: policyInput.file, seed, runs, properties: reports.map(propertyReportJson), ...(skipped ? { skipped } : {}) }, null, 2));
    } else {
      if (skipped) write(io.stdout, skippedText(skipped));
      const total = reports.length;
      const tail = failed ? `; replay with --seed ${seed}` : '';
      const skippedRuns = notRun.length > 0 ? `, ${notRun.length} not run` : '';
      write(io.stdout, `${total} propert${total === 1 ? 'y' : 'ies'}: ${total - failed} held, ${failed} failed${skippedRuns} (seed ${seed}${tail})`);
    }
    return failed > 0 ? 1 : 0;
  },
};
