import type { Command } from '../src/args.ts';
import { runCli, type RunResult } from './harness.ts';

/** Runs one command as a user would (`verdict <name> …` through `main`), optionally on a terminal. */
export function runCommand(command: Command, argv: string[], options: { stdin?: string; isTTY?: boolean } = {}): Promise<RunResult> {
  return runCli([command.name, ...argv], options.stdin ?? '', { isTTY: options.isTTY === true });
}
