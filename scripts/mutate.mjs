#!/usr/bin/env node
// `node scripts/mutate.mjs [name…]`: the decision path's mutation check. Each mutation is a small
// textual change to one source file of the engine's decision (the definition, the DFA, the steps,
// the gate) that changes what some call is decided as. One at a time, the script writes the mutant
// in place, runs the vitest files that guard that part, restores the file (always: also on an error
// or Ctrl-C), and prints the tests that failed. A mutation no test catches is a hole in the tests:
// the script then exits 1. With names, only those mutations run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const A = 'packages/engine/src/approver';

const TESTS = {
  definition: [`${A}/definition.test.ts`, `${A}/ask.test.ts`, `${A}/pattern.test.ts`, `${A}/reference.test.ts`, `${A}/fast-equivalence.test.ts`],
  dfa: [`${A}/fast-dfa.test.ts`, `${A}/fast-equivalence.test.ts`],
  steps: [`${A}/fast.test.ts`, `${A}/fast-equivalence.test.ts`, `${A}/ask.test.ts`, `${A}/fast-gate.test.ts`],
  gate: [`${A}/fast-gate.test.ts`, `${A}/fast-equivalence.test.ts`, `${A}/ask.test.ts`],
  // The precedence of a call's answers (call.ts): every entry point against the definition.
  call: ['packages/cli/test/decision-entry-points.test.ts'],
  // What the entry points cannot reach yet (no entry point passes protections): the unit table.
  'call-unit': [`${A}/call.test.ts`],
};

/** `[name, part, file, text as written, mutant text]`: the text must occur exactly once in the file. */
const MUTATIONS = [
  // The definition (definition.ts): the order, the tool, the field rules, fail closed.
  ['definition: ask before deny', 'definition', `${A}/definition.ts`, "['deny', 'ask', 'allow']", "['ask', 'deny', 'allow']"],
  ['definition: a rule without a tool applies to no tool', 'definition', `${A}/definition.ts`, "rule.foldedTool === '' || rule.foldedTool === foldedTool", 'rule.foldedTool === foldedTool'],
  ['definition: field rules search instead of matching whole', 'definition', `${A}/definition.ts`, 'rule.regex.testWholeWellFormed(value)', 'rule.regex.testWellFormed(value)'],
  ['definition: unreadable input matches only deny field rules (not ask)', 'definition', `${A}/definition.ts`, "if (value === null) return rule.list !== 'allow';", "if (value === null) return rule.list === 'deny';"],
  ['definition: an ask decides as an allow', 'definition', `${A}/definition.ts`, "decision === 'ask' ? { decision, reason: DEFAULT_ASK_REASON }", "decision === 'ask' ? { decision: 'allow', reason: ALLOW_REASON }"],
  // The DFA (fast-dfa.ts and dfa/).
  ['dfa: the last tier wins over the first', 'dfa', `${A}/dfa/program.ts`, 'if (bd < p.deny) return bd;\n  if (ba < p.allow) return p.deny + ba;', 'if (ba < p.allow) return p.deny + ba;\n  if (bd < p.deny) return bd;'],
  ['dfa: word boundary inverted', 'dfa', `${A}/dfa/program.ts`, '? WORD_BOUNDARY : NO_WORD_BOUNDARY', '? NO_WORD_BOUNDARY : WORD_BOUNDARY'],
  ['dfa: the Kelvin sign is not a k', 'dfa', `${A}/dfa/classes.ts`, 'new Set([0x4b, 0x6b, 0x53, 0x73])', 'new Set([0x53, 0x73])'],
  ['dfa: a skip lands one code unit per character back (issue 13)', 'dfa', `${A}/dfa/finders.ts`, 'export const LEAD_UNITS = 2 * LEAD_DEPTH;', 'export const LEAD_UNITS = LEAD_DEPTH;'],
  ['dfa: a state is final once no first-tier rule is left', 'dfa', `${A}/dfa/states.ts`, '(bd === 0 && p.deny > 0) || !alive', 'bd === 0 || !alive'],
  ['dfa: a lone surrogate read as itself', 'dfa', `${A}/fast-dfa.ts`, '} else c = 0xfffd;', '} else c = c;'],
  // The steps (steps.ts, decide.ts).
  ['steps: a literal at the very start is missed', 'steps', `${A}/steps.ts`, "case 'literal':\n      return find(text, t.needle) >= 0;", "case 'literal':\n      return find(text, t.needle) > 0;"],
  ['steps: an anchored prefix checked at the end', 'steps', `${A}/steps.ts`, "if (t.prefix !== '' && !text.startsWith(t.prefix)) return false;", "if (t.prefix !== '' && !text.endsWith(t.prefix)) return false;"],
  ['steps: a fold screen taken for the match', 'steps', `${A}/steps.ts`, 'if (t.exact !== null) return true; // the screen was the exact test', 'return true;'],
  ['steps: set results of the last call reused', 'steps', `${A}/steps.ts`, 'scratch.call = (scratch.call + 1) | 0;', 'scratch.call = scratch.call | 0;'],
  ['steps: nothing after an always-matching rule, itself included', 'steps', `${A}/steps.ts`, 'prepared.slice(0, cut + 1)', 'prepared.slice(0, cut)'],
  ['steps: ask rules left out of the plan', 'steps', `${A}/decide.ts`, 'LIST_ORDER.slice(0, -1);', 'LIST_ORDER.slice(0, 1);'],
  // The gate (fast-gate.ts, and its use in steps.ts and decide.ts).
  ['gate: a bucket is marked only when already seen', 'gate', `${A}/fast-gate.ts`, 'if (b !== 0 && seen[b - 1] !== no) {', 'if (b !== 0 && seen[b - 1] === no) {'],
  ['gate: grams one unit short', 'gate', `${A}/fast-gate.ts`, 'let best = lit.slice(lit.length - Q);', 'let best = lit.slice(lit.length - Q + 1);'],
  ['gate: the last call\'s scan reused', 'gate', `${A}/decide.ts`, '  group.scratch.scanned = false;\n', ''],
  ['gate: keys shorter than a gram', 'gate', `${A}/steps.ts`, 'test.needle.text.length >= Q ?', 'test.needle.text.length >= 1 ?'],
  // The precedence of a call (call.ts `precedence`), caught by the entry-points property test.
  ['call: an ask rule before a deny rule', 'call', `${A}/call.ts`, "if (a.decision === 'deny') return 2;\n      if (a.decision === 'ask') return 4;", "if (a.decision === 'deny') return 4;\n      if (a.decision === 'ask') return 2;"],
  ['call: an ask rule before unknown', 'call', `${A}/call.ts`, "case 'unknown':\n      return 3;", "case 'unknown':\n      return 4.5;"],
  ['call: unknown before a deny rule', 'call', `${A}/call.ts`, "case 'unknown':\n      return 3;", "case 'unknown':\n      return 1.5;"],
  ['call: unknown before a refusal', 'call', `${A}/call.ts`, "case 'refused':\n      return 1;", "case 'refused':\n      return 3.5;"],
  ['call: the default before an allow rule', 'call', `${A}/call.ts`, 'return a.whole ? 5 : undefined;', 'return a.whole ? 8 : undefined;'],
  ['call: an allow rule before an ask rule', 'call', `${A}/call.ts`, 'return a.whole ? 5 : undefined;', 'return a.whole ? 3.5 : undefined;'],
  ['call: the last-written rule wins a tie', 'call', `${A}/call.ts`, '(a.rule?.index ?? 0) < (best.rule?.index ?? 0)', '(a.rule?.index ?? 0) > (best.rule?.index ?? 0)'],
  ['call: one allowed path allows a patch', 'call', `${A}/call.ts`, 'return new Set(parts.map((a) => a.input)).size === pathCount;', 'return true;'],
  ['call: an allowed path decides before the default of the whole', 'call', `${A}/call.ts`, 'return a.whole ? 5 : undefined;', 'return a.whole ? 5 : 6;'],
  ['call: a protection loses to a refusal', 'call-unit', `${A}/call.ts`, "case 'protection':\n      return 0;", "case 'protection':\n      return 1.5;"],
];

