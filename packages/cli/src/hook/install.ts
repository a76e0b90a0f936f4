import type { CommandIo, Parsed } from '../args.ts';
export async function runInstall(_mode: 'install' | 'uninstall', _args: Parsed<Record<string, { type: 'string' | 'boolean' }>>, _io: CommandIo): Promise<number> {
  return 2;
}
