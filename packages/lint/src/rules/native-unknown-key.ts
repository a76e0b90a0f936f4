import { didYouMean } from '@verdict/compiler';
import { CLAUDE_PERMISSION_KEYS, GEMINI_RULE_KEYS } from '@verdict/native';
import { createNativeRule } from '../create-rule.ts';

/** Gemini CLI keys that narrow what a rule matches: a misspelt one leaves the rule on the whole tool. */
const NARROWING = new Set(['commandPrefix', 'commandRegex', 'argsPattern', 'mcpName', 'subagent', 'modes', 'toolAnnotations', 'interactive']);

export default createNativeRule({
  id: 'native/unknown-key',
  meta: {
    description: "a key the agent does not read in its own permission file: a misspelt or unknown key of a Gemini CLI rule (stripped without a word), a key under Claude Code's `permissions` or Cursor's that does not exist, or a permission key written outside `permissions`",
    severity: 'warning',
    category: 'native',
    messages: {
      geminiKey: '`{{key}}` is not a key of a Gemini CLI rule: it is dropped without a word{{effect}}',
      permissionKey: '{{agent}} reads no `{{key}}` under `permissions`',
      outside: '`{{key}}` is read under `permissions`, not at the top level: Claude Code ignores it here',
    },
    help: {
      geminiKey: '{{fix}}',
      permissionKey: '{{fix}}',
      outside: 'move it into `permissions`: `"permissions": { "{{key}}": … }`',
    },
    docs: { recommended: true },
  },
  check(ctx) {
    const file = ctx.native;
    if (file.format === 'gemini-policy') {
      for (const rule of file.rules) {
        const narrowed = rule.keys.some((k) => NARROWING.has(k.key));
        for (const k of rule.keys) {
          if (GEMINI_RULE_KEYS.includes(k.key)) continue;
          const near = didYouMean(k.key, GEMINI_RULE_KEYS) ?? didYouMean(k.key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()), GEMINI_RULE_KEYS);
          const narrowing = near !== undefined && NARROWING.has(near);
          const allow = rule.decision?.value === 'allow';
          const effect = narrowing && !narrowed ? `: without it, this ${rule.decision?.value ?? ''} rule applies to every call of its tool${allow ? ' (an allow of every shell command, for the shell tool)' : ''}` : '';
          ctx.report({ span: k.keySpan, messageId: 'geminiKey', data: { key: k.key, effect, fix: near !== undefined ? `did you mean \`${near}\`?` : `a rule reads only ${GEMINI_RULE_KEYS.map((x) => `\`${x}\``).join(', ')}; say what the rule is for in a \`#\` comment` } });
        }
      }
    }
    if (file.format === 'claude-settings') {
      for (const k of file.permissionKeys ?? []) {
        if (CLAUDE_PERMISSION_KEYS.includes(k.key)) continue;
        const near = didYouMean(k.key, CLAUDE_PERMISSION_KEYS);
        ctx.report({ span: k.keySpan, messageId: 'permissionKey', data: { agent: 'Claude Code', key: k.key, fix: near !== undefined ? `did you mean \`${near}\`?` : `\`permissions\` holds ${CLAUDE_PERMISSION_KEYS.map((x) => `\`${x}\``).join(', ')}` } });
      }
      for (const k of file.topLevelKeys) {
        if (['allow', 'ask', 'deny', 'defaultMode', 'additionalDirectories', 'disableBypassPermissionsMode'].includes(k.key)) ctx.report({ span: k.keySpan, messageId: 'outside', data: { key: k.key } });
      }
    }
    if (file.format === 'cursor-cli') {
      for (const k of file.permissionKeys ?? []) {
        if (k.key === 'allow' || k.key === 'deny') continue;
        const near = didYouMean(k.key, ['allow', 'deny']);
        ctx.report({ span: k.keySpan, messageId: 'permissionKey', data: { agent: 'Cursor', key: k.key, fix: near !== undefined ? `did you mean \`${near}\`?` : '`permissions` holds `allow` and `deny`' } });
      }
    }
  },
});
