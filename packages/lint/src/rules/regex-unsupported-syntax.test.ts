import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './regex-unsupported-syntax.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;
const one = (match: string): string => y('mode: pattern', 'deny:', `  - {tool: bash, match: '${match}'}`);

runRuleTests(rule, {
  valid: [one('a(?:b)'), one('(?i)rm'), one('x{1000}'), one('\\x{263a}'), one('[(?=]'), one('\\Q(?=\\E')],
  invalid: [
    { code: one('rm(?! -i)'), errors: [{ messageId: 'lookahead', line: 3, column: 25, message: 'RE2 has no lookahead: `(?!` in `rm(?! -i)` does not compile' }] },
    { code: one('(?<=sudo )rm'), errors: [{ messageId: 'lookbehind', line: 3, column: 25 }] },
    { code: one('(a)\\1'), errors: [{ messageId: 'backreference', line: 3, column: 25 }] },
    { code: one('a++'), errors: [{ messageId: 'possessive', line: 3, column: 25 }] },
    { code: one('(?>ab)'), errors: [{ messageId: 'atomic', line: 3, column: 25 }] },
    { code: one('rm\\Z'), errors: [{ messageId: 'bigZ', line: 3, column: 25 }] },
    { code: one('\\u0072m'), errors: [{ messageId: 'unicodeEscape', line: 3, column: 25 }] },
    { code: one('\\cA'), errors: [{ messageId: 'controlEscape', line: 3, column: 25 }] },
    { code: one('a{1001}'), errors: [{ messageId: 'repeatCount', line: 3, column: 25 }] },
  ],
});
