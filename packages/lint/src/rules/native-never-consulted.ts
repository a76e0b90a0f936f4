import { AGENT_CATALOGUES } from '@verdict/engine';
import { createNativeRule } from '../create-rule.ts';
import { commandPrefixPattern } from '@verdict/native';
import { GEMINI_SHELL_TOOLS, geminiToolNames, wordsOf } from '../support/native-commands.ts';
import { geminiLoaded, geminiRuleMatches } from '../support/native-model.ts';

/** Claude Code tools whose path rules are accepted and never used: only `Read(path)` and `Edit(path)` are. */
const PATH_NEVER_USED = new Set(['Write', 'NotebookEdit', 'Glob', 'MultiEdit']);
/** Extensions a Codex token may be mistaken for a glob of: a file is never named just `.pem`. */
const EXTENSIONS = /^\.(pem|key|rsa|crt|cer|der|p12|pfx|jks|keystore|tfvars|tfstate|json|ya?ml|toml|txt|log|csv|sql|db|sqlite|zip|tar|gz|tgz|sh|js|ts|py|rb|go|rs|md)$/;
const GEMINI_MODES = ['default', 'autoEdit', 'plan', 'yolo'];

export default createNativeRule({
  id: 'native/never-consulted',
  meta: {
    description: "a rule an agent accepts and never uses: Claude Code `Write(path)`-style rules and allow-only syntax in the wrong list, a Codex token with a space or a glob, a Gemini CLI `^` in `commandRegex`, a command pattern on another tool, `commandPrefix = []` (no rule loads) or a prefix ending in a space (matches only a doubled space), a Cursor `Shell(...)` with a space",
    severity: 'warning',
    category: 'native',
    messages: {
      pathTool: '`{{rule}}`: Claude Code never consults `{{tool}}(path)` rules; only `Read(path)` and `Edit(path)` decide file access',
      paramAllow: '`{{rule}}`: a `Tool(param:value)` rule is read in `deny` and `ask` only; in `allow` it is ignored',
      primaryField: '`{{rule}}`: a rule on `Bash`\'s own `command` field is ignored; write the command itself',
      midColon: '`{{rule}}`: `:*` is a wildcard only at the very end; here the colon is literal, and the rule matches almost nothing',
      spaceToken: 'the token `{{token}}` holds a space, and Codex compares whole words: it never matches a command the agent runs',
      globToken: 'the token `{{token}}` is compared literally: Codex has no globs, so it matches only a word that is exactly `{{token}}`',
      caretRegex: '`commandRegex` starts with `^`, but Gemini CLI matches it after the text `"command":"`: it never matches',
      notShell: '`{{key}}` applies only to the shell tool: on `{{tool}}` this rule never matches',
      unknownMode: 'no Gemini CLI mode is called `{{mode}}`: this rule never applies in it',
      emptyPrefix: '`commandPrefix = []` makes Gemini CLI load no rule from this table: the {{decision}} never applies',
      untypedPrefix: '`commandPrefix = {{prefix}}` compiles, in Gemini CLI, to a pattern that `{{typed}}` as users type it does not match (only `{{spaced}}` does): the {{decision}} almost never applies',
      excludeCommand: '`{{entry}}` in `{{setting}}` is compared as a whole tool name, which no call has: it excludes nothing',
      cursorSpace: '`{{rule}}`: Cursor matches `Shell(...)` against the first word of the command, so a space inside it never matches (by its documentation)',
    },
    help: {
      pathTool: 'write `Edit({{specifier}})` (it also covers Write and NotebookEdit)',
      paramAllow: 'move it to `ask` or `deny`, or write the tool\'s own rule form in `allow`',
      primaryField: 'write `Bash({{value}})`',
      midColon: 'write `*` where any text may stand (`Bash(git * push)`), or end the rule with `:*`',
      spaceToken: 'split it into words: `[{{split}}]`',
      globToken: 'list the exact words the rule is for; for files by extension, decide in Verdict\'s hook, whose rules take regular expressions',
      caretRegex: 'drop the `^`: the match already starts at the command\'s first character',
      notShell: 'use `argsPattern` for other tools',
      unknownMode: 'use one of {{modes}}',
      emptyPrefix: 'name the commands (`commandPrefix = ["git status", "git diff"]`), or remove `commandPrefix` for a rule on every shell command',
      untypedPrefix: 'write the words as they are typed, one space apart (`commandPrefix = {{trimmed}}`): Gemini CLI already requires a space, a quote or the end of the command after the prefix',
      excludeCommand: 'write a `[[rule]]` with `toolName = "run_shell_command"`, `commandPrefix = "{{argument}}"` and `decision = "deny"` in a policy file',
      cursorSpace: 'write `Shell({{base}}:{{rest}})`: the command base, then the arguments',
    },
    docs: { recommended: true },
  },
  check(ctx) {
    const file = ctx.native;
    if (file.format === 'claude-settings') {
      for (const r of file.rules) {
        if (r.specifier === undefined || r.malformed !== undefined) continue;
        if (PATH_NEVER_USED.has(r.tool)) {
          ctx.report({ span: r.span, messageId: 'pathTool', data: { rule: r.text, tool: r.tool, specifier: r.specifier } });
          continue;
        }
        const param = /^([A-Za-z_][A-Za-z0-9_]*):(.*)$/s.exec(r.specifier);
        const isDomain = r.tool === 'WebFetch' && param?.[1] === 'domain';
        if (r.tool === 'Bash' && param?.[1] === 'command') {
          ctx.report({ span: r.span, messageId: 'primaryField', data: { rule: r.text, value: param[2] ?? '' } });
          continue;
        }
        if (r.tool !== 'Bash' && r.tool !== 'PowerShell' && param !== null && !isDomain && !r.tool.startsWith('mcp__') && r.list === 'allow' && !['Read', 'Edit', 'Agent', 'Task', 'Skill', 'Cd'].includes(r.tool)) {
          ctx.report({ span: r.span, messageId: 'paramAllow', data: { rule: r.text } });
          continue;
        }
        if ((r.tool === 'Bash' || r.tool === 'PowerShell') && /:\*./.test(r.specifier)) ctx.report({ span: r.span, messageId: 'midColon', data: { rule: r.text } });
      }
    }
    if (file.format === 'codex-rules' || file.format === 'codex-requirements') {
      for (const rule of file.prefixRules) {
        rule.pattern.forEach((t, i) => {
          for (const token of t.alternatives) {
            if (/\s/.test(token.trim()) ) {
              ctx.report({ span: t.span, messageId: 'spaceToken', data: { token, split: token.trim().split(/\s+/).map((w) => JSON.stringify(w)).join(', ') } });
              return;
            }
            if (/[*?]/.test(token) || (i > 0 && EXTENSIONS.test(token))) {
              ctx.report({ span: t.span, messageId: 'globToken', data: { token } });
              return;
            }
          }
        });
      }
    }
    if (file.format === 'gemini-policy') {
      for (const rule of file.rules) {
        const tools = geminiToolNames(rule);
        const shell = tools.some((t) => GEMINI_SHELL_TOOLS.includes(t));
        const regex = rule.commandRegex?.value;
        if (shell && typeof regex === 'string' && regex.startsWith('^')) ctx.report({ span: rule.commandRegex!.span, messageId: 'caretRegex' });
        // On a tool Gemini CLI has (an unknown one is `native/unknown-tool`'s).
        const known = tools.length > 0 && tools.every((t) => AGENT_CATALOGUES.gemini.tools.some((k) => k.name === t));
        if (!shell && known && rule.mcpName === undefined) {
          for (const key of ['commandPrefix', 'commandRegex'] as const) {
            const v = rule[key];
            if (v !== undefined) ctx.report({ span: v.span, messageId: 'notShell', data: { key, tool: tools.join('`, `') } });
          }
        }
        if (shell) {
          // As Gemini CLI's loader compiles the table (native-model.ts): no rule, or patterns a typed command misses.
          const prefix = rule.commandPrefix;
          if (Array.isArray(prefix?.value) && prefix.value.length === 0) ctx.report({ span: prefix.span, messageId: 'emptyPrefix', data: { decision: rule.decision?.value ?? 'rule' } });
          const items = typeof prefix?.value === 'string' ? [{ value: prefix.value, span: prefix.span }] : (rule.commandPrefixItems ?? []);
          const loaded = geminiLoaded(file, rule.span);
          for (const item of items) {
            const compiled = loaded.find((l) => l.argsPattern === commandPrefixPattern(item.value));
            const typed = wordsOf(item.value).join(' ');
            if (compiled === undefined || typed === '' || geminiRuleMatches(compiled, typed) || geminiRuleMatches(compiled, `${typed} x`)) continue;
            ctx.report({ span: item.span, messageId: 'untypedPrefix', data: { prefix: JSON.stringify(item.value), typed: `${typed} x`, spaced: `${item.value} x`, trimmed: JSON.stringify(typed), decision: rule.decision?.value ?? 'rule' } });
          }
        }
        for (const mode of rule.modes?.value ?? []) {
          if (!GEMINI_MODES.includes(mode)) ctx.report({ span: rule.modes!.span, messageId: 'unknownMode', data: { mode, modes: GEMINI_MODES.map((m) => `\`${m}\``).join(', ') } });
        }
      }
    }
    if (file.format === 'gemini-settings') {
      for (const e of file.entries) {
        if ((e.setting === 'tools.exclude' || e.setting === 'excludeTools') && e.argument !== undefined) {
          ctx.report({ span: e.span, messageId: 'excludeCommand', data: { entry: e.text, setting: e.setting, argument: e.argument } });
        }
      }
    }
    if (file.format === 'cursor-cli') {
      for (const r of file.rules) {
        if (r.type !== 'Shell' || r.argument === undefined) continue;
        const colon = r.argument.indexOf(':');
        const base = (colon < 0 ? r.argument : r.argument.slice(0, colon)).trim().replace(/\s+\*$/, '');
        if (/\s/.test(base)) {
          const [first, ...rest] = base.split(/\s+/);
          ctx.report({ span: r.span, messageId: 'cursorSpace', data: { rule: r.text, base: first ?? '', rest: `${rest.join(' ')}${colon < 0 ? '' : ` ${r.argument.slice(colon + 1)}`}` } });
        }
      }
    }
  },
});
