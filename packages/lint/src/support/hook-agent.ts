import { hookAgentOf, type HookAgent } from '@verdict/engine';

/**
 * The agent a policy file names in a `# verdict-hook-agent: NAME` comment line (YAML and the DSL;
 * JSON has no comments: use `--hook-agent` or the configuration's `hook-agent`).
 */
export function hookAgentDirective(text: string): HookAgent | undefined {
  const m = /^[ \t]*#[ \t]*verdict-hook-agent:?[ \t]+([a-z]+)\b/m.exec(text);
  return hookAgentOf(m?.[1]);
}
