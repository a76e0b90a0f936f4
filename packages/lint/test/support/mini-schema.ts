/**
 * A small JSON Schema (draft-07 subset) checker for the trimmed SARIF schema in fixtures/lint:
 * type, enum, required, properties, additionalProperties, items, minimum/maximum, uniqueItems,
 * anyOf, local `$ref`, and `format: uri | uri-reference`. ajv is not resolvable from this
 * package (it is the compiler's dependency), hence this checker; it reports every violation.
 */
type Schema = Record<string, unknown>;

export function validate(root: Schema, value: unknown): string[] {
  const errors: string[] = [];
  const resolve = (ref: string): Schema => {
    const name = ref.replace(/^#\/definitions\//, '');
    const s = (root.definitions as Record<string, Schema>)[name];
    if (s === undefined) throw new Error(`unknown $ref ${ref}`);
    return s;
  };
  const typeOf = (v: unknown): string =>
    v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v;
  const check = (s: Schema, v: unknown, at: string, errors: string[]): void => {
    if (typeof s.$ref === 'string') return check(resolve(s.$ref), v, at, errors);
    if (s.type !== undefined) {
      const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
      const t = typeOf(v);
      if (!types.some((x) => x === t || (x === 'number' && t === 'integer'))) {
        errors.push(`${at}: expected ${types.join('|')}, got ${t}`);
        return;
      }
    }
    if (Array.isArray(s.enum) && !s.enum.includes(v)) errors.push(`${at}: ${JSON.stringify(v)} not in enum`);
    if (typeof v === 'number') {
      if (typeof s.minimum === 'number' && v < s.minimum) errors.push(`${at}: ${v} < ${s.minimum}`);
      if (typeof s.maximum === 'number' && v > s.maximum) errors.push(`${at}: ${v} > ${s.maximum}`);
    }
    if (typeof v === 'string' && (s.format === 'uri' || s.format === 'uri-reference')) {
      if (s.format === 'uri' && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(v)) errors.push(`${at}: not an absolute URI`);
      if (/[\s"<>\\^`{|}]/.test(v)) errors.push(`${at}: invalid URI characters`);
    }
    if (Array.isArray(s.anyOf)) {
      const ok = (s.anyOf as Schema[]).some((alt) => {
        const sub: string[] = [];
        check(alt, v, at, sub);
        return sub.length === 0;
      });
      if (!ok) errors.push(`${at}: matches none of anyOf`);
    }
    if (typeOf(v) === 'object') {
      const o = v as Record<string, unknown>;
      for (const k of (s.required as string[] | undefined) ?? []) if (!(k in o)) errors.push(`${at}: missing ${k}`);
      const props = (s.properties as Record<string, Schema> | undefined) ?? {};
      for (const [k, val] of Object.entries(o)) {
        if (k in props) check(props[k] as Schema, val, `${at}/${k}`, errors);
        else if (s.additionalProperties === false) errors.push(`${at}: unexpected property ${k}`);
        else if (typeof s.additionalProperties === 'object') check(s.additionalProperties as Schema, val, `${at}/${k}`, errors);
      }
    }
    if (Array.isArray(v)) {
      if (s.items !== undefined) v.forEach((item, i) => check(s.items as Schema, item, `${at}/${i}`, errors));
      if (s.uniqueItems === true && new Set(v.map((x) => JSON.stringify(x))).size !== v.length) errors.push(`${at}: items not unique`);
    }
  };
  check(root, value, '', errors);
  return errors;
}
