/** `verdict fuzz`: golden runs (fixtures/cli/fuzz-*), and the behaviours a user notices. */
import { beforeAll, describe, expect, it } from 'vitest';
import { fuzzCommand } from '../src/commands/fuzz.ts';
import { checkGolden, goldenCases, runCommand } from './command-harness.ts';
import { repoRoot } from './harness.ts';

beforeAll(() => process.chdir(repoRoot));

describe('verdict fuzz golden runs', () => {
  const cases = goldenCases('fuzz-');
  it('has golden cases', () => expect(cases.length).toBeGreaterThan(5));
  for (const name of cases) it(name, () => checkGolden(fuzzCommand, name));
});