const only = process.argv.slice(2);
const chosen = only.length === 0 ? MUTATIONS : MUTATIONS.filter(([name]) => only.some((o) => name.includes(o)));
const work = mkdtempSync(join(tmpdir(), 'verdict-mutate-'));

let restore = null;
const onSignal = () => {
  if (restore) restore();
  process.exit(130);
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

/** Runs `files` with vitest: the full names of the tests that failed, or `null` when vitest gave no report. */
function failures(files) {
  const out = join(work, 'result.json');
  rmSync(out, { force: true });
  spawnSync('pnpm', ['exec', 'vitest', 'run', ...files, '--reporter=json', `--outputFile=${out}`], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
    maxBuffer: 64 << 20,
  });
  let report;
  try {
    report = JSON.parse(readFileSync(out, 'utf8'));
  } catch {
    return null; // vitest did not report: not a catch
  }
  const failed = [];
  for (const file of report.testResults ?? []) {
    const rel = file.name.startsWith(root) ? file.name.slice(root.length + 1) : file.name;
    const tests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    if (tests.length === 0 && file.status === 'failed') failed.push(`${rel}: ${file.message?.split('\n')[0] ?? 'failed to run'}`);
    for (const t of tests) failed.push(`${rel} > ${t.fullName}`);
  }
  return failed;
}

let survivors = 0;
const started = Date.now();
for (const [name, part, file, from, to] of chosen) {
  const path = join(root, file);
  const original = readFileSync(path, 'utf8');
  const at = original.indexOf(from);
  if (at < 0 || original.indexOf(from, at + 1) >= 0) {
    console.log(`✗ ${name}\n    the text to mutate is not in ${file} exactly once: update this script`);
    survivors++;
    continue;
  }
  restore = () => writeFileSync(path, original);
  let failed;
  try {
    writeFileSync(path, original.slice(0, at) + to + original.slice(at + from.length));
    failed = failures(TESTS[part]);
  } finally {
    restore();
    restore = null;
  }
  if (failed === null) {
    survivors++;
    console.log(`✗ ${name} (${file}): vitest gave no report (not counted as caught)`);
  } else if (failed.length === 0) {
    survivors++;
    console.log(`✗ ${name} (${file}): NOT CAUGHT by ${TESTS[part].length} test files`);
  } else {
    console.log(`✓ ${name} (${file}): caught by ${failed.length} test(s), first:`);
    for (const f of failed.slice(0, 3)) console.log(`    ${f}`);
  }
}
rmSync(work, { recursive: true, force: true });
console.log(`\n${chosen.length - survivors} of ${chosen.length} mutations caught in ${Math.round((Date.now() - started) / 1000)} s.`);
process.exitCode = survivors === 0 ? 0 : 1;
