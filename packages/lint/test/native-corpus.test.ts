/**
 * A measurement against an outside corpus: the 47 permission files of real repositories (the
 * folder `VERDICT_NATIVE_CORPUS` names; `.ci/run` names the copy of shared/native-configs that CI
 * has beside the clone, and the project ships none of them), placed at their real paths in a temporary folder, the way a user runs
 * `verdict lint .` on a repository. Every Claude Code, Codex, Gemini CLI and Cursor file is read
 * (no exit 2, no syntax error), and each file where the agents' own engines showed a hole or a
 * trap (the corpus's own notes; docs/native/*.md) gets a located finding that names it.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodeFor, lintFiles } from '../src/index.ts';

const corpus = process.env['VERDICT_NATIVE_CORPUS'];

/** `owner__repo__path~with~tildes` → `owner__repo/path/with/tildes`. */
function realPath(name: string): string {
  const [owner, project, path] = name.split('__');
  return `${owner}__${project}/${(path ?? '').replace(/~/g, '/')}`;
}

const root = mkdtempSync(join(tmpdir(), 'verdict-native-corpus-'));
const placed: { agent: string; path: string }[] = [];
for (const agent of corpus === undefined ? [] : ['claude', 'codex', 'gemini', 'cursor', 'opencode']) {
  for (const name of readdirSync(join(corpus!, agent)).sort()) {
    const path = realPath(name);
    mkdirSync(dirname(join(root, path)), { recursive: true });
    cpSync(join(corpus!, agent, name), join(root, path));
    placed.push({ agent, path });
  }
}
const run = lintFiles(['.'], { cwd: root });

/** §6.3: each file a Codex or Gemini CLI engine showed a hole or trap in, and what names it. */
const SHOWN: readonly [string, string, string][] = [
  ['Daiki48__dotfiles/.codex/rules/default.rules', 'native/allow-runs-anything', '`git -C . -c'],
  ['Dbochman__dotfiles/.codex/rules/default.rules', 'native/allow-runs-anything', 'allows `curl -I '],
  ['ikuwow__dotfiles/codex/rules/dotfiles.rules', 'native/deny-walked-around', '`git push origin --force` (the options after an operand) runs what this Codex forbidden rule'],
  ['ikuwow__dotfiles/codex/rules/dotfiles.rules', 'native/allow-runs-anything', 'allows `gh api -X DELETE'],
  ['ikuwow__dotfiles/codex/rules/dotfiles.rules', 'native/allow-runs-anything', 'allows `git grep'],
  ['HHS__TANF-app/.codex/rules/default.rules', 'native/deny-walked-around', '`cat ./.env`'],
  ['HHS__TANF-app/.codex/rules/default.rules', 'native/never-consulted', 'the token `.pem` is compared literally'],
  ['HHS__TANF-app/.codex/rules/default.rules', 'native/allow-runs-anything', 'allows `docker compose run'],
  ['01-mu__dotfiles/home/.codex/rules/policy-allow.rules', 'native/allow-runs-anything', 'allows `nix develop -c rm -rf ~`'],
  ['01-mu__dotfiles/home/.codex/rules/policy-deny.rules', 'native/deny-walked-around', '`zsh -c` (another shell'],
  ['yutkat__dotfiles/.config/codex/rules/default.rules', 'native/deny-walked-around', '`env git` (the program behind `env`)'],
  ['yutkat__dotfiles/.config/codex/rules/default.rules', 'native/allow-runs-anything', "allows `rsync -a -e 'sh -c id'"],
  ['BillAnastasiadis__openqa-reviewer/.gemini/policies/policy.toml', 'native/unknown-tool', '`.*` is compared as a tool name'],
  ['BillAnastasiadis__openqa-reviewer/.gemini/policies/policy.toml', 'native/unknown-key', '`pathPattern` is not a key'],
  ['tobinjt__dotfiles/.gemini/policies/auto-saved.toml', 'native/allow-runs-anything', 'allows `env rm -rf ~`'],
  ['tobinjt__dotfiles/.gemini/policies/auto-saved.toml', 'native/allow-runs-anything', 'allows `cargo run'],
  ['rkj__voidlock/.gemini/policies/default.toml', 'native/allow-runs-anything', 'allows `rm tests/ -rf ~`'],
  ['rkj__voidlock/.gemini/policies/auto-saved.toml', 'native/allow-runs-anything', "allows `sed -e '1e id'"],
  ['rnovatorov__dotfiles/.gemini/policies/policy.toml', 'native/prefix-alternatives', '`commandPrefix = ["go", "test"]` is a list of alternatives'],
  ['rnovatorov__dotfiles/.gemini/policies/policy.toml', 'native/allow-runs-anything', 'allows `go run'],
  ['chasinglogic__dotfiles/.gemini/policies/auto-saved.toml', 'native/allow-runs-anything', 'allows `find . -exec'],
  ['ken109__dotfiles/.gemini/policies/shell.toml', 'native/allow-runs-anything', 'allows `find . -exec'],
  ['Daiki48__dotfiles/.gemini/policies/read-only-shell.toml', 'native/unknown-tool', 'has no tool `run_command`'],
  ['jorgecasar__legacy-s-end-2/.gemini/policies/rulesync.toml', 'native/file-not-loaded', 'a priority of 1000000 is outside 0–999'],
];

// Without the corpus (a user's checkout) the measurement is not made, and says so; CI always makes it.
describe.skipIf(corpus === undefined)('the corpus of real permission files (VERDICT_NATIVE_CORPUS)', () => {
  it('holds the 47 files', () => {
    expect(placed.length).toBe(47);
  });

  it('reads every Claude Code, Codex, Gemini CLI and Cursor file, with no exit 2 and no syntax error', () => {
    expect(run.diagnostics).toEqual([]);
    expect(exitCodeFor(run)).not.toBe(2);
    const read = placed.filter((p) => p.agent !== 'opencode').map((p) => p.path).sort();
    expect(run.results.map((r) => r.file).sort()).toEqual(read);
    expect(read.length).toBe(45);
    for (const r of run.results) {
      expect(r.unreadable, r.file).toBeUndefined();
      expect(r.native, r.file).toBeDefined();
      expect(r.messages.filter((m) => m.ruleId === 'native/syntax' || m.ruleId.startsWith('load/') || m.ruleId === 'lint/internal-error').map((m) => m.message), r.file).toEqual([]);
    }
  });

  for (const [file, rule, text] of SHOWN) {
    it(`${file}: ${rule} — ${text}`, () => {
      const r = run.results.find((x) => x.file === file);
      const hit = r?.messages.find((m) => m.ruleId === rule && m.message.includes(text));
      expect(hit, (r?.messages ?? []).map((m) => `${m.span?.start.line}:${m.span?.start.column} ${m.ruleId} ${m.message}`).join('\n')).toBeDefined();
      expect(hit?.span?.start.line).toBeGreaterThan(0);
      expect(hit?.span?.file).toBe(file);
    });
  }

  it('covers every file of §6.3 that shows a hole or a trap', () => {
    expect(new Set(SHOWN.map(([f]) => f)).size).toBe(16);
  });
});
