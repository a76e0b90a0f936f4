/**
 * A path as the system opens it (threat model, invariant 5): each component looked up in turn, a
 * symlink replaced by its target (relative targets against the link's folder) before the next
 * component and before any `..` after it, as the kernel walks a path. The part past the longest
 * existing prefix cannot hold a link, and is joined lexically. Run on the machine that runs the
 * tool (`verdict hook`, `verdict serve`'s hook route).
 */
import { lstatSync, readlinkSync } from 'node:fs';

/** Links followed in one walk before it is a loop (Linux's own bound is 40). */
const MAX_LINKS = 40;

/**
 * The resolved form of the absolute `path`; `null` when it cannot be resolved (a link loop, more
 * than {@link MAX_LINKS} links, an unreadable link).
 */
export function realPath(path: string): string | null {
  let pending = path.split('/').filter((x) => x !== '');
  const done: string[] = [];
  let links = 0;
  let exists = true;
  while (pending.length > 0) {
    const part = pending.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      done.pop();
      continue;
    }
    done.push(part);
    if (!exists) continue;
    const here = `/${done.join('/')}`;
    let isLink = false;
    try {
      isLink = lstatSync(here).isSymbolicLink();
    } catch {
      // Past the longest existing prefix: nothing further can be a link.
      exists = false;
      continue;
    }
    if (!isLink) continue;
    if (++links > MAX_LINKS) return null;
    let target: string;
    try {
      target = readlinkSync(here);
    } catch {
      return null;
    }
    done.pop();
    if (target.startsWith('/')) done.length = 0;
    pending = [...target.split('/').filter((x) => x !== ''), ...pending];
  }
  return `/${done.join('/')}`;
}
