/**
 * The JSON Schemas (`packages/compiler/schemas/`, also published for editors), their ajv
 * validators, and ajv errors as located diagnostics.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as generated from './generated/validators.ts';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { POLICY_FIELDS } from '@verdict/engine';
import type { Diagnostic } from '@verdict/engine';
import { didYouMean } from './did-you-mean.ts';
import { pathFromJsonPointer } from './positions.ts';
import type { SourceMap } from './positions.ts';

/**
 * ajv itself is needed only to regenerate `generated/validators.ts` or to compile the schemas on
 * request; loading it lazily (ajv is CommonJS) keeps it off every command's start-up.
 */
const requireHere = createRequire(import.meta.url);
function loadAjv(): { Ajv: typeof Ajv; standaloneCode: (ajv: Ajv, refs: Record<string, string>) => string } {
  const { Ajv: AjvClass } = requireHere('ajv') as { Ajv: typeof Ajv };
  const standalone = requireHere('ajv/dist/standalone') as { default: (ajv: Ajv, refs: Record<string, string>) => string };
  return { Ajv: AjvClass, standaloneCode: standalone.default };
}

type JsonSchema = Record<string, unknown>;
export type SchemaName = 'policy-file' | 'approver' | 'policy' | 'tests' | 'descriptor';

const DESCRIPTOR_ID = 'https://verdict.dev/schemas/descriptor.schema.json';

/**
 * The schema files, read from disk: `packages/compiler/schemas/*.json` and the engine's
 * `descriptors/descriptor.schema.json`. Only generation and `getValidators({ compile: true })` read
 * them; at run time the copy in `generated/validators.ts` is used, so a bundled command finds its
 * schemas without files beside it.
 */
function readSchemaFiles(): Record<SchemaName, JsonSchema> {
  const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as JsonSchema;
  const schemaDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'schemas');
  const engineDir = dirname(requireHere.resolve('@verdict/engine/package.json'));
  return {
    'policy-file': readJson(join(schemaDir, 'policy-file.schema.json')),
    approver: readJson(join(schemaDir, 'approver.schema.json')),
    policy: readJson(join(schemaDir, 'policy.schema.json')),
    tests: readJson(join(schemaDir, 'tests.schema.json')),
    descriptor: { $id: DESCRIPTOR_ID, ...readJson(join(engineDir, 'descriptors', 'descriptor.schema.json')) },
  };
}

/**
 * The value domains the loader checks itself, with better diagnostics than a schema error (the SDK's
 * message, did-you-mean help, and for the run Policy a non-blocking `policy/invalid-value`): the
 * published schemas keep their `enum`/`pattern`/`anyOf`/`minimum` so editors flag bad values, and the
 * compiler validates with a copy without them, so a bad value still gets the loader's diagnostic.
 */
export const LOADER_CHECKED: Readonly<Partial<Record<SchemaName, readonly string[]>>> = Object.freeze({
  approver: ['/properties/mode', '/properties/default'],
  policy: [
    '/properties/preset',
    ...POLICY_FIELDS.map((f) => (f.group === 'policy' ? `/properties/${f.name}` : `/properties/approvals/properties/${f.name}`)),
  ],
  'policy-file': ['/properties/driver'],
});
const DOMAIN_KEYWORDS = ['enum', 'pattern', 'anyOf', 'minimum'];

/** The schemas the compiler validates with: the published ones without the loader-checked domains. */
export function validationSchemas(files: Record<SchemaName, JsonSchema>): Record<SchemaName, JsonSchema> {
  const out = structuredClone(files);
  for (const [name, pointers] of Object.entries(LOADER_CHECKED) as [SchemaName, readonly string[]][]) {
    for (const pointer of pointers) {
      let node: unknown = out[name];
      for (const seg of pointer.split('/').slice(1)) node = (node as Record<string, unknown> | undefined)?.[seg];
      if (!node || typeof node !== 'object') throw new Error(`LOADER_CHECKED: no \`${pointer}\` in ${name}.schema.json`);
      for (const k of DOMAIN_KEYWORDS) delete (node as Record<string, unknown>)[k];
    }
  }
  return out;
}

/**
 * Every published JSON Schema, by name (what `verdict schema NAME` prints and `--out` writes): with
 * the value domains that the compiler's own validation leaves to the loader (`LOADER_CHECKED`).
 */
export const schemas: Readonly<Record<SchemaName, JsonSchema>> = Object.freeze(
  generated.schemas as Record<SchemaName, JsonSchema>,
);

/**
 * The published schemas as files: `NAME.schema.json` in `dir` (made when missing), one set whose
 * `$ref`s name each other by their `$id`s. What `verdict schema --out DIR` writes, and what the
 * package build writes to `dist/schemas/`, which the package exports as
 * `@verdict/compiler/schemas/NAME.schema.json`. Returns the paths written; throws what `fs` throws.
 */
export function writeSchemaFiles(dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  return (Object.keys(schemas) as SchemaName[]).sort().map((name) => {
    const path = join(dir, `${name}.schema.json`);
    writeFileSync(path, `${JSON.stringify(schemas[name], null, 2)}\n`);
    return path;
  });
}

