import { caseFold, compileRegex, type RuleIR } from '@verdict/engine';
import { DECIDING } from '../command-rules.ts';
import fc from 'fast-check';
import {
  alwaysDenies,
  callsWithin,
  checkProperty,
  type DeriveBudget,
  dslTest,
  effective,
  equivalent,
  formatReport,
  invariantUnderRespelling,
  loadPolicy,
  policyFromSource,
  matching,
  nearMiss,
  neverAllows,
  noDuplicateKeySmuggling,
  parseJson,
  type PolicyProperty,
  type PolicyUnderTest,
  type PropertyReport,
  ruleName,
  stricterThan,
  toolCall,
  type ToolCall,
  toolInput,
  toolName,
  yamlTest,
} from '@verdict/testing';
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

/** `deny[0] \`\\pL{1000}\` (p.yaml:5:12)`: a rule by list, index, pattern and place. */
function ruleLabel(rule: RuleIR, policies: readonly (PolicyUnderTest | undefined)[]): string {
  for (const p of policies) {
    for (const list of ['deny', 'allow'] as const) {
      const index = p?.config?.[list].indexOf(rule) ?? -1;
      if (index < 0) continue;
      const span = rule.matchSpan ?? rule.span;
      const pattern = [...rule.match].length > 64 ? `${[...rule.match].slice(0, 60).join('')}…` : rule.match;
      return `${list}[${index}] \`${pattern}\`${span ? ` (${span.file}:${span.start.line}:${span.start.column})` : ''}`;
    }
  }
  return `\`${rule.match}\``;
}

interface Skipped {
  timeLimit: number;
  notRun: string[];
  stopped: string[];
  unsampledRules: string[];
}

function skippedText(s: Skipped): string {
  const lines = [`time limit of ${s.timeLimit} s reached (--time-limit):`];
  if (s.stopped.length > 0) lines.push(`  stopped early: ${s.stopped.join(', ')}`);
  if (s.notRun.length > 0) lines.push(`  not run: ${s.notRun.join(', ')}`);
  if (s.unsampledRules.length > 0) {
    lines.push(`  no calls aimed at ${s.unsampledRules.length} rule${s.unsampledRules.length === 1 ? '' : 's'} (their regexes were still being sampled):`);
    for (const r of s.unsampledRules) lines.push(`    ${r}`);
  }
  return lines.join('\n');
}

const PROPERTIES = ['respelling', 'duplicate-keys', 'never-allows', 'always-denies', 'equivalent', 'stricter'] as const;
type PropertyName = (typeof PROPERTIES)[number];

function load(input: PolicyInput, io: CommandIo): PolicyUnderTest | undefined {
  const result = input.source !== undefined ? policyFromSource(input.source, input.file, DECIDING) : loadPolicy(input.file, DECIDING);
  const text = renderDiagnostics(result.diagnostics, input.file);
  if (text) io.stderr.write(text);
  return result.ok ? result.policy : undefined;
}

function stringValues(text: string): string[] {
  const v = parseJson(text.trim() === '' ? '{}' : text);
  if (!v) return [text];
  const out: string[] = [];
  const walk = (x: ReturnType<typeof effective>) => {
    if (x.kind === 'string') out.push(x.value);
    else if (x.kind === 'array') x.items.forEach(walk);
    else if (x.kind === 'object') x.members.forEach(([, m]) => walk(m));
  };
  walk(effective(v));
  return out;
}

