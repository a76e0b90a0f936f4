// @verdict/native: explicit named exports only.
export type { Located, LocatedKey, NativeAgent, NativeFileBase, NativeFormat } from './types.ts';
export { FORMAT_AGENT } from './types.ts';

export type { NativeFile, ReadNativeFileOptions } from './discover.ts';
export { NATIVE_FOLDERS, nativeFormatOf, readNative, readNativeFile } from './discover.ts';

export type { ClaudeList, ClaudeRule, ClaudeRuleParts, ClaudeScope, ClaudeSettingsFile } from './claude.ts';
export { CLAUDE_LISTS, CLAUDE_MODES, CLAUDE_PERMISSION_KEYS, claudeScopeOf, parseClaudeRule, readClaudeSettings } from './claude.ts';

export type { CodexDecision, CodexExample, CodexHostExecutable, CodexLoadError, CodexNetworkRule, CodexPatternToken, CodexPrefixRule, CodexRulesFile } from './codex-rules.ts';
export { CODEX_DECISIONS, codexPatternMatches, readCodexRules, shlexSplit } from './codex-rules.ts';
export type { CodexRequirementsFile } from './codex-requirements.ts';
export { readCodexRequirements } from './codex-requirements.ts';

export type { GeminiDecision, GeminiPolicyFile, GeminiRule } from './gemini-policy.ts';
export { GEMINI_RULE_KEYS, readGeminiPolicy } from './gemini-policy.ts';
export type { GeminiSettingsFile, GeminiToolEntry, GeminiToolSetting } from './gemini-settings.ts';
export { readGeminiSettings } from './gemini-settings.ts';

export type { CursorCliFile, CursorList, CursorRule } from './cursor.ts';
export { CURSOR_RULE_TYPES, readCursorCli } from './cursor.ts';

export type { LocatedToml, TomlPlace } from './toml.ts';
export { placeAt, readToml } from './toml.ts';
export type { CallArgument, Literal, StarlarkRead, TopLevelCall } from './starlark.ts';
export { readStarlark } from './starlark.ts';

// The agents' own decisions (e2e/native-diff proves them against the agents' engines).
export type { BashParser } from './bash-tree.ts';
export { loadBashParser } from './bash-tree.ts';
export type { CodexAgentCheck, CodexCheck, CodexCommandView, CodexHostExecutableInput, CodexMatchOptions, CodexModelError, CodexPolicy, CodexPrefixRuleInput, CodexRuleMatch, CodexRulesInput, NotExpressible } from './codex/decide.ts';
export { checkCodexCommand, codexCommandsFor, codexFlagsDangerous, codexNotExpressible, codexRulesInput, decideCodexExecNever, compileCodexRules, decideCodexExec, strictest } from './codex/decide.ts';
export type { GeminiCall, GeminiContext, GeminiLoadedRule, GeminiLookup, GeminiNotExpressible, GeminiLoadIssue, GeminiMode, GeminiOutcome, GeminiPolicy, GeminiPolicyFileInput, GeminiRunFacts } from './gemini/decide.ts';
export { commandPrefixPattern, GEMINI_TIERS, geminiArgsJson, geminiHasRedirection, geminiLookup, geminiNotExpressible, geminiPolicy, geminiPolicyFileInput, geminiRegexRejected, geminiShellParts, geminiStripWrapper, loadGeminiPolicies } from './gemini/decide.ts';

// One decision entry point over every native format (Codex and Gemini CLI exact; Claude Code and Cursor to their documentation).
export type { NativeCall, NativeDecider, NativeDeciderOptions, NativeDecision, NativeRuleRef, NativeVerdict } from './decide.ts';
export { NATIVE_SHELL_TOOL, nativeDecider } from './decide.ts';
export type { ClaudeCall, ClaudeContext, ClaudeDecision, ClaudeModel, ClaudeOutcome } from './claude/decide.ts';
export { CLAUDE_STRIPPED, claudeBashMatches, claudeModel, claudeSettingsRoot, claudeSplit } from './claude/decide.ts';
export type { CursorCall, CursorDecision, CursorModel, CursorOutcome } from './cursor/decide.ts';
export { cursorModel } from './cursor/decide.ts';

// Export: a Verdict approver as each agent's own file, never looser.
export type { ExportCarried, ExportDropped, ExportOptions, ExportResult, ExportRuleRef } from './export/index.ts';
export { EXPORT_AGENTS, exportNative, exportShellNames } from './export/index.ts';
