// How each real agent is installed into a fresh home, pointed at its fake model server, and run headless.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { claudeServer, codexServer, geminiServer } from './servers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const E2E = join(here, '..');
export const REPO = join(E2E, '..', '..');
/** The stdio MCP server the MCP cases give each agent, as `e2e`. */
export const MCP_SERVER = { command: process.execPath, args: [join(here, 'mcp-server.mjs')] };

/** The environment every agent run starts from: nothing of the caller's but PATH. */
export function baseEnv(home) {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8', SHELL: '/bin/bash', SHLVL: '1', USER: process.env.USER ?? 'root', TERM: 'dumb', NPM_CONFIG_UPDATE_NOTIFIER: 'false' };
}

const claudeBin = (dir) => join(dir, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');

function claude(version, dir) {
  return {
    id: 'claude',
    name: 'Claude Code',
    version,
    verdictAgent: 'claude',
    starter: 'claude-code.yaml',
    bin: claudeBin(dir),
    server: claudeServer,
    /** Shell, read, write, edit calls in this agent's tool vocabulary. */
    shell: (command) => ({ tool: 'Bash', input: { command } }),
    read: (path) => ({ tool: 'Read', input: { file_path: path } }),
    write: (path, content) => ({ tool: 'Write', input: { file_path: path, content } }),
    edit: (path, old_string, new_string) => ({ tool: 'Edit', input: { file_path: path, old_string, new_string } }),
    prepareHome(ctx) {
      if (ctx.mcp) writeFileSync(join(ctx.base, 'mcp.json'), JSON.stringify({ mcpServers: { e2e: { type: 'stdio', ...MCP_SERVER } } }));
    },
    env: (port) => ({
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
      ANTHROPIC_API_KEY: 'dummy',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      IS_SANDBOX: '1',
    }),
    argv: (ctx) => ['-p', 'go', '--output-format', 'json', '--dangerously-skip-permissions', ...(ctx.mcp ? ['--mcp-config', join(ctx.base, 'mcp.json')] : [])],
    mcpTool: 'mcp__e2e__stamp',
    /** Where a deny reaches the model as a tool result. */
    settingsFile: (ctx) => join(ctx.home, '.claude', 'settings.json'),
  };
}

export function codexConfig(port) {
  return `model = "gpt-5.5"
model_provider = "fake"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = "http://127.0.0.1:${port}/v1"
env_key = "FAKE_API_KEY"
wire_api = "responses"

[analytics]
enabled = false

[feedback]
enabled = false

[features]
plugins = false
remote_plugin = false
apps = false
daemon_auto_start = false
`;
}

const codex = {
  id: 'codex',
  name: 'Codex',
  version: '0.169.0',
  verdictAgent: 'codex',
  starter: 'codex.yaml',
  bin: join(E2E, 'node_modules', '.bin', 'codex'),
  server: codexServer,
  shell: (cmd) => ({ tool: 'exec_command', input: { cmd } }),
  read: undefined,
  write: undefined,
  edit: undefined,
  patch: (text) => ({ tool: 'apply_patch', custom: true, input: text }),
  prepareHome(ctx, port) {
    mkdirSync(join(ctx.codexHome ?? join(ctx.home, '.codex')), { recursive: true });
    writeFileSync(join(ctx.codexHome ?? join(ctx.home, '.codex'), 'config.toml'), codexConfig(port) + (ctx.trustProject ? `\n[projects.${JSON.stringify(ctx.proj)}]\ntrust_level = "trusted"\n` : '') + (ctx.mcp ? `\n[mcp_servers.e2e]\ncommand = ${JSON.stringify(MCP_SERVER.command)}\nargs = ${JSON.stringify(MCP_SERVER.args)}\n` : ''));
  },
  env: () => ({ FAKE_API_KEY: 'x' }),
  argv: (ctx) => ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', ...(ctx.hooked && !ctx.untrusted ? ['--dangerously-bypass-hook-trust'] : []), 'go'],
};

const gemini = {
  id: 'gemini',
  name: 'Gemini CLI',
  version: '0.61.0',
  verdictAgent: 'gemini',
  starter: 'gemini-cli.yaml',
  bin: join(E2E, 'node_modules', '.bin', 'gemini'),
  server: geminiServer,
  shell: (command) => ({ tool: 'run_shell_command', input: { command } }),
  read: (path) => ({ tool: 'read_file', input: { file_path: path } }),
  write: (path, content) => ({ tool: 'write_file', input: { file_path: path, content } }),
  edit: (path, old_string, new_string) => ({ tool: 'replace', input: { file_path: path, old_string, new_string, instruction: 'edit' } }),
  prepareHome(ctx) {
    const dir = join(ctx.home, '.gemini');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'settings.json');
    if (!existsSync(file)) writeFileSync(file, `${JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, telemetry: { enabled: false }, privacy: { usageStatisticsEnabled: false }, ...(ctx.mcp ? { mcpServers: { e2e: MCP_SERVER } } : {}) }, null, 2)}\n`);
  },
  env: (port) => ({ GEMINI_API_KEY: 'x', GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${port}`, GEMINI_CLI_TRUST_WORKSPACE: 'true' }),
  argv: () => ['--yolo', '-p', 'go'],
  mcpTool: 'mcp_e2e_stamp',
};

export const AGENTS = {
  claude: claude('2.1.328', E2E),
  'claude-2.1.240': { ...claude('2.1.240', join(E2E, 'claude-old')), id: 'claude-2.1.240' },
  codex,
  gemini,
};
