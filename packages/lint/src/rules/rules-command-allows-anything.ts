import { isCommandRule } from '@verdict/engine';
import { programKey, SHELLS } from '@verdict/shell';
import { createRule } from '../create-rule.ts';
import { isWrapper, wrappedCommands } from '../support/command-rules.ts';

/**
 * Programs that run code the command rules cannot see: shells given a file, interpreters (`-c`,
 * `-e`, a script), and runners of other files. An allow of one without `args` allows everything.
 */
export const INTERPRETERS: readonly string[] = [
  ...SHELLS, 'csh', 'tcsh',
  'python', 'python2', 'python3', 'node', 'nodejs', 'deno', 'bun', 'perl', 'ruby', 'php', 'lua', 'tclsh',
  'awk', 'gawk', 'mawk', 'nawk', 'pwsh', 'powershell', 'osascript', 'source', '.',
];

/** Wrappers that run their command with more privilege: allowed, they lend it to every allowed command. */
export const PRIVILEGED: readonly string[] = ['sudo', 'doas', 'su', 'pkexec', 'run0'];

/** What a wrapper does when it runs no command, where that is worth saying. */
const ALONE: Readonly<Record<string, string>> = {
  env: ', which prints the whole environment, secrets included',
};

export default createRule({
  id: 'rules/command-allows-anything',
  meta: {
    description: 'an allow command rule for an interpreter without `args` (it runs anything), for a wrapper alone (`env`, `timeout`: not every command), or for `sudo`/`doas`',
    severity: 'warning',
    category: 'rules',
    messages: {
      interpreter: 'this allow rule allows `{{program}}` with any arguments, and `{{program}}` runs any code it is given (`{{program}} -c …`, a script file)',
      privileged: 'this allow rule allows `{{program}}`: every command it runs with it gains its privileges',
      wrapper:
        'this allow rule allows only `{{program}}` run with no command{{alone}}: command rules look through `{{program}}` and judge the command it runs, though other agents\' allowlists read such a rule as allowing every command',
    },
    help: {
      interpreter: 'allow the scripts themselves (`command: [./scripts/test.sh]`), or narrow it with `args`, e.g. `args: "--version"`',
      privileged: 'drop the rule: allow the commands themselves, and let a person run what needs privileges',
      wrapper: 'drop the rule and allow the commands themselves: a command an allow rule matches is allowed run under `{{program}}` too',
    },
    docs: { recommended: true },
  },
  create(ctx) {
    return {
      rule(rule, list, _index, approver) {
        if (list !== 'allow' || !isCommandRule(rule) || rule.command === undefined || rule.command.length === 0) return;
        const first = rule.command[0]!;
        const programs = typeof first === 'string' ? [first] : first;
        const privileged = programs.find((p) => PRIVILEGED.includes(programKey(p)));
        if (privileged !== undefined) {
          ctx.report({ node: rule, messageId: 'privileged', data: { program: privileged } });
          return;
        }
        // A further word (`[python, manage.py]`) or `args` narrows what runs.
        if (rule.command.length > 1 || rule.args !== undefined) return;
        const interpreter = programs.find((p) => INTERPRETERS.includes(programKey(p)));
        if (interpreter !== undefined) {
          ctx.report({ node: rule, messageId: 'interpreter', data: { program: interpreter } });
          return;
        }
        // A wrapper that runs as itself when alone (`xargs` alone runs `echo`: rules/command-never-matches).
        const wrapper = programs.find((p) => isWrapper(p, approver) && wrappedCommands([p], approver.wrappers ?? {}) === null);
        if (wrapper !== undefined) {
          ctx.report({ node: rule, messageId: 'wrapper', data: { program: wrapper, alone: ALONE[programKey(wrapper)] ?? '' } });
        }
      },
    };
  },
});
