// Codex: generated `.rules` files and argvs, decided by `codex execpolicy check` (the native binary of
// @openai/codex, one spawn per call) and by Verdict's model (packages/native/src/codex/decide.ts).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The native binary inside @openai/codex's platform package (what the `codex` launcher execs). */
export function codexBinary() {
  const triple = { 'linux-x64': 'x86_64-unknown-linux-musl', 'linux-arm64': 'aarch64-unknown-linux-musl', 'darwin-x64': 'x86_64-apple-darwin', 'darwin-arm64': 'aarch64-apple-darwin' }[`${process.platform}-${process.arch}`];
  const pkg = `@openai/codex-${process.platform}-${process.arch}`;
  const root = dirname(require.resolve(`${pkg}/package.json`, { paths: [dirname(require.resolve('@openai/codex/package.json'))] }));
  return join(root, 'vendor', triple, 'bin', 'codex');
}

const PROGRAMS = ['git', 'git', 'hg', 'ls', 'rm', 'python3', 'bash', 'a b', '*', 'Git', '/usr/bin/git', 'rm '];
const WORDS = ['push', 'pull', '--force', '-C', '.', 'status', '-rf', '/', 'x', 'push ', '*', '-c', '-lc', '$HOME', '', 'Push', '-f', 'origin', 'é', 'a"b', 'a\\b', 'line\nbreak', '\t', '--', '~'];
const BASES = ['git', 'ls', 'hg', 'rm'];
const DIRS = ['/usr/bin', '/bin', '/opt/homebrew/bin', '/usr/local/bin'];

const q = (s) => JSON.stringify(s);

function genRule(r, line) {
  const element = (pool) => (r.chance(0.25) ? [r.pick(pool), r.pick(pool)] : r.pick(pool));
  const rest = Array.from({ length: r.int(4) }, () => element(WORDS));
  let pattern = [element(PROGRAMS), ...rest];
  if (r.chance(0.005)) pattern = [];
  if (r.chance(0.005)) pattern = [r.chance(0.5) ? [] : 'git', ...(r.chance(0.5) ? [[]] : []), ...rest];
  const decision = r.chance(0.005) ? 'deny' : r.pick(['allow', 'prompt', 'forbidden', undefined]);
  const justification = r.chance(0.2) ? (r.chance(0.05) ? r.pick(['', ' ']) : r.pick(['why', 'keeps the tree clean'])) : undefined;
  return { kind: 'rule', pattern, decision, justification, line };
}

function genHost(r, line) {
  const name = r.chance(0.01) ? '/usr/bin/git' : r.pick(BASES);
  const paths = Array.from({ length: r.int(3) }, () => {
    if (r.chance(0.01)) return `usr/bin/${name}`;
    if (r.chance(0.01)) return `/usr/bin/${name}2`;
    if (r.chance(0.1)) return r.pick([`/usr/bin/../bin/${name}`, `/usr//bin/${name}`, `/usr/bin/${name}/`, `/usr/./bin/${name}`]);
    return `${r.pick(DIRS)}/${name}`;
  });
  return { kind: 'host', name, paths, line };
}

