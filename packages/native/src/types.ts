/**
 * What every native reader returns: the agent, the format, where each rule and key is written, and
 * the reader's own diagnostics (syntax errors, values it cannot read statically). Readers never
 * decide: they record what is written, with its span, so the lint rules and each agent's decision
 * model read one thing.
 */
import type { Diagnostic, HookAgent, Span } from '@verdict/engine';

/** The agents, as the engine's catalogue names them. */
export type NativeAgent = HookAgent;

export type NativeFormat =
  | 'claude-settings'
  | 'codex-rules'
  | 'codex-requirements'
  | 'gemini-policy'
  | 'gemini-settings'
  | 'cursor-cli';

/** The agent each format belongs to. */
export const FORMAT_AGENT: Readonly<Record<NativeFormat, NativeAgent>> = {
  'claude-settings': 'claude',
  'codex-rules': 'codex',
  'codex-requirements': 'codex',
  'gemini-policy': 'gemini',
  'gemini-settings': 'gemini',
  'cursor-cli': 'cursor',
};

/** A value and where it is written. */
export interface Located<T> {
  value: T;
  span: Span;
}

/** A key as written, with the span of the key and of its value (unknown keys are kept this way too). */
export interface LocatedKey {
  key: string;
  keySpan: Span;
  valueSpan: Span;
  /** The value, as the format's parser read it (JSON/TOML value). */
  value: unknown;
}

export interface NativeFileBase {
  format: NativeFormat;
  agent: NativeAgent;
  /** The name diagnostics show. */
  file: string;
  /** The text read (absent when the file could not be read). */
  text?: string;
  /**
   * The reader's diagnostics: `native/syntax` (error: the file does not parse, the agent refuses it
   * too), `native/not-static` (a part that needs evaluation, not read, never guessed), `native/type`
   * (a value of the wrong type where the reader looks for rules), and the loader's `load/*` codes.
   */
  diagnostics: Diagnostic[];
  /** False when some part was not read (a syntax error or a part that cannot be read statically). */
  complete: boolean;
}
