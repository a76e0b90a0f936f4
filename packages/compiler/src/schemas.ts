/**
 * The JSON Schemas (`packages/compiler/schemas/`, also published for editors), their ajv
 * validators, and ajv errors as located diagnostics.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Diagnostic } from '@verdict/engine';
import { didYouMean } from './did-you-mean.ts';
import { pathFromJsonPointer } from './positions.ts';
import type { SourceMap } from './positions.ts';

type JsonSchema = Record<string, unknown>;

function readJson(path: string): JsonSchema {
  return JSON.parse(readFileSync(path, 'utf8')) as JsonSchema;
}

const schemaDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'schemas');
const engineDir = dirname(createRequire(import.meta.url).resolve('@verdict/engine'));

const DESCRIPTOR_ID = 'https://verdict.dev/schemas/descriptor.schema.json';

/** Every JSON Schema the compiler validates with, by name (what `verdict schema NAME` prints). */
export const schemas: Readonly<Record<'policy-file' | 'approver' | 'policy' | 'tests' | 'descriptor', JsonSchema>> =
  Object.freeze({
    'policy-file': readJson(join(schemaDir, 'policy-file.schema.json')),
    approver: readJson(join(schemaDir, 'approver.schema.json')),
    policy: readJson(join(schemaDir, 'policy.schema.json')),
    tests: readJson(join(schemaDir, 'tests.schema.json')),
    descriptor: { $id: DESCRIPTOR_ID, ...readJson(join(engineDir, '..', 'descriptors', 'descriptor.schema.json')) },
  });

interface Validators {
  file: ValidateFunction;
  agentFile: ValidateFunction;
  descriptor: ValidateFunction;
}
let validators: Validators | undefined;

/** Compiled once, on first use. */
export function getValidators(): Validators {
  if (validators) return validators;
  const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, verbose: true, strict: true });
  ajv.addSchema(schemas.approver);
  ajv.addSchema(schemas.policy);
  ajv.addSchema(schemas.tests);
  const file = ajv.compile(schemas['policy-file']);
  // A rousseau agent configuration: its other top-level keys are the agent's, not ours.
  const agentSchema = {
    ...schemas['policy-file'],
    $id: 'https://verdict.dev/schemas/agent-file.schema.json',
    additionalProperties: true,
  };
  const agentFile = ajv.compile(agentSchema);
  const descriptor = ajv.compile(schemas.descriptor);
  validators = { file, agentFile, descriptor };
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
            ? `\`rule\` must be \`allow[N]\`, \`deny[N]\` or \`default\`, not ${show(e.data)}`
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
