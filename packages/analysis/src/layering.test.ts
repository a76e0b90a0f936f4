import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('layering', () => {
  it('the package imports only the engine (never the compiler, lint, testing or the CLI) and no npm package', () => {
    const dir = new URL('./', import.meta.url);
    const outside = new Set<string>();
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
      const text = readFileSync(new URL(f, dir), 'utf8');
      for (const m of text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/gm)) {
        const spec = m[1] as string;
        if (!spec.startsWith('./')) outside.add(spec);
      }
    }
    expect([...outside]).toEqual(['@verdict/engine']);
  });
});
