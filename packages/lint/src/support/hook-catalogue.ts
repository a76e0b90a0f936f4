/** A rule's tool name read against one agent's hook catalogue (`@verdict/engine`'s hook data). */
import { AGENT_CATALOGUES, caseFold, isMcpToolName, NEUTRAL_TOOLS } from '@verdict/engine';
import type { AgentTool, HookAgent } from '@verdict/engine';
import { sameTool } from './approver-facts.ts';

export type ToolReading =
  /** Agent tools the name reaches (its own, or every tool with that neutral name; may be empty). */
  | { kind: 'tools'; tools: readonly AgentTool[]; neutral: boolean }
  | { kind: 'mcp' }
  | { kind: 'unknown' };

export function readToolName(agent: HookAgent, name: string): ToolReading {
  const catalogue = AGENT_CATALOGUES[agent];
  const own = catalogue.tools.filter((t) => sameTool(t.name, name));
  if (own.length > 0) return { kind: 'tools', tools: own, neutral: false };
  if (NEUTRAL_TOOLS.some((n) => n !== 'mcp' && sameTool(n, name))) {
    return { kind: 'tools', tools: catalogue.tools.filter((t) => t.neutral !== undefined && sameTool(t.neutral, name)), neutral: true };
  }
  if (isMcpToolName(agent, name) || isMcpToolName(agent, caseFold(name))) return { kind: 'mcp' };
  return { kind: 'unknown' };
}

/** Every name a rule can use under the agent: its tools and the neutral names. */
export function knownToolNames(agent: HookAgent): string[] {
  return [...AGENT_CATALOGUES[agent].tools.map((t) => t.name), ...NEUTRAL_TOOLS];
}

/** The input keys the tools send, when every one of them is documented. */
export function inputKeys(tools: readonly AgentTool[]): string[] | undefined {
  if (tools.length === 0 || tools.some((t) => t.keys === undefined)) return undefined;
  return [...new Set(tools.flatMap((t) => t.keys ?? []))];
}
