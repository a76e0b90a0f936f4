import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findFiles, POLICY_EXTENSIONS } from '../../src/index.ts';

function tree(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-walk-'));
  for (const [name, text] of Object.entries(files)) {
    const p = join(dir, name);
    mkdirSync(join(p, '..'), { recursive: true });
    writeFileSync(p, text);
  }
  return dir;
}

const find = (dir: string, args: string[], ignorePatterns?: string[]) =>
  findFiles(args, { cwd: dir, extensions: POLICY_EXTENSIONS, ...(ignorePatterns ? { ignorePatterns } : {}) });
const names = (r: ReturnType<typeof find>) => r.files.map((f) => f.display);

describe('findFiles: folders', () => {
  it('takes policy extensions only, sorted, never entering dot folders or dependencies', () => {
    const dir = tree({ 'b.yaml': '', 'a.json': '', 'c.verdict': '', 'notes.md': '', '.git/x.yaml': '', 'node_modules/m/p.yaml': '', 'dist/d.yaml': '', 'sub/e.yml': '' });
    expect(names(find(dir, ['.']))).toEqual(['a.json', 'b.yaml', 'c.verdict', 'sub/e.yml']);
  });
  it('never takes a lint configuration from a folder or a glob, only when it is named', () => {
    const dir = tree({ 'verdict.config.yaml': '', 'sub/verdict.config.yml': '', 'sub/p.yaml': '' });
    expect(names(find(dir, ['.']))).toEqual(['sub/p.yaml']);
    expect(names(find(dir, ['**/*.{yaml,yml}']))).toEqual(['sub/p.yaml']);
    expect(names(find(dir, ['verdict.config.yaml']))).toEqual(['verdict.config.yaml']);
  });
  it('takes a named file whatever its name, once', () => {
    const dir = tree({ 'notes.md': '', 'a.yaml': '' });
    const r = find(dir, ['notes.md', 'a.yaml', '.']);
    expect(r.files.map((f) => [f.display, f.named])).toEqual([['notes.md', true], ['a.yaml', true]]);
  });
  it('finds a file whose name is not UTF-8, opening it through its bytes', () => {
    const dir = tree({ 'ok.yaml': '' });
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/caf`), Buffer.from([0xe9]), Buffer.from('.yaml')]), 'x');
    const r = find(dir, ['.']);
    expect(r.files.map((f) => [f.display, Buffer.isBuffer(f.path)])).toEqual([['caf\\xe9.yaml', true], ['ok.yaml', false]]);
  });
});

describe('findFiles: .gitignore, as git reads it', () => {
  it('applies the files from the repository root down; deeper files and later lines win', () => {
    const dir = tree({
      '.git/HEAD': '',
      '.gitignore': '# comment\n\n*.gen.yaml\nbuild/\n/top.yaml\n',
      'top.yaml': '',
      'a/top.yaml': '',
      'a/x.gen.yaml': '',
      'a/build/y.yaml': '',
      'a/.gitignore': '!x.gen.yaml\n',
      'a/b/x.gen.yaml': '',
      'build': '', // a file named like the folder-only pattern is not ignored
    });
    // `build` is a file here (no extension): not taken anyway; the point is `build/` does not name it.
    expect(names(find(dir, ['.']))).toEqual(['a/b/x.gen.yaml', 'a/top.yaml', 'a/x.gen.yaml']);
    expect(names(find(join(dir, 'a'), ['.']))).toEqual(['b/x.gen.yaml', 'top.yaml', 'x.gen.yaml']);
  });
  it('trailing spaces are dropped unless escaped; `\\#` and `\\!` are literal', () => {
    const dir = tree({ '.git/HEAD': '', '.gitignore': 'a.yaml   \n\\#b.yaml\n\\!c.yaml\nd.yaml\\ \n', 'a.yaml': '', '#b.yaml': '', '!c.yaml': '', 'd.yaml': '', 'd.yaml .yaml': '' });
    expect(names(find(dir, ['.']))).toEqual(['d.yaml', 'd.yaml .yaml']);
  });
  it('outside a repository only the .gitignore files inside the walked folder apply', () => {
    const outer = tree({ '.gitignore': '*.yaml\n', 'in/a.yaml': '', 'in/.gitignore': 'b.yaml\n', 'in/b.yaml': '' });
    expect(names(find(join(outer, 'in'), ['.']))).toEqual(['a.yaml']);
  });
  it('a line that is not a valid glob is skipped, as git does', () => {
    const dir = tree({ '.git/HEAD': '', '.gitignore': '[oops\na.yaml\n', 'a.yaml': '', 'b.yaml': '' });
    expect(names(find(dir, ['.']))).toEqual(['b.yaml']);
  });
});

