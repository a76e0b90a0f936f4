import { isCommandRule } from '@verdict/engine';
import { capabilitiesOf, entryOf, namesCapability, programKey, SHELLS, type Capability } from '@verdict/shell';
import { createRule } from '../create-rule.ts';
import { isWrapper, wrappedCommands } from '../support/command-rules.ts';

/**
 * Programs that run code the command rules cannot see: shells given a file, interpreters (`-c`,
 * `-e`, a script), and runners of other files. An allow of one without `args` allows everything.
 * (awk is not one: the capability table reads its program, and keeps out `system()`, `|`, `>`.)
 */
export const INTERPRETERS: readonly string[] = [
  ...SHELLS, 'csh', 'tcsh',
  'python', 'python2', 'python3', 'node', 'nodejs', 'deno', 'bun', 'perl', 'ruby', 'php', 'lua', 'tclsh',
  'pwsh', 'powershell', 'osascript', 'source', '.',
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
      capability: 'this allow rule lets `{{program}}` {{what}} ({{why}})',
      wrapper:
        'this allow rule allows only `{{program}}` run with no command{{alone}}: command rules look through `{{program}}` and judge the command it runs, though other agents\' allowlists read such a rule as allowing every command',
    },
    help: {
      interpreter: 'allow the scripts themselves (`command: [./scripts/test.sh]`), or narrow it with `args`, e.g. `args: "--version"`',
      privileged: 'drop the rule: allow the commands themselves, and let a person run what needs privileges',
      capability: 'keep the rule only if the agent may do that: an allow lets through only the capabilities it names (docs/shell.md "Capabilities")',
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
        // What the program can do that the table marks and this rule lets through (capabilities.ts).
        const through = capabilitiesLetThrough(programs, rule.command, rule.args);
        if (through) {
          ctx.report({ node: rule, messageId: 'capability', data: through });
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

const VERB: Readonly<Record<Capability['kind'], string>> = { runs: 'run a program', writes: 'write a file', network: 'reach the network' };

/**
 * The first capability of the table an allow rule lets through: one the program has by its nature
 * (`curl` reaches the network, `make` runs the Makefile) when the rule allows it with any
 * arguments, or an option the rule names (`[sort, -o]`, `args: '--pre …'`). `find -exec` and
 * `fd -x` are left out: the commands they run are judged too.
 */
function capabilitiesLetThrough(programs: readonly string[], command: readonly (string | readonly string[])[], args: string | undefined): { program: string; what: string; why: string } | undefined {
  const words = command.slice(1).map((w) => (typeof w === 'string' ? [w] : w));
  for (const program of programs) {
    const entry = entryOf(program);
    if (!entry) continue;
    if (words.length === 0 && args === undefined) {
      const inherent = entry.inherent?.[0];
      if (inherent) return { program, what: VERB[inherent.kind], why: inherent.note };
    }
    const key = programKey(program);
    for (const o of entry.options ?? []) {
      if ((key === 'find' || key === 'fd') && o.kind === 'runs') continue;
      const cap: Capability = { kind: o.kind, what: o.names[0]!, names: o.names, note: o.note };
      if (namesCapability({ words, args }, cap)) return { program, what: `${VERB[o.kind]} with \`${cap.what}\``, why: o.note };
    }
    // Options a further word spells (`[git, -c]`): the table's reading of those words.
    const named = capabilitiesOf(program, words.map((alts) => alts[0]!)).find((c) => c.at === undefined && c.names.length > 0 && namesCapability({ words, args }, c));
    if (named && !((key === 'find' || key === 'fd') && named.kind === 'runs')) return { program, what: `${VERB[named.kind]} with \`${named.what}\``, why: named.note };
  }
  return undefined;
}



