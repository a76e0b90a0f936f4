import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { compileCommandRules, extract, judge, type CompiledCommandRules } from '../src/index.ts';
import { benignScript, scriptRunning, spellings } from './generators.ts';

function compiled(rules: Parameters<typeof compileCommandRules>[0]): CompiledCommandRules {
  const r = compileCommandRules(rules);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.rules;
}

const BENIGN = ['ls', 'echo', 'cat', 'true', 'git', 'grep', 'wc', 'find', 'xargs'];
const policy = compiled({
  allow: [{ command: [BENIGN] }],
  deny: [{ command: ['rm'] }, { command: ['curl'] }],
});

const benignProgram = fc.constantFrom('ls', 'echo', 'cat', 'true', 'git', 'grep', 'wc');
const denied = fc.oneof(spellings('rm', true), spellings('curl', true));

describe('properties', () => {
  test.prop([scriptRunning(denied, benignProgram)], { numRuns: 600 })(
    'no generated command containing a denied program anywhere is allowed (it is denied)',
    (script) => {
      const j = judge(policy, script);
      expect(j.decision, `${JSON.stringify(script)}: ${j.reason}`).toBe('deny');
    },
  );

  test.prop([benignScript(benignProgram, false), benignScript(benignProgram, false)], { numRuns: 300 })(
    'a command allowed alone stays allowed when joined with another allowed one by &&',
    (a, b) => {
      fc.pre(judge(policy, a).decision === 'allow' && judge(policy, b).decision === 'allow');
      const j = judge(policy, `${a} && ${b}`);
      expect(j.decision, `${JSON.stringify(`${a} && ${b}`)}: ${j.reason}`).toBe('allow');
    },
  );

  test.prop([fc.string({ unit: 'binary', maxLength: 200 })], { numRuns: 500 })('extraction is total on any text', (text) => {
    const r = extract(text);
    expect(Array.isArray(r.commands) && Array.isArray(r.unknowns)).toBe(true);
    expect(['allow', 'ask', 'deny', null]).toContain(judge(policy, text).decision);
  });

  test.prop(
    [
      fc.array(fc.constantFrom('$(', '`', '(', ')', '{ ', '; }', '"', "'", '\\', '\n', '<<E\n', '&&', '|', ';', 'rm', 'ls', ' ', '$((', '))', '[[', ']]', '${', '}', '#', '<(', '>', '&'), { maxLength: 80 }),
    ],
    { numRuns: 500 },
  )('extraction is total on shell-shaped noise, and never allows an `rm` it may run', (parts) => {
    const text = parts.join('');
    const j = judge(policy, text);
    if (j.decision === 'allow') expect(extract(text).commands.some((c) => c.program === 'rm')).toBe(false);
  });
});