describe('findFiles: globs', () => {
  const dir = tree({ 'p/a.yaml': '', 'p/b.json': '', 'p/q/c.yaml': '', 'p/q/r/d.yaml': '', 'p/notes.md': '', 'x[1].yaml': '' });
  it('`*` stays in its folder, `**` walks down, braces choose', () => {
    expect(names(find(dir, ['p/*.yaml']))).toEqual(['p/a.yaml']);
    expect(names(find(dir, ['p/**/*.yaml']))).toEqual(['p/a.yaml', 'p/q/c.yaml', 'p/q/r/d.yaml']);
    expect(names(find(dir, ['p/*.{yaml,json}']))).toEqual(['p/a.yaml', 'p/b.json']);
    expect(names(find(dir, ['p/*/*.yaml']))).toEqual(['p/q/c.yaml']);
    expect(find(dir, ['p/**/*.yaml']).files.every((f) => f.byGlob && !f.named)).toBe(true);
  });
  it('a glob never takes a file without a policy extension', () => {
    expect(find(dir, ['p/*']).files.map((f) => f.display)).toEqual(['p/a.yaml', 'p/b.json']);
  });
  it('an existing path is a path even when it looks like a glob', () => {
    expect(names(find(dir, ['x[1].yaml']))).toEqual(['x[1].yaml']);
  });
  it('nothing matched, a missing folder, and an invalid glob are errors with their reason', () => {
    const r = find(dir, ['p/*.yml', 'nope/**/*.yaml', 'p/[a', 'missing.yaml']);
    expect(r.diagnostics.map((d) => [d.code, d.message, d.help])).toEqual([
      ['files/no-match', 'no files match the glob `p/*.yml`', 'the glob is matched under `p` against files ending in .yaml, .yml, .json, .verdict; quote a glob so the shell leaves it to Verdict'],
      ['files/no-match', 'no files match the glob `nope/**/*.yaml`', 'the folder `nope` the glob starts from does not exist'],
      ['files/invalid-glob', 'invalid glob `p/[a`: missing closing `]` (a literal one is written `\\]`)', 'a glob uses `*`, `?`, `**`, `[…]` and `{a,b}`, with `\\` to escape; quote it so the shell leaves it to Verdict'],
      ['files/not-found', 'no such file or folder `missing.yaml`', undefined],
    ]);
  });
});

describe('findFiles: --ignore-pattern', () => {
  const dir = tree({ 'a.yaml': '', 'gen/b.yaml': '', 'sub/gen/c.yaml': '', 'sub/keep.yaml': '' });
  it('is a .gitignore line from cwd: applies at any depth without a slash, anchored with one, and to named files', () => {
    expect(names(find(dir, ['.'], ['gen/']))).toEqual(['a.yaml', 'sub/keep.yaml']);
    expect(names(find(dir, ['.'], ['/gen/']))).toEqual(['a.yaml', 'sub/gen/c.yaml', 'sub/keep.yaml']);
    expect(names(find(dir, ['gen/b.yaml', 'a.yaml'], ['gen/']))).toEqual(['a.yaml']);
    expect(names(find(dir, ['.'], ['*.yaml', '!keep.yaml']))).toEqual(['sub/keep.yaml']);
  });
  it('outside cwd, a pattern without a slash still names files; one anchored to cwd names none there', () => {
    const cwd = tree({});
    const r = findFiles([dir], { cwd, extensions: POLICY_EXTENSIONS, ignorePatterns: ['keep.yaml', '/gen/'] });
    expect(r.files.map((f) => f.display)).toEqual([join(dir, 'a.yaml'), join(dir, 'gen/b.yaml'), join(dir, 'sub/gen/c.yaml')]);
  });
});
