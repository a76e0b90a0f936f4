import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { expect, it } from 'vitest';
import { schemaCommand } from './compile.ts';

it('`verdict schema --out DIR` writes a set whose $refs resolve offline', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-schema-'));
  try {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    stdout.on('data', (c) => (out += String(c)));
    const code = await schemaCommand.run(['--out', dir], { stdout, stderr } as never);
    expect(code).toBe(0);
    const files = readdirSync(dir).sort();
    expect(files).toEqual(['approver.schema.json', 'descriptor.schema.json', 'policy-file.schema.json', 'policy.schema.json', 'tests.schema.json']);
    expect(out.trim().split('\n').sort()).toEqual(files.map((f) => join(dir, f)).sort());
    // Only the written files: every $ref must resolve without fetching anything.
    const { Ajv } = createRequire(import.meta.url)('ajv') as { Ajv: new (o: object) => { addSchema(s: object): void; getSchema(id: string): ((d: unknown) => boolean) | undefined } };
    const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, strict: true });
    for (const f of files) ajv.addSchema(JSON.parse(readFileSync(join(dir, f), 'utf8')));
    const validate = ajv.getSchema('https://verdict.dev/schemas/policy-file.schema.json')!;
    expect(validate({ mode: ' Pattern ', default: 'Deny', allow: [{ tool: 'Read' }], policy: { sandbox: 'read_only' } })).toBe(true);
    expect(validate({ mode: 'patern', policy: { sandbox: 'Read_only' } })).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
