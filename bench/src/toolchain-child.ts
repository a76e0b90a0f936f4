// Times compileFile (@verdict/compiler) and lintFiles (@verdict/lint) on one policy file, in a child
// process so a package that does not exist yet only skips its row. Prints a JSON object of rows.
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

process.stdout.write(JSON.stringify(rows));
