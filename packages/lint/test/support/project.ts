import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temporary folder holding `files` (relative names, folders made as needed); its path. */
export function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-lint-'));
  for (const [name, text] of Object.entries(files)) {
    const p = join(dir, name);
    mkdirSync(join(p, '..'), { recursive: true });
    writeFileSync(p, text);
  }
  return dir;
}
