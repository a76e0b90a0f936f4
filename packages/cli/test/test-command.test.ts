/** `verdict test`: golden runs (fixtures/cli/test-*), and the behaviours a user notices. */
import { beforeAll, describe, expect, it } from 'vitest';
import { testCommand } from '../src/commands/test.ts';
import { checkGolden, goldenCases, runCommand } from './command-harness.ts';
import { repoRoot } from './harness.ts';

beforeAll(() => process.chdir(repoRoot));

describe('verdict test golden runs', () => {
  const cases = goldenCases('test-');
  it('has golden cases', () => expect(cases.length).toBeGreaterThan(5));
  for (const name of cases) it(name, () => checkGolden(testCommand, name));
});
