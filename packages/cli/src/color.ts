/**
 * Whether a human report is coloured, decided once for the run: `--color` / `--no-color` first (the
 * last one given wins), then the environment as Node reads it for its own colours (`util.styleText`,
 * `util.inspect`): `FORCE_COLOR` set to `''`, `1`, `true`, `2` or `3` colours even into a pipe or a
 * file, any other value (`0`, `false`) turns colour off; then `NO_COLOR` (set, even empty) or
 * `NODE_DISABLE_COLORS` turn it off; else colour when standard output is a terminal that has colours
 * (Node's `hasColors`: not `TERM=dumb`). The colours themselves come from `util.styleText`.
 */
import type { CommandIo } from './args.ts';

/** The `--color` and `--no-color` options, for `parse`. */
export const colorOptions = { color: { type: 'boolean' }, 'no-color': { type: 'boolean' } } as const;

/** `true` for `--color`, `false` for `--no-color`, whichever came last; `undefined` when neither. */
export function colorFlag(argv: readonly string[]): boolean | undefined {
  const on = argv.lastIndexOf('--color');
  const off = argv.lastIndexOf('--no-color');
  if (on < 0 && off < 0) return undefined;
  return on > off;
}

/** Node's reading of `FORCE_COLOR` (lib/internal/tty.js): these values colour; any other value does not. */
const FORCE_ON = new Set(['', '1', 'true', '2', '3']);

export function useColor(flag: boolean | undefined, io: Pick<CommandIo, 'stdout' | 'isTTY' | 'env'>): boolean {
  if (flag !== undefined) return flag;
  const env = io.env ?? process.env;
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return FORCE_ON.has(force);
  if (env['NO_COLOR'] !== undefined || env['NODE_DISABLE_COLORS'] !== undefined) return false;
  if (!io.isTTY) return false;
  const tty = io.stdout as { hasColors?: (env: NodeJS.ProcessEnv) => boolean };
  return typeof tty.hasColors === 'function' ? tty.hasColors(env) : env['TERM'] !== 'dumb';
}
