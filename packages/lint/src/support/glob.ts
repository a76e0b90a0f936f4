/**
 * Minimal globs for `include` and `ignore`: `**` (any folders), `*` and `?` (within one path
 * segment), `{a,b}` and `[...]`. A glob without `/` matches a file's base name in any folder, as
 * in `.gitignore`; a glob ending in `/` or `/**` matches everything under a folder.
 */
export function globToRegExp(glob: string): RegExp {
  let g = glob.replace(/\\/g, '/');
  if (g.startsWith('./')) g = g.slice(2);
  const anyFolder = !g.replace(/\/$/, '').includes('/');
  if (g.endsWith('/')) g += '**';
  let re = '';
  let i = 0;
  let braces = 0;
  while (i < g.length) {
    const c = g[i] as string;
    if (c === '*') {
      if (g[i + 1] === '*') {
        const slash = g[i + 2] === '/';
        re += slash ? '(?:.*/)?' : '.*';
        i += slash ? 3 : 2;
        continue;
      }
      re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      braces++;
      re += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      re += ')';
    } else if (c === ',' && braces > 0) re += '|';
    else if (c === '[') {
      const end = g.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        re += `[${g.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else re += c.replace(/[.+^$()|\\]/g, '\\$&');
    i++;
  }
  return new RegExp(`^${anyFolder ? '(?:.*/)?' : ''}${re}(?:/.*)?$`);
}

export function matchesAny(relativePath: string, globs: readonly RegExp[]): boolean {
  const p = relativePath.replace(/\\/g, '/').replace(/^\.\//, '');
  return globs.some((g) => g.test(p));
}
