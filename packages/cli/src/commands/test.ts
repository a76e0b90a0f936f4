import { ruleLabel, ruleWhere, spanText } from '@verdict/engine';
import type { Explanation, RuleRef, Span } from '@verdict/engine';
import { type CoverageReport, discover, runTarget, type TargetRun, type TestOutcome } from '@verdict/testing';
import { type Command, type CommandIo, parse, STDIN_ARG, UsageError, write } from '../args.ts';
import { readPolicyInput, stdinFilenameOption, stdinName } from '../load.ts';
import { DECIDING } from '../command-rules.ts';
import { writeReportFile } from '../output.ts';
import { renderDiagnostics } from '../render.ts';

const USAGE = `usage: verdict test [paths… | globs… | -] [--coverage] [--min-coverage N] [-f stylish|json|junit] [-o FILE] [--ignore-pattern P]… [--pass-with-no-tests] [--stdin-filename NAME]

Runs the inline tests of policy files (\`tests:\` in YAML and JSON, \`test\` blocks in .verdict) and the
cases of case files: NAME.test.yaml (.yml, .json, .verdict) holds only \`tests:\`, which run against
the policy NAME.yaml (.yml, .json, .verdict) in the same folder. Folders are searched recursively
for .yaml, .yml, .json and .verdict files, as \`verdict lint\` walks them (.gitignore files honoured,
no dot folders, node_modules, dist or coverage); a glob (\`'policies/**/*.yaml'\`, quoted) takes the
files it matches and fails the run when it matches none; no path means the current folder.
\`-\` reads one policy from standard input and runs its inline tests.

A test gives the tool, the input (a string is the raw JSON text; any other value its JSON text),
the expected decision, and optionally the expected reason and the expected deciding rule
(\`deny[0]\`, \`allow[2]\` or \`default\`). A failure shows the decision, the rule that decided and
where it is written, and the span of the input its pattern matched.

options:
  --coverage           per rule, how many tests it decided and how many it matched; list the rules
                       that decide no test
  --min-coverage N     fail when fewer than N percent of the rules decide a test (implies --coverage)
  -f, --format FORMAT  stylish (default), json or junit
  -o, --output FILE    write the report to FILE instead of standard output (folders are made)
  --ignore-pattern P   leave out the files and folders P names (a .gitignore line relative to the
                       working directory); repeatable
  --pass-with-no-tests exit 0 when no test is found
  --stdin-filename NAME
                       the name a policy read from standard input goes by in messages; its
                       extension picks the syntax
  -h, --help           show this help

exit: 0 every test passed, 1 a test failed (or coverage is below --min-coverage, or no test was
found), 2 usage error or a policy or case file that cannot load`;

type Format = 'stylish' | 'json' | 'junit';

function at(span: Span | undefined): string {
  return span ? spanText(span) : '';
}


/** What decided, where it is written, and what it matched. */
function decidedBy(e: Explanation): string {
  let s: string;
  switch (e.by) {
    case 'rule':
      s = e.rule ? ruleWhere(e.rule) : 'a rule';
      break;
    case 'default':
      s = 'the default (no rule matched)';
      break;
    case 'mode':
      s = 'the mode (allow_all / deny_all)';
      break;
    case 'invalid-input':
      s = 'input validation (input: canonical)';
      break;
    case 'compile-error':
      s = 'a pattern that does not compile';
      break;
    case 'command':
      s = e.rule ? `command rule ${ruleLabel(e.rule)}` : 'the command rules (what cannot be judged is never allowed)';
      if (e.shell?.command !== undefined) s += `, on the executed command ${JSON.stringify(e.shell.command)}`;
      break;
    default:
      s = 'an internal error (fail closed)';
  }
  if (e.match) {
    const subject = e.match.subject === 'field' ? 'the field value' : e.match.subject === 'canonical' ? 'the canonical input' : 'the raw input';
    s += `, which matched ${JSON.stringify(e.match.text)} at ${e.match.start}..${e.match.end} of ${subject}`;
  }
  return s;
}

function testName(o: TestOutcome): string {
  return o.test.name ?? `${o.test.tool} ${o.test.input}`;
}

function percent(n: number): string {
  return `${Number.isInteger(n) ? n : n.toFixed(1)}%`;
}

function ruleText(c: CoverageReport['rules'][number]): string {
  const r = c.rule;
  const tool = r.tool === '' ? 'any tool' : r.tool;
  const field = r.field !== undefined ? ` field ${r.field}` : '';
  if (r.command !== undefined || r.redirect !== undefined || r.args !== undefined) {
    // A command rule: the words it matches, as the DSL writes them.
    const parts: string[] = [];
    if (r.command !== undefined) parts.push(`command ${JSON.stringify(r.command)}`);
    if (r.args !== undefined) parts.push(`args ${JSON.stringify(r.args)}`);
    if (r.redirect !== undefined) parts.push(`redirect ${JSON.stringify(r.redirect)}`);
    return `${r.tool === '' ? 'any shell tool' : r.tool} ${parts.join(' ')}`;
  }
  const match = r.match === '' ? '(any input)' : `/${r.match}/`;
  return `${tool}${field} ${match}`;
}

