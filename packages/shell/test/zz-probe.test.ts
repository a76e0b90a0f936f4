import { readFileSync } from 'node:fs';
import { it } from 'vitest';
import { parse } from 'just-bash';
import { extract } from '../src/extract.ts';
it('probe', () => {
  const texts = JSON.parse(readFileSync('/tmp/rd/in.json', 'utf8')) as string[];
  const out: string[] = [];
  for (const t of texts) {
    const r = extract(t);
    out.push(`${JSON.stringify(t)} => ${JSON.stringify(r.commands.map((c) => [c.program, ...c.args]))} ${JSON.stringify(r.unknowns.map((u) => u.reason))}`);
    if (process.env.AST) { try { out.push(JSON.stringify(parse(t), (k, v) => (k === 'sourceText' || k === 'line' ? undefined : v))); } catch (e) { out.push('ERR ' + String(e)); } }
  }
  require('node:fs').writeFileSync('/tmp/rd/out.txt', out.join('\n') + '\n');
});
