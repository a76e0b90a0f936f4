/**
 * The members of a JSON object with the exact text of each value (its raw span), so a tool input
 * reaches the approver as the agent wrote it: repeated keys, escapes and number literals intact.
 * Call only on text `JSON.parse` accepted: the scanner trusts the grammar and only finds boundaries.
 */

export interface RawMember {
  key: string;
  /** The value's text, byte for byte as in the source. */
  raw: string;
  /** The value as `JSON.parse` reads it (for nested objects, the last of repeated keys wins). */
  value: unknown;
}

export interface ObjectMembers {
  members: RawMember[];
  /** The first key that appears twice, if any. */
  repeated: string | undefined;
}

const isWs = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

function skipWs(text: string, i: number): number {
  while (i < text.length && isWs(text.charCodeAt(i))) i++;
  return i;
}

/** Index just past the string that starts at `i` (a `"`). */
function skipString(text: string, i: number): number {
  for (i++; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x22) return i + 1;
  }
  return i;
}

/** Index just past the value that starts at `i`. */
function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x22) return skipString(text, i);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    for (; i < text.length; i++) {
      const d = text.charCodeAt(i);
      if (d === 0x22) {
        i = skipString(text, i) - 1;
      } else if (d === 0x7b || d === 0x5b) depth++;
      else if (d === 0x7d || d === 0x5d) {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return i;
  }
  // number, true, false, null: up to the next delimiter
  while (i < text.length) {
    const d = text.charCodeAt(i);
    if (d === 0x2c || d === 0x7d || d === 0x5d || isWs(d)) break;
    i++;
  }
  return i;
}

/**
 * The top-level members of `text`, which must be JSON `JSON.parse` accepts; `undefined` when its
 * top-level value is not an object.
 */
export function objectMembers(text: string): ObjectMembers | undefined {
  let i = skipWs(text, 0);
  if (text.charCodeAt(i) !== 0x7b) return undefined;
  i = skipWs(text, i + 1);
  const members: RawMember[] = [];
  const seen = new Set<string>();
  let repeated: string | undefined;
  if (text.charCodeAt(i) === 0x7d) return { members, repeated };
  for (;;) {
    const keyEnd = skipString(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipWs(text, keyEnd);
    i = skipWs(text, i + 1); // the colon
    const end = skipValue(text, i);
    const raw = text.slice(i, end);
    members.push({ key, raw, value: JSON.parse(raw) });
    if (seen.has(key)) repeated ??= key;
    else seen.add(key);
    i = skipWs(text, end);
    if (text.charCodeAt(i) !== 0x2c) break;
    i = skipWs(text, i + 1);
  }
  return { members, repeated };
}

/** The member `key` (the first, when repeated). */
export function member(members: ObjectMembers, key: string): RawMember | undefined {
  return members.members.find((m) => m.key === key);
}
