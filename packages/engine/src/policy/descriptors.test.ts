import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUILTIN_DRIVER_NAMES, builtinDescriptors, getBuiltinDescriptor } from './descriptors.ts';
import { readRepoJson, REPO_ROOT } from '../../test/support/policy.ts';

describe('built-in descriptors (B4)', () => {
  it.each(BUILTIN_DRIVER_NAMES)('%s: the TypeScript data equals the published JSON files', (name) => {
    expect(readRepoJson(`packages/engine/descriptors/${name}.json`)).toEqual(builtinDescriptors[name]);
    expect(readRepoJson(`fixtures/descriptors/${name}.json`)).toEqual(builtinDescriptors[name]);
  });

  it('match the seed matrix', () => {
    const summary = Object.fromEntries(
      BUILTIN_DRIVER_NAMES.map((name) => {
        const c = builtinDescriptors[name].run_policy_caps;
        const on = (caps: object) =>
          Object.entries(caps)
            .filter(([k, v]) => k !== 'retry' && v === true)
            .map(([k]) => k)
            .join(',');
        const retry = c.permission.retry || c.plan_review.retry || c.question.retry;
        return [
          name,
          [
            `${c.isolation}/${c.web_search}/${c.browser}`,
            on(c.permission) || 'none',
            on(c.plan_review) || 'none',
            on(c.question) || 'none',
            retry ? 'retry' : 'no retry',
            builtinDescriptors[name].structured_output.works_with_hitl ? 'hitl' : 'no hitl',
          ].join(' | '),
        ];
      }),
    );
    expect(summary).toEqual({
      codex: 'true/true/false | auto_approve | none | none | no retry | no hitl',
      claude:
        'false/false/true | auto_approve,auto_reject | ask,auto_approve,auto_reject | ask,auto_reject | no retry | no hitl',
      cursor: 'false/false/false | auto_approve | none | none | no retry | no hitl',
      codebuddy:
        'false/false/false | ask,auto_approve,auto_reject | ask,auto_approve,auto_reject | ask,auto_reject | no retry | no hitl',
    });
  });

  it('are looked up by exact lowercase name and are frozen', () => {
    expect(getBuiltinDescriptor('claude')).toBe(builtinDescriptors.claude);
    expect(getBuiltinDescriptor('Claude')).toBeUndefined();
    expect(getBuiltinDescriptor('constructor')).toBeUndefined();
    expect(Object.isFrozen(builtinDescriptors.codex.run_policy_caps.permission)).toBe(true);
    for (const name of BUILTIN_DRIVER_NAMES) expect(builtinDescriptors[name].type).toBe(name);
  });
});

interface SchemaNode {
  type?: string;
  required?: string[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean;
  $ref?: string;
}

describe('descriptor.schema.json', () => {
  const schema = readRepoJson('packages/engine/descriptors/descriptor.schema.json') as SchemaNode & {
    $schema: string;
    definitions: Record<string, SchemaNode>;
  };
  const resolve = (node: SchemaNode): SchemaNode =>
    node.$ref === undefined ? node : (schema.definitions[node.$ref.replace('#/definitions/', '')] ?? {});

  /** Every object in the data is closed and requires exactly the keys the data has. */
  function check(node: SchemaNode, value: unknown, path: string): void {
    const s = resolve(node);
    if (typeof value === 'boolean') {
      expect(s.type, path).toBe('boolean');
      return;
    }
    if (typeof value === 'string') {
      expect(s.type, path).toBe('string');
      return;
    }
    expect(s.type, path).toBe('object');
    expect(s.additionalProperties, path).toBe(false);
    const keys = Object.keys(value as object);
    expect([...(s.required ?? [])].sort(), path).toEqual([...keys].sort());
    expect(Object.keys(s.properties ?? {}).sort(), path).toEqual([...keys].sort());
    for (const key of keys) check(s.properties?.[key] ?? {}, (value as Record<string, unknown>)[key], `${path}.${key}`);
  }

  it('is draft-07 and describes the built-in data exactly (all required, nothing extra)', () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    for (const name of BUILTIN_DRIVER_NAMES) check(schema, builtinDescriptors[name], name);
  });

  it('the broken fixture really lacks half its fields', () => {
    const broken = readRepoJson('fixtures/descriptors/broken-half.json') as Record<string, unknown>;
    expect(Object.keys(broken)).not.toContain('structured_output');
    const caps = broken['run_policy_caps'] as Record<string, unknown>;
    expect(Object.keys(caps).sort()).toEqual(['isolation', 'permission', 'web_search']);
  });

  it('the newer-Claude fixture advertises permission ask', () => {
    const text = readFileSync(new URL('fixtures/descriptors/claude-newer.yaml', REPO_ROOT), 'utf8');
    expect(text).toMatch(/^type: claude$/m);
    expect(text).toMatch(/^ {2}permission: \{ask: true, auto_approve: true, auto_reject: true, retry: false\}$/m);
  });
});