function wherePredicate(where: string, tool: string | undefined): (call: ToolCall) => boolean {
  const compiled = compileRegex(where);
  if (!compiled.ok) throw new UsageError(`\`--where\` is not a valid regex: ${compiled.error}`);
  const re = compiled.regex;
  const folded = tool === undefined ? undefined : caseFold(tool);
  return (call) => (folded === undefined || caseFold(call.tool) === folded) && stringValues(call.input).some((s) => re.test(s));
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

function reportJson(r: PropertyReport) {
  const c = r.counterexample;
  return {
    property: r.property,
    statement: r.statement,
    ok: r.ok,
    runs: r.runs,
    ...(r.relevant !== undefined ? { relevant: r.relevant } : {}),
    ...(r.interrupted === true ? { interrupted: true } : {}),
    shrinks: r.shrinks,
    ...(r.error !== undefined ? { error: r.error } : {}),
    ...(c
      ? {
          counterexample: {
            summary: c.summary,
            observations: c.observations.map((o) => ({
              policy: o.policy,
              tool: o.call.tool,
              input: o.call.input,
              decision: o.explanation.decision,
              reason: o.explanation.reason,
              rule: ruleName(o.explanation),
            })),
            tests: c.tests.map((t) => ({ tool: t.call.tool, input: t.call.input, expect: t.expect, yaml: yamlTest(t), verdict: dslTest(t) })),
          },
        }
      : {}),
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
      if (!(PROPERTIES as readonly string[]).includes(n)) throw new UsageError(`unknown property \`${n}\` (want ${PROPERTIES.join(', ')})`);
    }
    const runs = values.runs === undefined ? 200 : Number(values.runs);
    if (!Number.isInteger(runs) || runs < 1) throw new UsageError(`\`--runs\` wants a positive whole number, not \`${values.runs}\``);
    const seed = values.seed === undefined ? (Math.random() * 0x7fffffff) | 0 : Number(values.seed);
    if (!Number.isSafeInteger(seed)) throw new UsageError(`\`--seed\` wants a whole number, not \`${values.seed}\``);
    const limitText = values['time-limit'];
    const timeLimit = limitText === undefined ? DEFAULT_TIME_LIMIT : Number(limitText);
    if (!Number.isFinite(timeLimit) || timeLimit <= 0) throw new UsageError(`\`--time-limit\` wants a positive number of seconds, not \`${limitText}\``);
    const needsOther = names.some((n) => n === 'equivalent' || n === 'stricter');
    if (needsOther && values.other === undefined) throw new UsageError('`equivalent` and `stricter` need `--other FILE`');
    const needsWhere = names.some((n) => n === 'never-allows' || n === 'always-denies');
    if (needsWhere && values.where === undefined) throw new UsageError('`never-allows` and `always-denies` need `--where REGEX`');
    const predicate = values.where === undefined ? undefined : wherePredicate(values.where, values.tool);

    const name = stdinName([values.policy, values.other], values['stdin-filename']);
    const policyInput = await readPolicyInput(values.policy, io, name);
    const otherInput = values.other === undefined ? undefined : await readPolicyInput(values.other, io, name);
    if (!policyInput || (values.other !== undefined && !otherInput)) return 2;
    const policy = load(policyInput, io);
    const other = otherInput === undefined ? undefined : load(otherInput, io);
    if (!policy || (values.other !== undefined && !other)) return 2;

    // One budget for the whole run: deriving calls from the rules (probing each regex), then each
    // property in turn with what is left.
    const deadline = performance.now() + timeLimit * 1000;
    const budget: DeriveBudget = { deadline, skipped: [] };
    let derived: fc.Arbitrary<ToolCall> | undefined;
    const calls = (): fc.Arbitrary<ToolCall> => (derived ??= other === undefined ? callsWithin(budget, policy) : callsWithin(budget, policy, other));

    // never-allows / always-denies: besides the policy's own calls, calls aimed at --where (strings
    // that match it and strings one edit away, as a command or a path, and as the whole raw input).
    const domainCalls = (p: PolicyUnderTest): fc.Arbitrary<ToolCall> => {
      const where = values.where!;
      const parts: fc.Arbitrary<string>[] = [];
      for (const make of [matching, nearMiss]) {
        try {
          parts.push(make(where));
        } catch {
          // a regex the generator cannot sample: the policy's calls still run
        }
      }
      if (parts.length === 0) return calls();
      const samples = fc.oneof(...parts);
      const tool = values.tool === undefined ? toolName() : fc.constant(values.tool);
      const aimed = fc.oneof(
        toolCall({ tool, input: samples.map((s) => ({ command: s })) }),
        toolCall({ tool, input: samples.map((s) => ({ file_path: s })) }),
        toolCall({ tool, input: samples }),
        tool.chain((t) => toolCall({ tool: t, input: toolInput(t) })),
      );
      return fc.oneof(calls(), aimed);
    };

    const property = (name: PropertyName): PolicyProperty<unknown> => {
      switch (name) {
        case 'respelling':
          return invariantUnderRespelling(policy, { calls: calls() }) as PolicyProperty<unknown>;
        case 'duplicate-keys':
          return noDuplicateKeySmuggling(policy) as PolicyProperty<unknown>;
        case 'never-allows':
          return neverAllows(policy, predicate!, { calls: domainCalls(policy) }) as PolicyProperty<unknown>;
        case 'always-denies':
          return alwaysDenies(policy, predicate!, { calls: domainCalls(policy), ...(values.reason === undefined ? {} : { reason: values.reason }) }) as PolicyProperty<unknown>;
        case 'equivalent':
          return equivalent(policy, other!, { calls: calls() }) as PolicyProperty<unknown>;
        case 'stricter':
          return stricterThan(policy, other!, { calls: calls() }) as PolicyProperty<unknown>;
      }
    };

    if (format === 'text') write(io.stdout, `verdict fuzz: ${policyInput.file}, ${runs} runs per property, seed ${seed}`);
    const reports: PropertyReport[] = [];
    const notRun: string[] = [];
    for (const name of names as PropertyName[]) {
      // Made first: deriving its calls spends the budget too (and lists the rules it had no time for).
      const made = property(name);
      const left = deadline - performance.now();
      if (left <= 0) {
        notRun.push(name);
        continue;
      }
      const onProgress = format === 'text' ? progressBar(io, name) : undefined;
      const report = checkProperty(made, { numRuns: runs, seed, timeLimit: left, ...(onProgress ? { onProgress } : {}) });
      if (onProgress) io.stdout.write('\r\x1b[K');
      reports.push(report);
      if (format === 'text') write(io.stdout, formatReport(report));
    }
    const failed = reports.filter((r) => !r.ok).length;
    const stopped = reports.filter((r) => r.interrupted === true).map((r) => r.property);
    const unsampled = budget.skipped.map((r) => ruleLabel(r, [policy, other]));
    const skipped = notRun.length + stopped.length + unsampled.length > 0 ? { timeLimit, notRun, stopped, unsampledRules: unsampled } : undefined;
    if (format === 'json') {
      write(io.stdout, JSON.stringify({ policy: policyInput.file, seed, runs, properties: reports.map(reportJson), ...(skipped ? { skipped } : {}) }, null, 2));
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