type Validator = ValidateFunction;
interface Validators {
  file: Validator;
  agentFile: Validator;
  descriptor: Validator;
}
let validators: Validators | undefined;

const AGENT_FILE_ID = 'https://verdict.dev/schemas/agent-file.schema.json';

/** One ajv instance holding every schema; the agent-file variant lets an agent's own top-level keys through. */
function buildAjv(schemas: Record<SchemaName, JsonSchema>, code?: { source: true; esm: true }): Ajv {
  const { Ajv: AjvClass } = loadAjv();
  const ajv = new AjvClass({ allErrors: true, allowUnionTypes: true, verbose: true, strict: true, ...(code ? { code } : {}) });
  ajv.addSchema(schemas.approver);
  ajv.addSchema(schemas.policy);
  ajv.addSchema(schemas.tests);
  ajv.addSchema(schemas['policy-file']);
  // A rousseau agent configuration: its other top-level keys are the agent's, not ours.
  ajv.addSchema({ ...schemas['policy-file'], $id: AGENT_FILE_ID, additionalProperties: true });
  ajv.addSchema(schemas.descriptor);
  return ajv;
}

const VALIDATOR_IDS = {
  file: 'https://verdict.dev/schemas/policy-file.schema.json',
  agentFile: AGENT_FILE_ID,
  descriptor: DESCRIPTOR_ID,
} as const;

/**
 * The source of `generated/validators.ts`: ajv's standalone code for the three validators, so a
 * command does not pay for compiling the schemas at start-up. `validators.test.ts` fails when the
 * checked-in file drifts from the schemas (`UPDATE_FIXTURES=1` rewrites it).
 */
export function generateValidatorsSource(): string {
  const files = readSchemaFiles();
  const code = loadAjv().standaloneCode(buildAjv(validationSchemas(files), { source: true, esm: true }), { ...VALIDATOR_IDS });
  const body = code
    .replace(/^"use strict";/, '')
    .replace(/require\("ajv\/dist\/runtime\/ucs2length"\)/g, 'ucs2lengthRuntime');
  return [
    '// @ts-nocheck',
    '// Generated by `generateValidatorsSource()` in ../schemas.ts from ../../schemas/*.json: do not edit.',
    "import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';",
    '// Node gives the CommonJS exports object, bundlers its `default`: accept both.',
    "const ucs2lengthRuntime = { default: typeof ucs2lengthModule === 'function' ? ucs2lengthModule : ucs2lengthModule.default };",
    body,
    '// The schemas themselves, for `verdict schema` and the `schemas` export.',
    `export const schemas = ${JSON.stringify(files)};`,
    '',
  ].join('\n');
}

/**
 * The validators: ajv's pre-generated standalone code (compiled at run time only if asked);
 * `published` compiles the published schemas, value domains included (what an editor checks).
 */
export function getValidators(options: { compile?: boolean; published?: boolean } = {}): Validators {
  if (options.compile || options.published) {
    const ajv = buildAjv(options.published ? readSchemaFiles() : validationSchemas(readSchemaFiles()));
    return {
      file: ajv.getSchema(VALIDATOR_IDS.file)!,
      agentFile: ajv.getSchema(VALIDATOR_IDS.agentFile)!,
      descriptor: ajv.getSchema(VALIDATOR_IDS.descriptor)!,
    };
  }
  validators ??= {
    file: generated.file as Validator,
    agentFile: generated.agentFile as Validator,
    descriptor: generated.descriptor as Validator,
  };
  return validators;
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'a mapping',
  array: 'a list',
  null: 'null',
};

function actualType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'number') return Number.isInteger(v) ? 'an integer' : 'a number';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'boolean') return 'a boolean';
  return typeof v;
}

function expectedType(t: unknown): string {
  const types = (Array.isArray(t) ? t : String(t).split(',')).map(String).filter((x) => x !== 'null');
  if (types.includes('string') && types.includes('number')) return 'a duration string';
  return types.map((x) => TYPE_WORDS[x] ?? x).join(' or ') || 'null';
}

/** How a path reads in a message: `default`, `allow[0]`, `tests[2].expect` → `expect`. */
function nameOf(path: readonly string[]): string {
  let i = path.length - 1;
  let suffix = '';
  while (i >= 0 && /^\d+$/.test(path[i] ?? '')) {
    suffix = `[${path[i]}]` + suffix;
    i--;
  }
  return i >= 0 ? `${path[i]}${suffix}` : suffix === '' ? 'the document' : `item ${suffix}`;
}

function show(v: unknown): string {
  if (typeof v === 'string') return `\`${v}\``;
  return `\`${JSON.stringify(v)}\``;
}

function toPath(segments: readonly string[]): (string | number)[] {
  return segments.map((s) => (/^(?:0|[1-9]\d*)$/.test(s) ? Number(s) : s));
}

