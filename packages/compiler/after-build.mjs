// Run by scripts/build-package.mjs once tsc has built dist/: writes the published JSON Schemas
// (the same set as `verdict schema --out DIR`) into dist/schemas/, which package.json exports as
// `@verdict/compiler/schemas/NAME.schema.json` for editors and other tools.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export default async function afterBuild(dir) {
  const { writeSchemaFiles } = await import(pathToFileURL(join(dir, 'dist', 'index.js')).href);
  writeSchemaFiles(join(dir, 'dist', 'schemas'));
}
