/**
 * The one catalogue of the coding agents that run `verdict hook`: their names, the files they read
 * hook entries from, their hook events, their tool names and the keys of each tool's input, and the
 * neutral names Verdict gives the same kind of tool in every agent. Every other list of the agents
 * (the CLI's `--agent` choices, `hook install`'s files and the pattern `uninstall` recognises its
 * entries by, `@verdict/native`'s agents, lint's agent titles) is derived from it. Data only (no
 * parsing): the hook command maps payloads with it, and lint checks a policy meant for one agent
 * against it. Sources: each agent's hook documentation and source as of autumn 2026.
 */

/**
 * Neutral tool names: a call answers to its agent's own tool name and to one of these, so one rule
 * can cover `Bash`, `run_shell_command` and `Shell` alike. MCP calls also answer to
 * `mcp__<server>__<tool>` and `mcp__<server>` (see `mcpNames`).
 */
export type NeutralTool = 'shell' | 'file.read' | 'file.write' | 'file.search' | 'web.fetch' | 'web.search' | 'agent.spawn' | 'mcp';

export const NEUTRAL_TOOLS: readonly NeutralTool[] = Object.freeze([
  'shell',
  'file.read',
  'file.write',
  'file.search',
  'web.fetch',
  'web.search',
  'agent.spawn',
  'mcp',
]);

export interface AgentTool {
  /** The tool name as the agent sends it in `tool_name`. */
  name: string;
  neutral?: NeutralTool;
  /** Keys of the tool input as the agent sends them; absent when not documented. */
  keys?: readonly string[];
}

/** Where an agent reads its hook entries from. */
export interface AgentSettings {
  /** The dot folder holding them, in the project and (unless `homeVariable` moves it) in the home. */
  folder: string;
  /** The file in that folder, at the user and the project level. */
  hookFile: string;
  /** A third, project-local file in the same folder (Claude Code's `settings.local.json`). */
  localHookFile?: string;
  /**
   * The variable that moves the user level: `folder` when it names the folder itself (Codex's
   * `$CODEX_HOME`), `home` when it names the home the folder is in (Gemini CLI's `$GEMINI_CLI_HOME`).
   */
  homeVariable?: { name: string; names: 'folder' | 'home' };
}

export interface AgentCatalogue {
  agent: HookAgent;
  /** The agent's name for people. */
  title: AgentTitle;
  /** The agent's command-line program (`hook status` asks it for `--version`); absent when it has none. */
  client?: string;
  settings: AgentSettings;
  /** The hook events `verdict hook` answers. */
  events: readonly string[];
  tools: readonly AgentTool[];
  /** How the agent treats a hook that crashes, times out or prints garbage (one clause, for messages). */
  failsOpen: string;
  /** The agent's own hook timeout when the configuration sets none, in milliseconds (undefined: not documented). */
  defaultTimeoutMs: number | undefined;
}

const CLAUDE_TOOLS: readonly AgentTool[] = [
  { name: 'Bash', neutral: 'shell', keys: ['command', 'description', 'timeout', 'run_in_background', 'dangerouslyDisableSandbox'] },
  { name: 'PowerShell', neutral: 'shell', keys: ['command', 'description', 'timeout', 'run_in_background'] },
  { name: 'Monitor', neutral: 'shell' },
  { name: 'Read', neutral: 'file.read', keys: ['file_path', 'offset', 'limit', 'pages'] },
  { name: 'Write', neutral: 'file.write', keys: ['file_path', 'content'] },
  { name: 'Edit', neutral: 'file.write', keys: ['file_path', 'old_string', 'new_string', 'replace_all'] },
  { name: 'MultiEdit', neutral: 'file.write', keys: ['file_path', 'edits'] },
  { name: 'NotebookEdit', neutral: 'file.write', keys: ['notebook_path', 'new_source', 'cell_id', 'cell_type', 'edit_mode'] },
  { name: 'NotebookRead', neutral: 'file.read', keys: ['notebook_path', 'cell_id'] },
  { name: 'LS', neutral: 'file.read', keys: ['path', 'ignore'] },
  { name: 'Glob', neutral: 'file.search', keys: ['pattern', 'path'] },
  { name: 'Grep', neutral: 'file.search' },
  { name: 'WebFetch', neutral: 'web.fetch', keys: ['url', 'prompt'] },
  { name: 'WebSearch', neutral: 'web.search', keys: ['query', 'allowed_domains', 'blocked_domains'] },
  { name: 'Agent', neutral: 'agent.spawn', keys: ['prompt', 'description', 'subagent_type', 'model'] },
  { name: 'Task', neutral: 'agent.spawn', keys: ['prompt', 'description', 'subagent_type', 'model'] },
  { name: 'AskUserQuestion' },
  { name: 'ExitPlanMode' },
  { name: 'Skill' },
  { name: 'TaskCreate' },
  { name: 'TaskUpdate' },
  { name: 'TaskList' },
  { name: 'TaskGet' },
  { name: 'TodoWrite' },
  { name: 'TodoRead' },
  { name: 'ListMcpResourcesTool' },
  { name: 'ReadMcpResourceTool' },
  { name: 'LSP' },
  { name: 'SendMessage' },
  { name: 'Workflow' },
  // Loads the schemas of deferred tools (WebFetch, NotebookEdit, Monitor, …); each loaded tool is hooked under its own name.
  { name: 'ToolSearch', keys: ['query', 'max_results'] },
];