function stylish(runs: readonly TargetRun[], withCoverage: boolean): string {
  const lines: string[] = [];
  for (const run of runs) {
    for (const o of run.outcomes) {
      if (o.passed) continue;
      lines.push(`${at(o.test.span) || o.file}: fail: ${testName(o)}`);
      for (const f of o.failures) lines.push(`  ${f}`);
      lines.push(`  call: ${o.test.tool} ${o.test.input}`);
      lines.push(`  decided by ${decidedBy(o.explanation)}`);
      if (o.explanation.decision === 'deny' && o.explanation.reason) lines.push(`  reason: ${o.explanation.reason}`);
      if (o.explanation.alsoMatched.length) lines.push(`  also matched: ${o.explanation.alsoMatched.map((r) => ruleWhere(r)).join(', ')}`);
    }
  }
  if (withCoverage) {
    for (const run of runs) {
      const c = run.coverage;
      if (!c) continue;
      if (lines.length) lines.push('');
      lines.push(`coverage of ${run.target.policyFile}: ${c.reached} of ${c.total} rules decide a test (${percent(c.percent)})`);
      const width = c.rules.reduce((w, r) => Math.max(w, ruleLabel(r).length), 7);
      const counts = c.rules.map((r) => `decided ${r.decided}, matched ${r.matched}`);
      const countWidth = counts.reduce((w, x) => Math.max(w, x.length), 0);
      const whereWidth = c.rules.reduce((w, r) => Math.max(w, at(r.rule.span).length), 0);
      c.rules.forEach((r, i) => {
        const name = ruleLabel(r).padEnd(width);
        lines.push(`  ${name}  ${counts[i]!.padEnd(countWidth)}  ${at(r.rule.span).padEnd(whereWidth)}  ${ruleText(r)}`);
      });
      lines.push(`  ${'default'.padEnd(width)}  decided ${c.defaultDecided}`);
      const unreached = c.rules.filter((r) => r.decided === 0);
      if (unreached.length) {
        lines.push('rules no test reaches:');
        for (const r of unreached) {
          const note = r.matched > 0 ? ` (matched by ${r.matched} test${r.matched === 1 ? '' : 's'}, decided by an earlier rule)` : '';
          lines.push(`  ${at(r.rule.span)}: ${ruleLabel(r)} ${ruleText(r)}${note}`);
        }
      }
    }
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

function ruleJson(r: RuleRef | null) {
  return r ? { list: r.list, index: r.index, file: r.span?.file ?? null, line: r.span?.start.line ?? null, column: r.span?.start.column ?? null } : null;
}

function outcomeJson(o: TestOutcome) {
  const e = o.explanation;
  return {
    file: o.test.span?.file ?? o.file,
    line: o.test.span?.start.line ?? null,
    column: o.test.span?.start.column ?? null,
    name: o.test.name ?? null,
    tool: o.test.tool,
    input: o.test.input,
    expect: o.test.expect,
    passed: o.passed,
    failures: o.failures,
    decision: e.decision,
    reason: e.reason,
    by: e.by,
    rule: ruleJson(e.rule),
    match: e.match,
    alsoMatched: e.alsoMatched.map(ruleJson),
  };
}

function coverageJson(run: TargetRun) {
  const c = run.coverage!;
  return {
    policy: run.target.policyFile,
    reached: c.reached,
    total: c.total,
    percent: c.percent,
    defaultDecided: c.defaultDecided,
    rules: c.rules.map((r) => ({
      list: r.list,
      index: r.index,
      file: r.rule.span?.file ?? null,
      line: r.rule.span?.start.line ?? null,
      column: r.rule.span?.start.column ?? null,
      tool: r.rule.tool,
      match: r.rule.match,
      ...(r.rule.field !== undefined ? { field: r.rule.field } : {}),
      decided: r.decided,
      matched: r.matched,
    })),
  };
}

function xml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function junit(runs: readonly TargetRun[]): string {
  const all = runs.flatMap((r) => r.outcomes);
  const failed = all.filter((o) => !o.passed).length;
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="verdict test" tests="${all.length}" failures="${failed}">`];
  for (const run of runs) {
    const f = run.outcomes.filter((o) => !o.passed).length;
    lines.push(`  <testsuite name="${xml(run.target.policyFile)}" tests="${run.outcomes.length}" failures="${f}">`);
    for (const o of run.outcomes) {
      const line = o.test.span ? ` line="${o.test.span.start.line}"` : '';
      const head = `    <testcase name="${xml(testName(o))}" classname="${xml(o.file)}" file="${xml(o.file)}"${line}`;
      if (o.passed) {
        lines.push(`${head}/>`);
        continue;
      }
      const body = [...o.failures, `call: ${o.test.tool} ${o.test.input}`, `decided by ${decidedBy(o.explanation)}`].join('\n');
      lines.push(`${head}>`, `      <failure message="${xml(o.failures.join('; '))}">${xml(body)}</failure>`, '    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

export const testCommand: Command = {
  name: 'test',
  summary: 'run the inline tests of policies and case files; --coverage lists rules no test reaches',
  usage: USAGE,
  async run(argv, io: CommandIo) {
    const { values, positionals } = parse(argv, {
      coverage: { type: 'boolean' },
      'min-coverage': { type: 'string' },
      format: { type: 'string', short: 'f' },
      output: { type: 'string', short: 'o' },
      'pass-with-no-tests': { type: 'boolean' },
      'ignore-pattern': { type: 'string', multiple: true },
      ...stdinFilenameOption,
    });
    if (values.help) return write(io.stdout, USAGE), 0;
    const format = (values.format ?? 'stylish') as Format;
    if (!['stylish', 'json', 'junit'].includes(format)) throw new UsageError(`unknown format \`${values.format}\` (want stylish, json or junit)`);
    let minCoverage: number | undefined;
    if (values['min-coverage'] !== undefined) {
      const raw = values['min-coverage'].replace(/%$/, '');
      minCoverage = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(minCoverage) || minCoverage < 0 || minCoverage > 100) {
        throw new UsageError(`\`--min-coverage\` wants a percentage from 0 to 100, not \`${values['min-coverage']}\``);
      }
    }
    const withCoverage = values.coverage === true || minCoverage !== undefined;

    const name = stdinName(positionals, values['stdin-filename']);
    const paths = positionals.filter((p) => p !== STDIN_ARG);
    const fromStdin = paths.length < positionals.length;
    const { targets, missing } = discover(paths.length > 0 || fromStdin ? paths : ['.'], values['ignore-pattern'] !== undefined ? { ignorePatterns: values['ignore-pattern'] } : {});
    if (fromStdin) {
      const input = await readPolicyInput(STDIN_ARG, io, name);
      if (!input) return 2;
      targets.unshift({ policyFile: input.file, inline: true, caseFiles: [], source: input.source! });
    }
    const runs = targets.map((t) => runTarget(t, { compile: DECIDING }));
    const diagnostics = [...missing, ...runs.flatMap((r) => r.diagnostics)];
    const diagText = renderDiagnostics(diagnostics);
    if (diagText) io.stderr.write(diagText);
    const loadFailed = missing.length > 0 || runs.some((r) => r.loadFailed);
    const ran = runs.filter((r) => !r.loadFailed);

    const outcomes = ran.flatMap((r) => r.outcomes);
    const failed = outcomes.filter((o) => !o.passed).length;
    const files = new Set(outcomes.map((o) => o.file)).size;
    const covered = ran.filter((r) => r.coverage);
    const reached = covered.reduce((n, r) => n + r.coverage!.reached, 0);
    const total = covered.reduce((n, r) => n + r.coverage!.total, 0);
    const overall = total === 0 ? 100 : (100 * reached) / total;
    const belowMin = minCoverage !== undefined && overall < minCoverage;

    let report = '';
    if (format === 'json') {
      const doc = {
        tests: outcomes.map(outcomeJson),
        summary: { tests: outcomes.length, passed: outcomes.length - failed, failed, files },
        ...(withCoverage
          ? { coverage: { reached, total, percent: overall, ...(minCoverage !== undefined ? { min: minCoverage } : {}), policies: covered.map(coverageJson) } }
          : {}),
      };
      report += `${JSON.stringify(doc, null, 2)}\n`;
    } else if (format === 'junit') {
      report += junit(ran);
    } else {
      const body = stylish(ran, withCoverage);
      report += body;
      const summary = `${outcomes.length} test${outcomes.length === 1 ? '' : 's'}: ${outcomes.length - failed} passed, ${failed} failed (${files} file${files === 1 ? '' : 's'})`;
      const lines = [summary];
      if (withCoverage) lines.push(`coverage: ${reached} of ${total} rules decide a test (${percent(overall)})`);
      if (belowMin) lines.push(`coverage ${percent(overall)} is below --min-coverage ${minCoverage}%`);
      if (outcomes.length > 0 || withCoverage) report += `${body ? '\n' : ''}${lines.join('\n')}\n`;
    }
    if (values.output !== undefined) {
      const failedWrite = writeReportFile(values.output, report);
      if (failedWrite !== undefined) return write(io.stderr, `verdict test: ${failedWrite}`), 2;
    } else {
      io.stdout.write(report);
    }
    if (belowMin && format !== 'stylish') io.stderr.write(`verdict test: coverage ${percent(overall)} is below --min-coverage ${minCoverage}%\n`);
    if (loadFailed) return 2;
    if (outcomes.length === 0 && values['pass-with-no-tests'] !== true) {
      io.stderr.write('verdict test: no tests found\n');
      return 1;
    }
    return failed > 0 || belowMin ? 1 : 0;
  },
};