/** ajv errors → diagnostics at the exact node (the key for unknown keys, the value otherwise). */
export function schemaDiagnostics(errors: readonly ErrorObject[], sourceMap: SourceMap): Diagnostic[] {
  const out: Diagnostic[] = [];
  const typeErrorAt = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  const seen = new Set<string>();
  for (const e of errors) {
    if (e.keyword !== 'type' && typeErrorAt.has(e.instancePath)) continue;
    if (e.keyword === 'if' || e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    const key = `${e.keyword}\u0000${e.instancePath}\u0000${JSON.stringify(e.params)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const segments = pathFromJsonPointer(e.instancePath);
    const d = errorDiagnostic(e, segments, sourceMap);
    if (d) out.push(d);
  }
  return out;
}

function errorDiagnostic(e: ErrorObject, segments: string[], sourceMap: SourceMap): Diagnostic | undefined {
  const params = e.params as Record<string, unknown>;
  const name = nameOf(segments);
  const at = sourceMap.lookup(e.instancePath);
  const valueSpan = at?.entry.value;
  const base = { severity: 'error' as const, path: toPath(segments) };
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(params['additionalProperty']);
      const keyPath = [...segments, key];
      const entry = sourceMap.get(keyPath);
      const props = Object.keys(((e.parentSchema as JsonSchema | undefined)?.['properties'] as object) ?? {});
      const suggestion = didYouMean(key, props.filter((p) => p !== '$schema'));
      const d: Diagnostic = {
        ...base,
        code: 'schema/unknown-key',
        message: segments.length === 0 ? `unknown key \`${key}\`` : `unknown key \`${key}\` in \`${name}\``,
        path: toPath(keyPath),
      };
      if (suggestion !== undefined) d.help = `did you mean \`${suggestion}\`?`;
      else if (props.length > 0 && props.length <= 12) {
        d.help = `expected one of ${props.filter((p) => p !== '$schema').map((p) => `\`${p}\``).join(', ')}`;
      }
      const span = entry?.key ?? entry?.value ?? valueSpan;
      if (span) d.span = span;
      return d;
    }
    case 'type': {
      const expected = expectedType(params['type']);
      const actual = actualType(e.data);
      const d: Diagnostic = {
        ...base,
        code: 'schema/type',
        message: `\`${name}\` must be ${expected}, not ${actual}`,
      };
      const last = segments[segments.length - 1];
      if (last === 'default' && segments.length <= 3 && expected.startsWith('a string')) {
        d.help = 'write `default: allow` or `default: deny`';
      } else if (last === 'mode' && segments.length <= 3 && expected.startsWith('a string')) {
        d.help = 'write `mode: pattern`, `mode: allow_all` or `mode: deny_all`';
      } else if (expected.startsWith('a string') && (actual === 'a boolean' || actual.endsWith('number') || actual === 'an integer')) {
        d.help = `quote the value to make it a string: \`"${String(e.data)}"\``;
      } else if (expected === 'an integer' && actual === 'a string' && /^-?\d+$/.test(String(e.data))) {
        d.help = `write the number without quotes: \`${String(e.data)}\``;
      }
      if (valueSpan) d.span = valueSpan;
      return d;
    }
    case 'enum': {
      const allowed = (params['allowedValues'] as unknown[]) ?? [];
      const d: Diagnostic = {
        ...base,
        code: 'schema/invalid-value',
        message: `\`${name}\` must be ${allowed.map(show).join(' or ')}, not ${show(e.data)}`,
      };
      if (typeof e.data === 'string') {
        const s = didYouMean(e.data, allowed.map(String));
        if (s !== undefined) d.help = `did you mean \`${s}\`?`;
      }
      if (valueSpan) d.span = valueSpan;
      return d;
    }
    case 'required': {
      const missing = String(params['missingProperty']);
      const d: Diagnostic = {
        ...base,
        code: 'schema/missing-key',
        message: segments.length === 0 ? `missing required key \`${missing}\`` : `\`${name}\` is missing the required key \`${missing}\``,
        path: toPath([...segments, missing]),
      };
      if (valueSpan) d.span = valueSpan;
      return d;
    }
    case 'pattern': {
      const d: Diagnostic = {
        ...base,
        code: 'schema/invalid-value',
        message:
          name === 'rule'
            ? `\`rule\` must be \`allow[N]\`, \`deny[N]\`, \`ask[N]\` or \`default\`, not ${show(e.data)}`
            : `\`${name}\` does not match the pattern \`${String(params['pattern'])}\``,
      };
      if (valueSpan) d.span = valueSpan;
      return d;
    }
    case 'minLength': {
      const d: Diagnostic = { ...base, code: 'schema/invalid-value', message: `\`${name}\` must not be empty` };
      if (valueSpan) d.span = valueSpan;
      return d;
    }
    default: {
      const d: Diagnostic = {
        ...base,
        code: 'schema/invalid',
        message: `\`${name}\` is invalid: ${e.message ?? e.keyword}`,
      };
      if (valueSpan) d.span = valueSpan;
      return d;
    }
  }
}
