// Verdict's models and readers, from the built package (`pnpm build` first).
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const here = new URL('..', import.meta.url).pathname;
const entry = join(here, '..', '..', 'packages', 'native', 'dist', 'index.js');

export async function loadModels() {
  const native = await import(pathToFileURL(entry).href);
  return { native, bash: await native.loadBashParser() };
}
