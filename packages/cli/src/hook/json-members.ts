/**
 * The members of a JSON object with the exact text of each value (its raw span), so a tool input
 * reaches the approver as the agent wrote it: repeated keys, escapes and number literals intact.
 */
import { scanObjectMembers } from '@verdict/engine';

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

/**
 * The top-level members of `text`, read by the engine's one span scanner (the reader `verdict eval`
 * uses for request lines); `undefined` when the text is not a JSON object.
 */
export function objectMembers(text: string): ObjectMembers | undefined {
  const scanned = scanObjectMembers(text);
  if (scanned.kind !== 'object') return undefined;
  const seen = new Set<string>();
  let repeated: string | undefined;
  const members = scanned.members.map((m): RawMember => {
    if (seen.has(m.key)) repeated ??= m.key;
    else seen.add(m.key);
    const raw = text.slice(m.start, m.end);
    return { key: m.key, raw, value: m.string ?? JSON.parse(raw) };
  });
  return { members, repeated };
}

/** The member `key` (the first, when repeated). */
export function member(members: ObjectMembers, key: string): RawMember | undefined {
  return members.members.find((m) => m.key === key);
}
