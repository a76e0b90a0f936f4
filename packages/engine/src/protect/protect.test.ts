import { describe, expect, it } from 'vitest';
import { absolutePath, normalizePath } from './paths.ts';
import { PROTECTION_NAMES, protectedWrite, type ProtectContext } from './protect.ts';

const CONFIG = ['.git/config', '.git/hooks/', '.gitattributes', '~/.gitconfig', '$RIPGREP_CONFIG_PATH', 'package.json', '.cargo/config.toml'];
const ctx = (more: Partial<ProtectContext> = {}): ProtectContext => ({ cwd: '/p', home: '/h', env: { CODEX_HOME: '/ch', RIPGREP_CONFIG_PATH: '/etc/rg.conf' }, configFiles: CONFIG, policyFiles: ['/p/policy.yaml'], ...more });
const write = (path: string, more?: Partial<ProtectContext>) => protectedWrite({ names: ['Write', 'file.write'], input: JSON.stringify({ file_path: path, content: 'x' }) }, ctx(more))?.name ?? null;

describe('protectedWrite', () => {
  it('names the protection of each kind of path', () => {
    expect(write('/p/.claude/settings.local.json')).toBe('claude-settings');
    expect(write('/p/sub/.CLAUDE/settings.json')).toBe('claude-settings');
    expect(write('/h/.claude.json')).toBe('claude-settings');
    expect(write('/ch/hooks.json')).toBe('codex-settings');
    expect(write('/p/.gemini/settings.json')).toBe('gemini-settings');
    expect(write('/p/.cursor/hooks.json')).toBe('cursor-settings');
    expect(write('/p/policy.yaml')).toBe('policy');
    expect(write('/p/.git/config')).toBe('git-config');
    expect(write('/p/.git/hooks/pre-push')).toBe('git-hooks');
    expect(write('/p/.git/info/attributes')).toBe('git-info');
    expect(write('/p/.gitattributes')).toBe('program-config');
    expect(write('/h/.gitconfig')).toBe('program-config');
    expect(write('/etc/rg.conf')).toBe('program-config');
    expect(write('/p/lib/package.json')).toBe('build-files');
    expect(write('/p/src/a.ts')).toBeNull();
    expect(write('/p/.git/objects/x')).toBeNull();
    expect(write('/p/config')).toBeNull();
  });
  it('reads relative paths, `..` and `~` as the system does', () => {
    expect(write('.git/config')).toBe('git-config');
    expect(write('src/../.claude/x')).toBe('claude-settings');
    expect(write('~/.gitconfig')).toBe('program-config');
    expect(write('/p/.git/../.git//config')).toBe('git-config');
  });
  it('checks the path as the system opens it (a link into a protected folder)', () => {
    const realpath = (p: string) => p.replace(/^\/p\/cfg(?=\/|$)/, '/p/.git');
    expect(write('/p/cfg/config', { realpath })).toBe('git-config');
    expect(write('/p/cfg/config')).toBeNull();
    expect(write('/p/x', { realpath: () => null })).not.toBeNull();
  });
  it('a lifted protection is not checked; the others still are', () => {
    expect(write('/p/.claude/x', { lift: ['claude-settings'] })).toBeNull();
    expect(write('/p/.git/config', { lift: ['claude-settings'] })).toBe('git-config');
    expect(write('/p/.git/config', { lift: ['program-config'] })).toBe('git-config');
    expect(write('/p/.git/config', { lift: [...PROTECTION_NAMES] })).toBeNull();
  });
  it('a file tool whose path cannot be read may write anything', () => {
    expect(protectedWrite({ names: ['Write'], input: '{"content":"x"}' }, ctx())?.name).toBe('claude-settings');
    expect(protectedWrite({ names: ['Write'], input: '{"content":"x"}' }, ctx())?.path).toBeNull();
  });
  it('patch paths and shell writes, with removal of a folder taking what it holds', () => {
    expect(protectedWrite({ names: ['apply_patch', 'file.write'], input: '{}', paths: ['/p/ok', '/p/.git/hooks/x'] }, ctx())?.name).toBe('git-hooks');
    const shellWrites = (t: string) => (t === 'rm -rf .git' ? { targets: [], removes: ['.git'], dirs: [] } : { targets: ['config'], dirs: ['.git'] });
    expect(protectedWrite({ names: ['Bash', 'shell'], input: '{"command":"rm -rf .git"}' }, ctx({ shellWrites }))?.name).toBe('git-config');
    expect(protectedWrite({ names: ['Bash', 'shell'], input: '{"command":"cd .git; echo > config"}' }, ctx({ shellWrites }))?.name).toBe('git-config');
    expect(protectedWrite({ names: ['Read', 'file.read'], input: '{"file_path":"/p/.git/config"}' }, ctx({ shellWrites }))).toBeNull();
  });
});

describe('paths', () => {
  it('normalises as the kernel reads a path lexically', () => {
    expect(normalizePath('/a//b/./c/../d/')).toBe('/a/b/d');
    expect(normalizePath('/../x')).toBe('/x');
    expect(absolutePath('x/y', '/c', '/h')).toBe('/c/x/y');
    expect(absolutePath('~', '/c', '/h')).toBe('/h');
    expect(absolutePath('~bob/x', '/c', '/h')).toBeNull();
  });
});
