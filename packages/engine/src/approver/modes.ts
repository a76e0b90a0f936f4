/**
 * The mode and default of an approver configuration as the engine reads them (semantics.md A2.1,
 * A2.3). Kept apart from `config.ts` so that the definition (`definition.ts`) can read them without
 * importing the approvers it is the definition of.
 */
import type { Decision } from '../ir.ts';

export type ApproverMode = 'allow_all' | 'deny_all' | 'pattern';

// Go's unicode.IsSpace, which strings.TrimSpace uses (JS `trim` differs on U+0085 and U+FEFF).
const GO_SPACE = '\t\n\v\f\r \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';


/** Go `strings.TrimSpace`. */
export function goTrimSpace(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && GO_SPACE.includes(s[start]!)) start++;
  while (end > start && GO_SPACE.includes(s[end - 1]!)) end--;
  return s.slice(start, end);
}

/** A2.1: trimmed and lowercased; `""`/`allow_all`/`allow`, `deny_all`/`deny`, `pattern`. */
export function normalizeApproverMode(mode: string): ApproverMode | undefined {
  switch (goTrimSpace(mode).toLowerCase()) {
    case '':
    case 'allow_all':
    case 'allow':
      return 'allow_all';
    case 'deny_all':
    case 'deny':
      return 'deny_all';
    case 'pattern':
      return 'pattern';
    default:
      return undefined;
  }
}

/** A2.3: lowercased, not trimmed; `allow`, or `""`/`deny`. */
export function normalizeApproverDefault(value: string): Decision | undefined {
  switch (value.toLowerCase()) {
    case 'allow':
      return 'allow';
    case '':
    case 'deny':
      return 'deny';
    default:
      return undefined;
  }
}

