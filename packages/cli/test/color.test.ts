/**
 * Colour: `--color` / `--no-color`, then `FORCE_COLOR` and `NO_COLOR`, then a terminal. The
 * environment is read as Node reads it for `util.styleText`: the decision is compared, case by
 * case, with what Node's own `styleText` does in a child process with that environment.
 * The goldens `lint-color-*` show the report itself.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { WriteStream } from 'node:tty';
import { describe, expect, it } from 'vitest';
import { colorFlag, useColor } from '../src/color.ts';
import { runCli } from './harness.ts';

const FORCE = [undefined, '', '0', '1', '2', '3', 'true', 'false', 'yes'];
const NO = [undefined, '', '1'];
const TERM = [undefined, 'xterm-256color', 'dumb'];
const grid = FORCE.flatMap((FORCE_COLOR) => NO.flatMap((NO_COLOR) => TERM.map((T) => ({ FORCE_COLOR, NO_COLOR, TERM: T }))));

/** Node's answer for each environment: does `styleText` colour for a pipe, and for a terminal? */
function nodeAnswers(): { pipe: boolean; tty: boolean }[] {
  const script = `
    const { styleText } = require('node:util');
    const tty = require('node:tty');
    const grid = ${JSON.stringify(grid)};
    // A terminal as Node's colour check sees one: isTTY, and the colour depth of the environment.
    const { PassThrough } = require('node:stream');
    const terminal = Object.assign(new PassThrough(), { isTTY: true, getColorDepth: tty.WriteStream.prototype.getColorDepth, hasColors: tty.WriteStream.prototype.hasColors });
    const pipe = new PassThrough();
    const out = grid.map((g) => {
      for (const k of ['FORCE_COLOR', 'NO_COLOR', 'TERM', 'NODE_DISABLE_COLORS', 'COLORTERM', 'CI', 'TMUX']) delete process.env[k];
      for (const [k, v] of Object.entries(g)) if (v !== null && v !== undefined) process.env[k] = v;
      return { pipe: styleText('red', 'x', { stream: pipe }) !== 'x', tty: styleText('red', 'x', { stream: terminal }) !== 'x' };
    });
    process.stdout.write(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: {} });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { pipe: boolean; tty: boolean }[];
}

describe('the colour decision', () => {
  it('reads FORCE_COLOR, NO_COLOR and TERM as Node’s styleText does, for a pipe and for a terminal', () => {
    const node = nodeAnswers();
    const terminal = { isTTY: true, getColorDepth: WriteStream.prototype.getColorDepth, hasColors: WriteStream.prototype.hasColors };
    const ours = grid.map((g) => {
      const env: NodeJS.ProcessEnv = {};
      for (const [k, v] of Object.entries(g)) if (v !== undefined) env[k] = v;
      return {
        pipe: useColor(undefined, { stdout: new PassThrough(), isTTY: false, env }),
        tty: useColor(undefined, { stdout: terminal as unknown as NodeJS.WritableStream, isTTY: true, env }),
      };
    });
    expect(ours.map((o, i) => ({ ...grid[i], ...o }))).toEqual(node.map((o, i) => ({ ...grid[i], ...o })));
    // The grid holds both answers: it is not a comparison of two constants.
    expect(new Set(ours.map((o) => `${o.pipe}${o.tty}`)).size).toBeGreaterThan(2);
  });
  it('--color and --no-color win over the environment; the last one given wins', () => {
    const io = { stdout: new PassThrough(), isTTY: false, env: { NO_COLOR: '1' } };
    expect(useColor(colorFlag(['lint', '--color']), io)).toBe(true);
    expect(useColor(colorFlag(['lint', '--no-color']), { ...io, isTTY: true, env: { FORCE_COLOR: '1' } })).toBe(false);
    expect(colorFlag(['--color', '--no-color'])).toBe(false);
    expect(colorFlag(['--no-color', '--color'])).toBe(true);
    expect(colorFlag(['lint'])).toBeUndefined();
  });
  it('a report written with -o is plain unless --color asks for colour', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verdict-color-'));
    const policy = 'fixtures/policies/newer-claude.yaml';
    await runCli(['lint', policy, '-o', join(dir, 'plain.txt')], '', { isTTY: true, env: { FORCE_COLOR: '1' } });
    await runCli(['lint', policy, '-o', join(dir, 'color.txt'), '--color'], '');
    expect(readFileSync(join(dir, 'plain.txt'), 'utf8')).not.toContain('\x1b[');
    expect(readFileSync(join(dir, 'color.txt'), 'utf8')).toContain('\x1b[33m');
  });
});
