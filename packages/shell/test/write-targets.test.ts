import { describe, expect, it } from 'vitest';
import { shellWrites } from '../src/write-targets.ts';

const targets = (text: string) => shellWrites(text).targets;
const removes = (text: string) => shellWrites(text).removes;

describe('write targets: what a shell text writes (the protected paths read it)', () => {
  it('redirections, and the operands of programs that write', () => {
    expect(targets('echo x > a; ls >> b; cat <<EOF > c\nEOF')).toEqual(['a', 'b', 'c']);
    expect(targets('printf x | tee -a t1 t2')).toEqual(['t1', 't2']);
    expect(targets('touch -d 2020-01-01 f')).toEqual(['f']);
    expect(targets('truncate -s 0 f')).toEqual(['f']);
    expect(targets('dd if=a of=b bs=1')).toEqual(['b']);
    expect(targets('chmod +x .git/hooks/pre-commit')).toEqual(['.git/hooks/pre-commit']);
  });
  it('cp, install and ln write the destination, and each source inside it when it is a folder', () => {
    expect(targets('cp a b')).toEqual(['b', 'b/a']);
    expect(targets('cp -S .bak x y .git')).toEqual(['.git', '.git/x', '.git/y']);
    expect(targets('cp -t .git/hooks x')).toEqual(['.git/hooks', '.git/hooks/x']);
    expect(targets('install -m 755 s .git/hooks/pre-commit')).toEqual(['.git/hooks/pre-commit', '.git/hooks/pre-commit/s']);
    expect(targets('install -d .git/hooks')).toEqual(['.git/hooks']);
    expect(targets('ln -sf /tmp/evil .git/hooks/pre-commit')).toEqual(['.git/hooks/pre-commit', '.git/hooks/pre-commit/evil']);
  });
  it('mv and rm remove what they are given (a folder with what it holds)', () => {
    expect(removes('mv .claude /tmp/x')).toEqual(['/tmp/x', '/tmp/x/.claude', '.claude']);
    expect(removes('rm -rf .git')).toEqual(['.git']);
  });
  it('sed writes its files with -i in any spelling, and a script that writes names unknown files', () => {
    expect(targets('sed -i s/a/b/ f')).toEqual(['f']);
    expect(targets('sed -i.bak -e s/a/b/ f g')).toEqual(['f', 'g']);
    expect(targets('sed -ni p f')).toEqual(['f']);
    expect(targets('sed s/a/b/ f')).toEqual([]);
    expect(targets('sed "w out" f')).toEqual([null]);
  });
  it('git config writes the repository configuration unless it only reads', () => {
    expect(targets('git config core.fsmonitor x')).toEqual(['.git/config', '.git/config.worktree']);
    expect(targets('git -C sub config --unset x')).toEqual(['sub/.git/config', 'sub/.git/config.worktree']);
    expect(targets('git config --global core.pager x')).toEqual(['~/.gitconfig', '~/.config/git/config']);
    expect(targets('git config -f other k v')).toEqual(['other']);
    expect(targets('git --git-dir=/r/.git config k v')).toEqual(['/r/.git/config']);
    expect(targets('git config --get user.name')).toEqual([]);
    expect(targets('git config user.name')).toEqual([]);
    expect(targets('git config --list')).toEqual([]);
    expect(targets('git diff --output=/tmp/p HEAD')).toEqual(['/tmp/p']);
  });
  it('targets known only at run time are null', () => {
    expect(targets('echo x > "$F"')).toEqual([null]);
    expect(targets('cp a $D')).toEqual([null]);
    expect(targets('tar xzf a.tgz')).toEqual([null]);
    expect(targets('find . -name x -delete')).toEqual([null]);
  });
  it('the folders a cd moves to are reported, for relative targets', () => {
    expect(shellWrites('cd .git && echo x >> config')).toEqual({ targets: ['config'], removes: [], dirs: ['.git'] });
    expect(shellWrites('cd; pushd "$X"').dirs).toEqual(['~', null]);
  });
  it('programs that only read write nothing', () => {
    expect(targets('ls -la && git status && cat a | grep b')).toEqual([]);
  });
});
