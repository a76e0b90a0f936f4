// Times compileFile (@verdict/compiler) and lintFiles (@verdict/lint) on one policy file, in a child
// process so a package that does not exist yet only skips its row. Prints a JSON object of rows.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [file, runsArg] = process.argv.slice(2) as [string, string];
const runs = Number(runsArg);
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const rows: Record<string, string> = {};

function time(f: () => unknown): string {
  if (runs > 2) f(); // warm-up
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    f();
    t.push(performance.now() - s);
  }
  t.sort((a, b) => a - b);
  return `${(t[Math.floor(t.length / 2)] ?? 0).toFixed(1)} ms median of ${runs}`;
}

async function load(pkg: string, dir: string): Promise<Record<string, unknown> | undefined> {
  try {
    return (await import(pkg)) as Record<string, unknown>;
  } catch {
    try {
      return (await import(pathToFileURL(join(root, dir, 'src/index.ts')).href)) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  }
}

const compiler = await load('@verdict/compiler', 'packages/compiler');
const compileFile = compiler?.['compileFile'];
if (typeof compileFile === 'function') rows['`compileFile` (load → compile, 100 rules)'] = time(() => compileFile(file));
else rows['`compileFile`'] = 'skipped: @verdict/compiler has no compileFile yet';

const lint = await load('@verdict/lint', 'packages/lint');
const lintFiles = lint?.['lintFiles'];
if (typeof lintFiles === 'function') {
  const probe = runs > 2 ? lintFiles([file]) : undefined;
  if (probe instanceof Promise || runs <= 2) {
    await probe;
    const t: number[] = [];
    for (let i = 0; i < runs; i++) {
      const s = performance.now();
      await lintFiles([file]);
      t.push(performance.now() - s);
    }
    t.sort((a, b) => a - b);
    rows['`lintFiles` (100 rules)'] = `${(t[Math.floor(t.length / 2)] ?? 0).toFixed(1)} ms median of ${runs}`;
  } else rows['`lintFiles` (100 rules)'] = time(() => lintFiles([file]));
} else rows['`lintFiles`'] = 'skipped: @verdict/lint has no lintFiles yet';

/**
 * Linting many files (the lint issue: "1,000 files in well under a second of work per hundred"):
 * the policies of fixtures/policies (YAML, JSON, .verdict) copied round-robin, each copy's patterns
 * made unique with a `(?:(?:N){0})` prefix (it matches the empty string: no meaning changes), so
 * caches that are keyed on patterns cannot flatter the figure. CPU time of one `lintFiles` call.
 */
function uniquePatterns(text: string, ext: string, n: number): string {
  const tag = `(?:(?:${n}){0})`;
  if (ext === '.json') return text.replace(/"match": ?"/g, (m) => m + tag);
  if (ext === '.verdict') return text.replace(/^( *(?:allow|deny) +\S+(?: field \S+)? +)\//gm, (_m, head: string) => `${head}/${tag}`);
  return text.replace(/match: (['"])/g, (_m, q: string) => `match: ${q}${tag}`);
}
if (typeof lintFiles === 'function') {
  const count = runs > 5 ? 1000 : 200;
  const src = join(root, 'fixtures/policies');
  const templates = readdirSync(src)
    .filter((f) => /\.(ya?ml|json|verdict)$/.test(f))
    .map((f) => ({ ext: f.slice(f.lastIndexOf('.')), text: readFileSync(join(src, f), 'utf8') }));
  const dir = mkdtempSync(join(tmpdir(), 'verdict-lint-corpus-'));
  try {
    for (let i = 0; i < count; i++) {
      const t = templates[i % templates.length]!;
      writeFileSync(join(dir, `p${i}${t.ext}`), uniquePatterns(t.text, t.ext, i));
    }
    const before = process.cpuUsage();
    const run = (await lintFiles([dir])) as { results: unknown[] };
    const used = process.cpuUsage(before);
    const ms = (used.user + used.system) / 1000;
    rows[`\`lintFiles\` on ${count} files (fixtures/policies, patterns made unique)`] =
      `${(ms / 1000).toFixed(2)} s CPU for ${run.results.length} files: ${((ms * 100) / Math.max(1, run.results.length)).toFixed(0)} ms per 100 files`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

process.stdout.write(JSON.stringify(rows));
