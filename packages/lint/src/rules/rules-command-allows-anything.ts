import { isCommandRule } from '@verdict/engine';
import { createRule } from '../create-rule.ts';

/**
 * Programs that run code the command rules cannot see: shells given a file, interpreters (`-c`,
 * `-e`, a script), and runners of other files. An allow of one without `args` allows everything.
 */
export const INTERPRETERS: readonly string[] = [
  'bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'yash', 'posh', 'rbash', 'csh', 'tcsh',
  'python', 'python2', 'python3', 'node', 'nodejs', 'deno', 'bun', 'perl', 'ruby', 'php', 'lua', 'tclsh',
  'awk', 'gawk', 'mawk', 'nawk', 'pwsh', 'powershell', 'osascript', 'source', '.',
];

/** Wrappers that run their command with more privilege: allowed, they lend it to every allowed command. */
export const PRIVILEGED: readonly string[] = ['sudo', 'doas', 'su', 'pkexec', 'run0'];

const base = (w: string): string => (w.split('/').pop() ?? w).toLowerCase();

export default createRule({
  id: 'rules/command-allows-anything',
  meta: {
    description: 'an allow command rule for an interpreter without `args` (it runs anything), or for `sudo`/`doas`',
    severity: 'warning',
    category: 'rules',
    messages: {
      interpreter: 'this allow rule allows `{{program}}` with any arguments, and `{{program}}` runs any code it is given (`{{program}} -c …`, a script file)',
      privileged: 'this allow rule allows `{{program}}`: every command it runs with it gains its privileges',
    },
    help: {
      interpreter: 'allow the scripts themselves (`command: [./scripts/test.sh]`), or narrow it with `args`, e.g. `args: "--version"`',
      privileged: 'drop the rule: allow the commands themselves, and let a person run what needs privileges',
    },
    docs: { recommended: true },
  },
  create(ctx) {
    return {
      rule(rule, list) {
        if (list !== 'allow' || !isCommandRule(rule) || rule.command === undefined || rule.command.length === 0) return;
        const first = rule.command[0]!;
        const programs = typeof first === 'string' ? [first] : first;
        const privileged = programs.find((p) => PRIVILEGED.includes(base(p)));
        if (privileged !== undefined) {
          ctx.report({ node: rule, messageId: 'privileged', data: { program: privileged } });
          return;
        }
        // A further word (`[python, manage.py]`) or `args` narrows what runs.
        if (rule.command.length > 1 || rule.args !== undefined) return;
        const interpreter = programs.find((p) => INTERPRETERS.includes(base(p)));
        if (interpreter !== undefined) ctx.report({ node: rule, messageId: 'interpreter', data: { program: interpreter } });
      },
    };
  },
});
