import { capabilitiesOf } from '@verdict/shell';
import { createNativeRule } from '../create-rule.ts';
import { GEMINI_SHELL_TOOLS, geminiToolNames } from '../support/native-commands.ts';

export default createNativeRule({
  id: 'native/prefix-alternatives',
  meta: {
    description: 'a Gemini CLI `commandPrefix` list that reads as one command (`["go", "test"]`) but is a list of alternatives: it allows every command of each word',
    severity: 'warning',
    category: 'native',
    messages: {
      alternatives: '`commandPrefix = {{list}}` is a list of alternatives, not a command: it {{decides}} every `{{first}}` command and every `{{second}}` command, not `{{joined}}`',
    },
    help: {
      alternatives: 'write the command as one string: `commandPrefix = "{{joined}}"`',
    },
    docs: { recommended: true },
  },
  check(ctx) {
    const file = ctx.native;
    if (file.format !== 'gemini-policy') return;
    for (const rule of file.rules) {
      const v = rule.commandPrefix?.value;
      if (!Array.isArray(v) || v.length < 2 || !geminiToolNames(rule).some((t) => GEMINI_SHELL_TOOLS.includes(t))) continue;
      if (!v.every((w) => /^\S+$/.test(w))) continue;
      const [first, ...others] = v as [string, ...string[]];
      // The later words read as the first one's subcommand or option (`go test`, `npm -g`).
      const second = others.find((w) => w.startsWith('-') || capabilitiesOf(first, [w]).some((c) => c.at === 0 && c.names.includes(w)));
      if (second === undefined) continue;
      const decision = rule.decision?.value;
      const decides = decision === 'allow' ? 'allows' : decision === 'deny' ? 'denies' : 'asks for';
      ctx.report({ span: rule.commandPrefix!.span, messageId: 'alternatives', data: { list: JSON.stringify(v).replace(/,/g, ', '), decides, first, second, joined: v.join(' ') } });
    }
  },
});