const CODEX_TOOLS: readonly AgentTool[] = [
  { name: 'Bash', neutral: 'shell', keys: ['command', 'description'] },
  { name: 'apply_patch', neutral: 'file.write', keys: ['command'] },
  { name: 'spawn_agent', neutral: 'agent.spawn' },
  { name: 'view_image', neutral: 'file.read', keys: ['path'] },
  { name: 'get_goal' },
  { name: 'create_goal' },
  { name: 'update_goal' },
  { name: 'request_user_input' },
];

const GEMINI_TOOLS: readonly AgentTool[] = [
  { name: 'run_shell_command', neutral: 'shell', keys: ['command', 'description', 'dir_path', 'is_background'] },
  { name: 'read_file', neutral: 'file.read', keys: ['file_path', 'start_line', 'end_line'] },
  { name: 'read_many_files', neutral: 'file.read', keys: ['include', 'exclude', 'recursive', 'useDefaultExcludes'] },
  { name: 'list_directory', neutral: 'file.read', keys: ['dir_path', 'ignore', 'file_filtering_options'] },
  { name: 'write_file', neutral: 'file.write', keys: ['file_path', 'content'] },
  { name: 'replace', neutral: 'file.write', keys: ['file_path', 'old_string', 'new_string', 'instruction', 'allow_multiple'] },
  { name: 'glob', neutral: 'file.search' },
  { name: 'grep_search', neutral: 'file.search' },
  { name: 'search_file_content', neutral: 'file.search' },
  { name: 'web_fetch', neutral: 'web.fetch', keys: ['prompt'] },
  { name: 'google_web_search', neutral: 'web.search', keys: ['query'] },
  { name: 'ask_user' },
  { name: 'write_todos' },
  { name: 'activate_skill' },
  { name: 'enter_plan_mode' },
  { name: 'exit_plan_mode' },
  { name: 'read_mcp_resource' },
  { name: 'list_mcp_resources' },
  { name: 'update_topic' },
  { name: 'complete_task' },
  { name: 'list_background_processes' },
  { name: 'read_background_output' },
  { name: 'invoke_agent', neutral: 'agent.spawn' },
];

const CURSOR_TOOLS: readonly AgentTool[] = [
  // `cwd` and `timeout` in captures, `working_directory` in the docs; beforeShellExecution adds `sandbox`.
  { name: 'Shell', neutral: 'shell', keys: ['command', 'cwd', 'working_directory', 'timeout', 'sandbox'] },
  // preToolUse's Read/Write/Delete inputs are undocumented; beforeReadFile is mapped to `{file_path}`.
  { name: 'Read', neutral: 'file.read' },
  { name: 'Write', neutral: 'file.write' },
  { name: 'Delete', neutral: 'file.write' },
  { name: 'Grep', neutral: 'file.search' },
  { name: 'Task', neutral: 'agent.spawn' },
];

