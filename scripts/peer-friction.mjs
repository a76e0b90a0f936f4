#!/usr/bin/env node
/**
 * The starters' friction on an outside corpus (docs/shell.md "Friction"): of the commands a peer
 * calls safe whose every program (and subcommand) an allow rule's prefix names and that really only
 * read (no capability the table marks, no write redirection, nothing Verdict cannot read: a text
 * that is `unknown` is out of scope, and counted apart), the share the policy refuses for nothing: no
 * rule of it decides the refusal (the default does, or an allow is too narrow). A refusal a deny or ask
 * rule of the starter decides is what the starter says (the Codex starter's reads outside the project)
 * and is counted in a column of its own.
 *
 *   pnpm build && node scripts/peer-friction.mjs PEER_CORPORA_DIR [--list POLICY]
 *
 * Reads every `*.jsonl` of the folder (lines with `command` and `peer_label`), judges the safe ones
 * with `verdict eval` under each starter, and prints one row per starter. `--list` prints the
 * refused commands of one starter (its file name, e.g. `claude-code.yaml`).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const shell = await import(join(root, 'packages/shell/dist/index.js'));
const { parse } = await import(join(root, 'packages/compiler/node_modules/yaml/dist/index.js'));

const [dir, ...rest] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node scripts/peer-friction.mjs CORPORA_DIR [--list POLICY]');
  process.exit(2);
}
const list = rest[0] === '--list' ? rest[1] : undefined;

const STARTERS = [
  ['fixtures/policies/claude-code.yaml', 'Bash'],
  ['fixtures/policies/codex.yaml', 'Bash'],
  ['fixtures/policies/gemini-cli.yaml', 'run_shell_command'],
  ['fixtures/policies/cursor.yaml', 'Shell'],
  ['fixtures/shell/starter.policy.yaml', 'Bash'],
];

const safe = [];
for (const name of readdirSync(dir).sort()) {
  if (!name.endsWith('.jsonl')) continue;
  for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const c = JSON.parse(line);
    if ((c.peer_label === 'safe' || c.peer_label === 'reads') && typeof c.command === 'string') safe.push(c.command);
  }
}

/** The shells a policy says may run a tool's text (its `shell:` entry's, else the approver's; absent: any). */
function shellsOf(file, tool) {
  const doc = parse(readFileSync(join(root, file), 'utf8'));
  const a = doc.approver ?? doc;
  return (a.shell ?? []).find((t) => t.tool === tool)?.shells ?? a.shells;
}

/** A policy's allow command rules for one tool, as argv prefixes (each word a list of alternatives). */
function allowPrefixes(file, tool) {
  const doc = parse(readFileSync(join(root, file), 'utf8'));
  const a = doc.approver ?? doc;
  return (a.allow ?? []).filter((r) => r.command !== undefined && (r.tool === undefined || r.tool === tool)).map((r) => r.command.map((w) => (Array.isArray(w) ? w : [w])));
}

/** Whether some rule's prefix (its `args` aside) is the start of the argv: the policy allows this program (and subcommand). */
function named(argv, prefixes) {
  return prefixes.some((p) => p.length <= argv.length && p.every((alts, i) => alts.includes(argv[i])));
}

/**
 * Whether the text only reads, by programs the policy allows: every command known, its program
 * and subcommand named by an allow rule's prefix, no capability the table marks, no write.
 */
function inScope(text, prefixes, unknownToo = false, shells = undefined) {
  const ext = shell.extract(text, shells ? { shells } : {});
  if (ext.commands.length === 0 || ext.writes.length > 0 || (!unknownToo && ext.unknowns.length > 0)) return false;
  return ext.commands.every(
    (c) => named([c.program, ...c.args], prefixes) && c.wrappers.every((w) => shell.WRAPPERS[w.program] !== undefined && shell.capabilitiesOf(w.program, w.args).length === 0) && c.redirects.length === 0 && shell.capabilitiesOf(c.program, c.args).length === 0 && !(shell.entryOf(c.program)?.inherent?.length > 0),
  );
}

console.log('starter                              in scope  refused  share   by a deny or ask rule   (and unknown to Verdict: texts otherwise in scope)');
for (const [file, tool] of STARTERS) {
  const prefixes = allowPrefixes(file, tool);
  const shells = shellsOf(file, tool);
  const cases = [...new Set(safe)].filter((t) => inScope(t, prefixes, false, shells));
  const input = cases.map((c) => JSON.stringify({ toolName: tool, input: JSON.stringify({ command: c }) })).join('\n') + '\n';
  const p = spawnSync(process.execPath, [join(root, 'packages/cli/bin/verdict.mjs'), 'eval', '--policy', join(root, file)], { input, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (p.status !== 0) {
    console.error(p.stderr);
    process.exit(1);
  }
  const out = p.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const byRule = (i) => out[i].rule !== null && out[i].rule !== undefined && out[i].rule.list !== 'allow';
  const refused = cases.filter((_, i) => out[i].decision !== 'allow' && !byRule(i));
  const stated = cases.filter((_, i) => out[i].decision !== 'allow' && byRule(i));
  const unknown = [...new Set(safe)].filter((t) => !cases.includes(t) && inScope(t, prefixes, true, shells));
  console.log(`${file.padEnd(36)} ${String(cases.length).padStart(8)} ${String(refused.length).padStart(8)} ${((100 * refused.length) / Math.max(1, cases.length)).toFixed(1).padStart(5)} %   ${String(stated.length).padStart(21)}   ${unknown.length}`);
  if (list && file.endsWith(list)) for (const t of unknown) console.log(`  unknown: ${JSON.stringify(t)}`);
  if (list && file.endsWith(list)) for (const [i, c] of cases.entries()) if (out[i].decision !== 'allow') console.log(`  ${byRule(i) ? 'by a rule: ' : ''}${JSON.stringify(c)}  -- ${out[i].reason}`);
}
