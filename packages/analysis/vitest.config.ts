import { defineConfig } from 'vitest/config';
import { sourceConditions } from '../../vitest.shared.ts';

export default defineConfig({
  ...sourceConditions,
  test: {
    name: 'analysis',
    include: ['src/**/*.test.ts'],
    testTimeout: 20000,
  },
});