const CATALOGUES = {
  claude: {
    agent: 'claude',
    title: 'Claude Code',
    client: 'claude',
    settings: { folder: '.claude', hookFile: 'settings.json', localHookFile: 'settings.local.json' },
    events: ['PreToolUse', 'PermissionRequest'],
    tools: CLAUDE_TOOLS,
    failsOpen: 'Claude Code runs the tool when a hook times out, crashes or prints invalid output',
    defaultTimeoutMs: 600_000,
  },
  codex: {
    agent: 'codex',
    title: 'Codex',
    client: 'codex',
    settings: { folder: '.codex', hookFile: 'hooks.json', homeVariable: { name: 'CODEX_HOME', names: 'folder' } },
    events: ['PreToolUse', 'PermissionRequest'],
    tools: CODEX_TOOLS,
    failsOpen: 'Codex runs the tool on every hook failure (timeout, crash, invalid or unsupported output)',
    defaultTimeoutMs: 600_000,
  },
  gemini: {
    agent: 'gemini',
    title: 'Gemini CLI',
    client: 'gemini',
    settings: { folder: '.gemini', hookFile: 'settings.json', homeVariable: { name: 'GEMINI_CLI_HOME', names: 'home' } },
    events: ['BeforeTool'],
    tools: GEMINI_TOOLS,
    failsOpen: 'Gemini CLI runs the tool when a hook times out, exits 1, or prints no decision',
    defaultTimeoutMs: 60_000,
  },
  cursor: {
    agent: 'cursor',
    title: 'Cursor',
    settings: { folder: '.cursor', hookFile: 'hooks.json' },
    events: ['preToolUse', 'beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile'],
    tools: CURSOR_TOOLS,
    failsOpen: 'Cursor runs the tool when a hook fails unless the hook entry sets `failClosed: true`',
    defaultTimeoutMs: undefined,
  },
} as const;

/** An agent's name as Verdict spells it (`--agent`, `# verdict-hook-agent:`, `hook --agent NAME`). */
export type HookAgent = keyof typeof CATALOGUES;

/** An agent's name for people (`Claude Code`). */
export type AgentTitle = (typeof CATALOGUES)[HookAgent]['title'];

export const AGENT_CATALOGUES: Readonly<Record<HookAgent, AgentCatalogue>> = CATALOGUES;

/** The agents, in the catalogue's order. */
export const HOOK_AGENTS: readonly HookAgent[] = Object.freeze(Object.keys(CATALOGUES) as HookAgent[]);

/** The agent named `name` (exact spelling), if there is one. */
export function hookAgentOf(name: unknown): HookAgent | undefined {
  return HOOK_AGENTS.find((a) => a === name);
}

/** The agents' names for a message: `claude, codex, gemini or cursor` (`last` joins the last two). */
export function hookAgentChoices(last = ' or '): string {
  return `${HOOK_AGENTS.slice(0, -1).join(', ')}${last}${HOOK_AGENTS[HOOK_AGENTS.length - 1]!}`;
}

/** The agent's tool of that name (exact spelling), if it is in the catalogue. */
export function agentTool(agent: HookAgent, name: string): AgentTool | undefined {
  return AGENT_CATALOGUES[agent].tools.find((t) => t.name === name);
}

export interface McpTool {
  server: string;
  tool: string;
}

/** `mcp__<server>__<tool>` (Claude Code, Codex; plugin servers are `plugin_<plugin>_<server>`), split. */
export function splitMcpName(name: string): McpTool | undefined {
  if (!name.startsWith('mcp__')) return undefined;
  const rest = name.slice(5);
  const cut = rest.indexOf('__');
  if (cut <= 0 || cut + 2 >= rest.length) return undefined;
  return { server: rest.slice(0, cut), tool: rest.slice(cut + 2) };
}

/** The neutral names of an MCP call: `mcp__<server>__<tool>`, `mcp__<server>`, `mcp`. */
export function mcpNames(mcp: McpTool): string[] {
  return [`mcp__${mcp.server}__${mcp.tool}`, `mcp__${mcp.server}`, 'mcp'];
}

/** Whether `name` is a name an MCP call of this agent can carry (so lint does not call it unknown). */
export function isMcpToolName(agent: HookAgent, name: string): boolean {
  if (name === 'mcp' || /^mcp__[^_]/.test(name)) return true;
  if (agent === 'gemini') return name.startsWith('mcp_');
  if (agent === 'cursor') return name.startsWith('MCP:');
  return false;
}
