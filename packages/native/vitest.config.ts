import { defineConfig } from 'vitest/config';
import { sourceConditions } from '../../vitest.shared.ts';

export default defineConfig({
  ...sourceConditions,
  test: {
    name: 'native',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 20000,
  },
});