// Starlark spellings Codex reads alike: double or single quotes, the pattern by keyword or position, trailing
// commas, comments, calls over several lines.
function render(items, r) {
  const sq = (s) => (/['\\\n]/.test(s) || !r.chance(0.3) ? q(s) : `'${s}'`);
  return items
    .map((it) => {
      const comment = r.chance(0.1) ? '# a comment\n' : '';
      if (it.kind === 'host') return `${comment}host_executable(name=${sq(it.name)}, paths=[${it.paths.map(sq).join(', ')}${r.chance(0.2) ? ',' : ''}])`;
      const pat = it.pattern.map((e) => (Array.isArray(e) ? `[${e.map(sq).join(', ')}]` : sq(e))).join(', ');
      const args = [r.chance(0.2) ? `[${pat}]` : `pattern=[${pat}]`];
      if (it.decision !== undefined) args.push(`decision=${sq(it.decision)}`);
      if (it.justification !== undefined) args.push(`justification=${sq(it.justification)}`);
      if (it.match !== undefined) args.push(`match=[${it.match.map(sq).join(', ')}]`);
      if (it.notMatch !== undefined) args.push(`not_match=[${it.notMatch.map(sq).join(', ')}]`);
      const sep = r.chance(0.15) ? ',\n    ' : ', ';
      return `${comment}prefix_rule(${args.join(sep)}${r.chance(0.15) ? ',' : ''})`;
    })
    .join('\n') + '\n';
}

// match/not_match examples: strings Codex splits with shlex, sometimes ones that fail the rule.
function genExamples(r, rule) {
  if (rule.pattern.length === 0 || !r.chance(0.15)) return rule;
  const words = rule.pattern.map((e) => (Array.isArray(e) ? (e.length ? e[0] : 'x') : e));
  const asText = (ws) => ws.map((w) => (/^[A-Za-z0-9_./-]+$/.test(w) ? w : `'${w.replace(/'/g, '')}'`)).join(' ');
  const good = asText([...words, 'extra']);
  const bad = asText(['nomatch', ...words.slice(1)]);
  return { ...rule, match: r.chance(0.9) ? [good] : [bad], ...(r.chance(0.5) ? { notMatch: r.chance(0.9) ? [bad] : [good] } : {}) };
}

function genArgv(r, items) {
  const rules = items.filter((i) => i.kind === 'rule' && i.pattern.length > 0);
  let argv;
  if (rules.length > 0 && r.chance(0.85)) {
    const rule = r.pick(rules);
    argv = rule.pattern.map((e) => (Array.isArray(e) ? r.pick(e.length ? e : ['x']) : e));
    if (r.chance(0.2)) argv = argv.slice(0, Math.max(1, argv.length - 1));
    if (r.chance(0.5)) argv.push(...r.some(WORDS, 3));
    if (r.chance(0.2)) {
      const i = r.int(argv.length);
      argv[i] = r.pick([argv[i].toUpperCase(), `${argv[i]} `, argv[i].slice(0, -1), `"${argv[i]}"`, `\\${argv[i]}`]);
    }
  } else {
    argv = [r.pick(PROGRAMS), ...r.some(WORDS, 3)];
  }
  if (r.chance(0.3) && !argv[0].includes('/')) {
    const p = argv[0];
    argv[0] = r.pick([`${r.pick(DIRS)}/${p}`, `./${p}`, `../${p}`, `bin/../${p}`, `${p}/`, `//usr/bin/${p}`, `/usr/bin/./${p}`]);
  }
  return argv;
}

function runEngine(bin, rulesFile, argv, resolve, cwd, home) {
  return new Promise((done) => {
    const args = ['execpolicy', 'check', ...rulesFile.flatMap((f) => ['--rules', f]), ...(resolve ? ['--resolve-host-executables'] : []), '--', ...argv];
    const child = spawn(bin, args, { cwd, env: { PATH: process.env.PATH, HOME: home, CODEX_HOME: home } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      if (code !== 0) return done({ error: err.split('\n').find((l) => /^\s*error: /.test(l))?.trim() ?? `exit ${code}` });
      try {
        done({ result: JSON.parse(out) });
      } catch {
        done({ error: `unreadable output: ${out.slice(0, 200)}` });
      }
    });
  });
}

/** The engine's answer in the model's shape, for comparison. */
function engineView(result) {
  return {
    decision: result.decision,
    matchedRules: (result.matchedRules ?? []).map(({ prefixRuleMatch: m }) => ({
      matchedPrefix: m.matchedPrefix,
      decision: m.decision,
      justification: m.justification,
      resolvedProgram: m.resolvedProgram,
    })),
  };
}

function modelView(check) {
  return {
    decision: check.decision,
    matchedRules: check.matchedRules.map((m) => ({
      matchedPrefix: m.matchedPrefix,
      decision: m.decision,
      justification: m.justification,
      resolvedProgram: m.resolvedProgram,
    })),
  };
}

export async function codexDiff({ r, pairs, models, jobs = 2, onDisagreement }) {
  const N = models.native;
  const bin = codexBinary();
  const root = mkdtempSync(join(tmpdir(), 'native-diff-codex-'));
  const home = join(root, 'home');
  const cwd = join(root, 'work', 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const tasks = [];
  let files = 0;
  while (tasks.length < pairs) {
    const n = 1 + r.int(5);
    const items = [];
    for (let i = 0; i < n; i++) items.push(r.chance(0.2) ? genHost(r, i + 1) : genExamples(r, genRule(r, i + 1)));
    // Sometimes two files: Codex loads every rules file and merges their rules in order.
    const cut = r.chance(0.25) && items.length > 1 ? 1 + r.int(items.length - 1) : items.length;
    const parts = [items.slice(0, cut), items.slice(cut)].filter((p) => p.length > 0);
    const texts = parts.map((p) => render(p, r));
    const paths = texts.map((t) => {
      const f = join(root, `p${files++}.rules`);
      writeFileSync(f, t);
      return f;
    });
    const text = texts.join('# --- next file ---\n');
    const file = paths;
    // The model reads the files as Verdict reads them: the `native` reader, then the model's loader.
    const read = N.codexRulesInput(paths.map((f, i) => N.readCodexRules(f, texts[i])));
    const compiled = N.compileCodexRules(read.input);
    const policy = compiled.policy;
    // The reader's refusals carry its own wording; the loader's carry Codex's, compared word for word.
    const errors = [...read.errors.map((e) => ({ ...e, reader: true })), ...compiled.errors];
    const calls = 4 + r.int(6);
    for (let c = 0; c < calls && tasks.length < pairs; c++) {
      const argv = genArgv(r, items);
      const resolve = r.chance(0.5);
      tasks.push({ file, text, argv, resolve, errors, policy });
    }
  }
  let agree = 0;
  let disagree = 0;
  let loadErrors = 0;
  let matched = 0;
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const t = tasks[next++];
      const engine = await runEngine(bin, t.file, t.argv, t.resolve, cwd, home);
      let same;
      let model;
      if (engine.error !== undefined || t.errors.length > 0) {
        same = engine.error !== undefined && t.errors.length > 0 && (t.errors[0].reader || engine.error === `error: ${t.errors[0].message}`);
        model = t.errors.length > 0 ? { error: t.errors[0].message } : modelView(N.checkCodexCommand(t.policy, t.argv, { resolveHostExecutables: t.resolve, cwd }));
        if (same) loadErrors++;
      } else {
        model = modelView(N.checkCodexCommand(t.policy, t.argv, { resolveHostExecutables: t.resolve, cwd }));
        const e = engineView(engine.result);
        same = JSON.stringify(e) === JSON.stringify(model);
        if (same && e.decision !== undefined) matched++;
      }
      if (same) agree++;
      else {
        disagree++;
        onDisagreement({ agent: 'codex', rules: t.text, argv: t.argv, resolveHostExecutables: t.resolve, engine: engine.error !== undefined ? { error: engine.error } : engineView(engine.result), model });
      }
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  return { pairs: tasks.length, agree, disagree, files, loadErrors, matched };
}
