import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './regex-unsupported-syntax.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;
const one = (match: string): string => y('mode: pattern', 'deny:', `  - {tool: bash, match: '${match}'}`);

runRuleTests(rule, {
  valid: [{ name: 'a `+` after `\\x{…}` is a repeat, not possessive (the pattern fails for its `(`)', code: one('\\x{263a}+(') }, one('a(?:b)'), one('(?i)rm'), one('x{1000}'), one('\\x{263a}'), one('[(?=]'), one('\\Q(?=\\E')],
  invalid: [
    { code: one('rm(?! -i)'), errors: [{ messageId: 'lookahead', line: 3, column: 25, message: 'RE2 has no lookahead: `(?!` in `rm(?! -i)` does not compile' }] },
    { code: one('(?<=sudo )rm'), errors: [{ messageId: 'lookbehind', line: 3, column: 25 }] },
    { code: one('(a)\\1'), errors: [{ messageId: 'backreference', line: 3, column: 25 }] },
    { code: one('a++'), errors: [{ messageId: 'possessive', line: 3, column: 25 }] },
    { code: one('(?>ab)'), errors: [{ messageId: 'atomic', line: 3, column: 25 }] },
    { code: one('rm\\Z'), errors: [{ messageId: 'bigZ', line: 3, column: 25 }] },
    { code: one('\\u0072m'), errors: [{ messageId: 'unicodeEscape', line: 3, column: 25 }] },
    { code: one('\\cA'), errors: [{ messageId: 'controlEscape', line: 3, column: 25 }] },
    { code: one('a{1001}'), errors: [{ messageId: 'repeatCount', line: 3, column: 25 }], output: null },
    { name: 'fix: atomic group', code: one('(?>ab)c'), errors: [{ messageId: 'atomic', line: 3, column: 25 }], output: one('(?:ab)c') },
    { name: 'fix: possessive', code: one('a++b'), errors: [{ messageId: 'possessive', line: 3, column: 25 }], output: one('a+b') },
    { name: 'fix: possessive count', code: one('a{2,3}+b'), errors: [{ messageId: 'possessive', line: 3, column: 25 }], output: one('a{2,3}b') },
    { name: 'fix: \\u', code: one('\\u0072m'), errors: [{ messageId: 'unicodeEscape', line: 3, column: 25 }], output: one('\\x{0072}m') },
    { name: 'fix: \\c', code: one('a\\cib'), errors: [{ messageId: 'controlEscape', line: 3, column: 25 }], output: one('a\\x09b') },
    { name: 'fix: every construct with an RE2 spelling, in one pass', code: one('(?>a)\\u0062++\\cJ'), errors: [{ messageId: 'atomic', line: 3, column: 25 }], output: one('(?:a)\\x{0062}+\\x0a') },
    { name: 'fix: up to the first construct without one', code: one('(?>a)(?=b)(?>c)'), errors: [{ messageId: 'atomic', line: 3, column: 25 }], output: one('(?:a)(?=b)(?>c)') },
    { name: 'no fix: lookaround, backreference, \\Z, a surrogate', code: one('rm(?! -i)'), errors: [{ messageId: 'lookahead', line: 3, column: 25 }], output: null },
    { code: one('(a)\\1'), errors: [{ messageId: 'backreference', line: 3, column: 25 }], output: null },
    { code: one('rm\\Z'), errors: [{ messageId: 'bigZ', line: 3, column: 25 }], output: null },
    { code: one('\\ud83d'), errors: [{ messageId: 'unicodeEscape', line: 3, column: 25 }], output: null },
    {
      name: 'fix: JSON keeps JSON strings',
      filename: 'p.json',
      code: '{"mode": "pattern", "deny": [{"tool": "bash", "match": "\\\\u0072m"}]}\n',
      errors: [{ messageId: 'unicodeEscape', line: 1, column: 56 }],
      output: '{"mode": "pattern", "deny": [{"tool": "bash", "match": "\\\\x{0072}m"}]}\n',
    },
  ],
});
