/**
 * A small JSON model for re-spelling tool inputs: number literals are kept as written and every
 * member is kept in source order, duplicates included, so a re-spelling never changes a value by
 * accident (canonical mode keeps number text verbatim, and Go's decoder keeps the last duplicate).
 */

export type Json =
  | { kind: 'object'; members: [string, Json][] }
  | { kind: 'array'; items: Json[] }
  | { kind: 'string'; value: string }
  | { kind: 'number'; text: string }
  | { kind: 'literal'; text: 'true' | 'false' | 'null' };

const WS = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Parses one JSON document (surrounding whitespace allowed); `undefined` when it is not JSON. */
export function parseJson(text: string): Json | undefined {
  let i = 0;
  const skip = () => {
    while (i < text.length && WS.has(text[i]!)) i++;
  };
  const str = (): string | undefined => {
    if (text[i] !== '"') return undefined;
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) return undefined;
      i += text[i] === '\\' ? 2 : 1;
    }
    if (i >= text.length) return undefined;
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return undefined;
    }
  };
  const value = (depth: number): Json | undefined => {
    if (depth > 200) return undefined;
    skip();
    const c = text[i];
    if (c === '{') {
      i++;
      const members: [string, Json][] = [];
      skip();
      if (text[i] === '}') return i++, { kind: 'object', members };
      for (;;) {
        skip();
        const key = str();
        if (key === undefined) return undefined;
        skip();
        if (text[i] !== ':') return undefined;
        i++;
        const v = value(depth + 1);
        if (!v) return undefined;
        members.push([key, v]);
        skip();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return i++, { kind: 'object', members };
        else return undefined;
      }
    }
    if (c === '[') {
      i++;
      const items: Json[] = [];
      skip();
      if (text[i] === ']') return i++, { kind: 'array', items };
      for (;;) {
        const v = value(depth + 1);
        if (!v) return undefined;
        items.push(v);
        skip();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return i++, { kind: 'array', items };
        else return undefined;
      }
    }
    if (c === '"') {
      const s = str();
      return s === undefined ? undefined : { kind: 'string', value: s };
    }
    for (const lit of ['true', 'false', 'null'] as const) {
      if (text.startsWith(lit, i)) return (i += lit.length), { kind: 'literal', text: lit };
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m) return (i += m[0].length), { kind: 'number', text: m[0] };
    return undefined;
  };
  const v = value(0);
  skip();
  return v && i === text.length ? v : undefined;
}

/** The model of a plain JavaScript value (from `JSON.parse` or a literal in a test). */
export function fromValue(v: unknown): Json {
  if (v === null || v === undefined) return { kind: 'literal', text: 'null' };
  if (typeof v === 'boolean') return { kind: 'literal', text: v ? 'true' : 'false' };
  if (typeof v === 'number') return { kind: 'number', text: Number.isFinite(v) ? JSON.stringify(v) : '0' };
  if (typeof v === 'string') return { kind: 'string', value: v };
  if (Array.isArray(v)) return { kind: 'array', items: v.map(fromValue) };
  return { kind: 'object', members: Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, fromValue(x)]) };
}

/** Whether some object, at any depth, repeats a key exactly (Go's decoder keeps the last one). */
export function hasDuplicateKeys(v: Json): boolean {
  if (v.kind === 'array') return v.items.some(hasDuplicateKeys);
  if (v.kind !== 'object') return false;
  const seen = new Set<string>();
  for (const [k, x] of v.members) {
    if (seen.has(k) || hasDuplicateKeys(x)) return true;
    seen.add(k);
  }
  return false;
}

/** Compact text, members in the order held: what `JSON.stringify` writes for the same value. */
export function compact(v: Json): string {
  switch (v.kind) {
    case 'object':
      return `{${v.members.map(([k, x]) => `${JSON.stringify(k)}:${compact(x)}`).join(',')}}`;
    case 'array':
      return `[${v.items.map(compact).join(',')}]`;
    case 'string':
      return JSON.stringify(v.value);
    default:
      return v.text;
  }
}

/**
 * The value a Go program decodes: in every object the last of repeated keys wins (at the place of
 * its first occurrence, as `JSON.parse` does). Used to judge what a call really asks for.
 */
export function effective(v: Json): Json {
  if (v.kind === 'array') return { kind: 'array', items: v.items.map(effective) };
  if (v.kind !== 'object') return v;
  const out = new Map<string, Json>();
  for (const [k, x] of v.members) out.set(k, effective(x));
  return { kind: 'object', members: [...out] };
}

/** Every string in `v` (keys and values, at any depth), decoded. */
export function strings(v: Json): string[] {
  if (v.kind === 'string') return [v.value];
  if (v.kind === 'array') return v.items.flatMap(strings);
  if (v.kind === 'object') return v.members.flatMap(([k, x]) => [k, ...strings(x)]);
  return [];
}
