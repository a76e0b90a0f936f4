/** Entry point of the `verdict` command: returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  process.stdout.write('verdict: usage: verdict <command> [options]\n');
  return argv.length === 0 ? 0 : 2;
}
