/**
 * Paths as text: made absolute, `~` expanded, `.`, `..` and `//` removed (POSIX rules, no file
 * system). The file system's part (symlinks) is the caller's `realpath` (the CLI walks links through
 * the longest existing prefix on the machine that runs the tool: `packages/cli/src/hook/real-path.ts`).
 */

/** Absolute, lexically normalised `path` (relative ones against `cwd`, `~` and `~/…` against `home`); `null` for `~user`. */
export function absolutePath(path: string, cwd: string, home: string): string | null {
  let p = path;
  if (p === '~' || p.startsWith('~/')) p = home + p.slice(1);
  else if (p.startsWith('~')) return null;
  if (!p.startsWith('/')) p = `${cwd.replace(/\/+$/, '')}/${p}`;
  return normalizePath(p);
}

/** `/a//b/./c/../d/` → `/a/b/d` (a `..` above the root stays at the root, as the kernel reads it). */
export function normalizePath(absolute: string): string {
  const out: string[] = [];
  for (const part of absolute.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

/** Whether `path` is `dir` or inside it (both normalised and absolute). */
export function isWithin(path: string, dir: string): boolean {
  return dir === '/' || path === dir || path.startsWith(`${dir}/`);
}
