/**
 * The `permissions` object that Claude Code settings and the Cursor CLI configuration share: the
 * root must be an object, its keys and the `permissions` keys are kept as written, and each list is
 * read as string items with their spans. One reader, so the two formats' diagnostics cannot drift.
 */
import type { JMap, JNode } from '@verdict/compiler';
import type { Span } from '@verdict/engine';
import { diag, keysOf, member, stringItems } from './json.ts';
import type { LocatedKey, NativeFileBase } from './types.ts';

/** What the shared reader fills in on a Claude Code or Cursor result. */
interface PermissionsResult extends NativeFileBase {
  topLevelKeys: LocatedKey[];
  permissionKeys?: LocatedKey[];
}

/**
 * Reads `root` (the parsed file) into `out`: `native/type` and an incomplete file when it is not an
 * object (`what` names the file: `a settings file`), the top-level keys, and, when `permissions` is
 * an object, its keys and every string item of each of `lists`, handed to `onItem` in order.
 * Returns the `permissions` object, for the keys only one format has.
 */
export function readPermissions<L extends string>(
  root: JNode,
  out: PermissionsResult,
  what: string,
  lists: readonly L[],
  onItem: (list: L, item: { value: string; span: Span; index: number }) => void,
): JMap | undefined {
  if (root.kind !== 'map') {
    out.diagnostics.push(diag('native/type', 'error', `${what} is a JSON object`, root.span));
    out.complete = false;
    return undefined;
  }
  out.topLevelKeys = keysOf(root);
  const perms = member(root, 'permissions');
  if (perms === undefined) return undefined;
  if (perms.kind !== 'map') {
    out.diagnostics.push(diag('native/type', 'warning', '`permissions` is not an object; no rule is read', perms.span));
    return undefined;
  }
  out.permissionKeys = keysOf(perms);
  for (const list of lists) {
    const node = member(perms, list);
    if (node === undefined) continue;
    for (const item of stringItems(node, `permissions.${list}`, out.diagnostics)) onItem(list, item);
  }
  return perms;
}
