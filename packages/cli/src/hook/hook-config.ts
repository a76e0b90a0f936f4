/**
 * `verdict hook --config FILE`: the policy and options of an installed hook, in a file Verdict owns
 * (`hook install` writes it for Codex, whose trust in a hook is a hash of its command: with the
 * options in this file, changing the policy changes no command). A JSON object with `policy`
 * (required) and `log`, both paths, relative ones taken from the file's folder. Anything else in it,
 * or a file that cannot be read, is a problem the hook answers with the agent's deny.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export type HookConfig = { policy: string; log?: string } | { problem: string };

export function readHookConfig(file: string, cwd: string): HookConfig {
  const path = resolve(cwd, file);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    const why = err instanceof SyntaxError ? 'it is not valid JSON' : ((err as NodeJS.ErrnoException).code ?? String(err));
    return { problem: `cannot read the hook config \`${path}\`: ${why}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: `the hook config \`${path}\` is not a JSON object` };
  const o = value as Record<string, unknown>;
  const unknown = Object.keys(o).find((k) => k !== 'policy' && k !== 'log');
  if (unknown !== undefined) return { problem: `the hook config \`${path}\` has an unknown key \`${unknown}\` (want policy, log)` };
  if (typeof o['policy'] !== 'string' || o['policy'] === '') return { problem: `the hook config \`${path}\` has no \`policy\` path` };
  if (o['log'] !== undefined && typeof o['log'] !== 'string') return { problem: `the hook config \`${path}\`: \`log\` is not a path` };
  const base = dirname(path);
  return { policy: resolve(base, o['policy']), ...(typeof o['log'] === 'string' ? { log: resolve(base, o['log']) } : {}) };
}
