import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './policy-capability-unsupported.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    y('driver: codex', 'policy:', '  sandbox: read_only', '  web_search: deny'),
    { name: 'no driver: nothing to check against', code: y('policy:', '  sandbox: read_only') },
    { name: 'browser on claude', code: y('driver: claude', 'policy:', '  browser: allow') },
  ],
  invalid: [
    {
      name: 'every unsupported dimension, not only the first',
      code: y('driver: claude', 'policy:', '  sandbox: read_only', '  web_search: deny'),
      errors: [
        {
          messageId: 'unsupported',
          line: 3,
          column: 12,
          message: 'driver `claude` does not support `sandbox: read_only`',
          help: 'the SDK refuses to start the run (`agentadaptor: policy capability unsupported by driver: driver=claude dimension=sandbox value=read_only`); remove the key to inherit the driver’s behaviour, or pick a driver that supports it',
        },
        { messageId: 'unsupported', line: 4, column: 15 },
      ],
    },
    {
      name: '--driver overrides the file',
      driver: 'codex',
      code: y('driver: claude', 'policy:', '  browser: allow'),
      errors: [{ messageId: 'unsupported', line: 3, column: 12 }],
    },
    {
      name: 'an invalid value elsewhere does not hide the capability error',
      code: y('driver: cursor', 'policy:', '  sandbox: read_only', '  approvals:', '    max_retries: -1'),
      errors: [{ messageId: 'unsupported', line: 3, column: 12 }],
    },
  ],
});
