// The 100-rule corpus policy with shell command rules added against the same policy without them
// (issue 19): decisions per second for calls to other tools (the regex fast path, which command
// rules must leave alone) and for `bash` calls (regex rules alone, against regex rules plus the
// judge), measured interleaved in the same run, so the ratios hold whatever the machine's load.
//   pnpm build && pnpm --filter @verdict/bench exec tsx src/shell-policy.ts [ms]
import { type ApprovalRequest, type ApproverIR, compileApprover, type RuleIR } from '@verdict/engine';
import { commandJudgeFactory } from '@verdict/shell';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeCalls, makePolicy } from './corpus.ts';
import { fmt, interleavedThroughput } from './measure.ts';

const ms = Number(process.argv[2] ?? 3_000);
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

// The starter command rules (fixtures/shell/starter.json), written for the corpus's `bash` tool.
type StarterRule = { command?: (string | string[])[]; args?: string; redirect?: string };
const starter = JSON.parse(readFileSync(join(root, 'fixtures/shell/starter.json'), 'utf8')) as Record<'allow' | 'ask' | 'deny', StarterRule[]>;
const asRules = (list: StarterRule[] | undefined): RuleIR[] => (list ?? []).map((r) => ({ tool: 'bash', match: '', ...r }));

const regexOnly: ApproverIR = makePolicy(100);
const withCommands: ApproverIR = {
  ...regexOnly,
  shell: [{ tool: 'bash', field: 'command' }],
  unknown: 'ask',
  allow: [...regexOnly.allow, ...asRules(starter.allow)],
  ask: [...(regexOnly.ask ?? []), ...asRules(starter.ask)],
  deny: [...regexOnly.deny, ...asRules(starter.deny)],
};

const a = compileApprover(regexOnly);
const b = compileApprover(withCommands, { commandJudge: commandJudgeFactory });
if (!a.approver || !b.approver) throw new Error(`the policies do not compile: ${[...a.issues, ...b.issues].map((i) => i.message).join('; ')}`);
const plain = a.approver;
const judged = b.approver;

const corpus = makeCalls(10_000);
const others = corpus.filter((c) => c.toolName.toLowerCase() !== 'bash'); // tool names match case-insensitively
const benign = readFileSync(join(root, 'fixtures/shell/benign.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l): ApprovalRequest => ({ toolName: 'bash', input: JSON.stringify({ command: (JSON.parse(l) as { command: string }).command }) }));

// Both approvers decide the other tools' calls alike (the command layer only sees shell tools).
for (const c of others) {
  if (plain.approve(c).decision !== judged.approve(c).decision) throw new Error(`a ${c.toolName} call is decided differently with command rules`);
}

const rounds = 9;
const [otherPlain, otherJudged] = interleavedThroughput([(c) => plain.approve(c), (c) => judged.approve(c)], others, ms, rounds);
const [bashPlain, bashJudged] = interleavedThroughput([(c) => plain.approve(c), (c) => judged.approve(c)], benign, ms, rounds);

console.log(`node ${process.version}; the 100-rule corpus policy, ${asRules(starter.allow).length + asRules(starter.ask).length + asRules(starter.deny).length} starter command rules added for bash`);
console.log(`other tools (${others.length} calls): ${fmt.n(otherPlain!)}/s without, ${fmt.n(otherJudged!)}/s with command rules: ${(otherJudged! / otherPlain!).toFixed(2)}x`);
console.log(`bash, the benign corpus (${benign.length} commands): ${fmt.n(bashPlain!)}/s regex rules alone, ${fmt.n(bashJudged!)}/s with command rules: ${(bashJudged! / bashPlain!).toFixed(3)}x`);
