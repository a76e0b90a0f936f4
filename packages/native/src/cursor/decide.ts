/**
 * Cursor CLI's decision for a tool call under `cli.json` permissions, modelled **to the documentation**
 * (cursor.com/docs/cli/reference/permissions, summarised in docs/native/cursor.md; Cursor is closed source and
 * this model was not run against it):
 *
 * - deny beats allow; no matching rule leaves it to Cursor's approval mode (`none` here);
 * - `Shell(commandBase)` matches when the command line's first token matches the base (a glob: `*`, `?`);
 *   `Shell(base:args)` also matches the rest of the line against the argument glob;
 * - `Read(glob)` / `Write(glob)`: `**`, `*`, `?`; a relative glob is relative to the workspace;
 * - `WebFetch(domain)`: exact, `*.example.com` (subdomains), `*`; `Mcp(server:tool)` with `*` wildcards.
 *
 * What the documentation does not say (compound commands, quoting, `:args` globs other than `*`) is returned
 * as `cannotDecide` reasons. The compound split used to give an answer at all is Claude Code's documented one.
 */
import { normalizePath } from '@verdict/engine';
import { claudeSplit } from '../claude/decide.ts';
import type { CursorCliFile, CursorList, CursorRule } from '../cursor.ts';

export type CursorDecision = 'allow' | 'deny' | 'none';

/** A call in Cursor's vocabulary: `Shell` with `{command}`, `Read`/`Write` with a path, `WebFetch` with `{url}`, `Mcp` with `{server, tool}` (or `MCP:<tool>`). */
export interface CursorCall {
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
}

export interface CursorOutcome {
  readonly decision: CursorDecision;
  readonly by?: { readonly rule: CursorRule; readonly file: string };
  readonly cannotDecide: readonly string[];
}

export interface CursorModel {
  decide(call: CursorCall): CursorOutcome;
}

function glob(pattern: string, text: string, slash: boolean): boolean {
  let src = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*' && pattern[i + 1] === '*') {
      src += '.*';
      i++;
      if (pattern[i + 1] === '/') {
        src = `${src.slice(0, -2)}(?:.*/)?`;
        i++;
      }
    } else if (c === '*') src += slash ? '[^/]*' : '.*';
    else if (c === '?') src += slash ? '[^/]' : '.';
    else src += c.replace(/[\\^$.+?()[\]{}|]/g, '\\$&');
  }
  return new RegExp(`^${src}$`, 's').test(text);
}

export function cursorModel(files: readonly CursorCliFile[], context: { workspace?: string } = {}): CursorModel {
  const workspace = normalizePath(context.workspace ?? '/project');
  const held = files.flatMap((f) => f.rules.filter((r) => r.malformed === undefined).map((rule) => ({ rule, file: f.file })));
  const byList = (list: CursorList) => held.filter((h) => h.rule.list === list);

  /** Whether a `Shell(...)` rule matches one command text; `open` collects what the documentation leaves open. */
  const shellMatches = (rule: CursorRule, text: string, open: Set<string>): boolean => {
    const arg = (rule.argument ?? '').trim();
    const colon = arg.indexOf(':');
    const base = colon < 0 ? arg : arg.slice(0, colon);
    const args = colon < 0 ? undefined : arg.slice(colon + 1);
    const trimmed = text.trim();
    const space = trimmed.search(/\s/);
    const first = space < 0 ? trimmed : trimmed.slice(0, space);
    const rest = space < 0 ? '' : trimmed.slice(space).trim();
    if (base.includes(' ')) return false; // the base is one token: `Shell(git push)` matches nothing (documented reading)
    if (!glob(base, first, false)) return false;
    if (args === undefined || args === '*') return true;
    // Two readings of an argument glob the documentation allows: over the whole argument text, or over its
    // start (`Shell(git:status)` as `git status…`). Where they disagree, the model does not decide.
    const whole = glob(args, rest, false);
    const start = glob(`${args}*`, rest, false);
    if (whole !== start) open.add(`how \`${rule.text}\`'s argument glob meets the arguments is not documented`);
    return whole;
  };

  const pathOf = (input: CursorCall['input']): string | undefined => {
    const raw = input['file_path'] ?? input['path'] ?? input['target_path'];
    if (typeof raw !== 'string') return undefined;
    return normalizePath(raw.startsWith('/') ? raw : `${workspace}/${raw}`);
  };

  const matches = (rule: CursorRule, call: CursorCall, open: Set<string>): boolean => {
    const type = rule.type;
    const arg = (rule.argument ?? '').trim();
    if (type === 'Read' || type === 'Write') {
      if (call.tool !== type) return false;
      const path = pathOf(call.input);
      if (path === undefined) {
        open.add(`the call names no path for \`${rule.text}\``);
        return false;
      }
      const g = arg.startsWith('/') ? arg : `${workspace}/${arg.replace(/^\.\//, '')}`;
      return glob(g.replace(/\/+/g, '/'), path, true);
    }
    if (type === 'WebFetch') {
      if (call.tool !== 'WebFetch') return false;
      let host: string;
      try {
        host = new URL(String(call.input['url'])).hostname.toLowerCase();
      } catch {
        open.add('the call names no URL Verdict can read a host from');
        return false;
      }
      if (arg === '*') return true;
      if (arg.startsWith('*.')) return host.endsWith(arg.slice(1).toLowerCase());
      return host === arg.toLowerCase();
    }
    if (type === 'Mcp') {
      const mcp = call.tool === 'Mcp' || call.tool.startsWith('MCP:');
      if (!mcp) return false;
      const tool = call.tool.startsWith('MCP:') ? call.tool.slice(4) : String(call.input['tool'] ?? '');
      const server = call.input['server'];
      const [s = '', t = '*'] = arg.split(':');
      if (!glob(t, tool, false)) return false;
      if (s === '*') return true;
      if (typeof server !== 'string') {
        open.add(`the call does not name its MCP server for \`${rule.text}\``);
        return false;
      }
      return glob(s, server, false);
    }
    return false;
  };

  return {
    decide(call) {
      const open = new Set<string>();
      if (call.tool === 'Shell') {
        const command = call.input['command'];
        if (typeof command !== 'string') return { decision: 'none', cannotDecide: ['a Shell call without a command'] };
        const { parts, open: splitOpen } = claudeSplit(command);
        if (parts.length > 1) open.add('a compound command: how Cursor matches one is not documented (each part is matched here)');
        for (const o of splitOpen) open.add(o);
        const shell = (list: CursorList) => byList(list).filter((h) => h.rule.type === 'Shell' && h.rule.argument !== undefined);
        for (const h of shell('deny')) if (parts.some((p) => shellMatches(h.rule, p, open))) return { decision: 'deny', by: h, cannotDecide: [...open] };
        let first: (typeof held)[number] | undefined;
        for (const p of parts) {
          const h = shell('allow').find((a) => shellMatches(a.rule, p, open));
          if (h === undefined) return { decision: 'none', cannotDecide: [...open] };
          first ??= h;
        }
        return first === undefined ? { decision: 'none', cannotDecide: [...open] } : { decision: 'allow', by: first, cannotDecide: [...open] };
      }
      for (const list of ['deny', 'allow'] as const) {
        for (const h of byList(list)) if (matches(h.rule, call, open)) return { decision: list, by: h, cannotDecide: [...open] };
      }
      return { decision: 'none', cannotDecide: [...open] };
    },
  };
}
