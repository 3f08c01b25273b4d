import { defineConfig } from 'vitest/config';

/**
 * Tests heavy by nature (very large exports): kept out of `npm test` for its run time. Each file
 * has its own database, copied from the same template as the API tests.
 */
export default defineConfig({
  test: {
    name: 'heavy',
    environment: 'node',
    include: ['tests/heavy/**/*.test.ts'],
    globalSetup: ['tests/api/globalSetup.ts'],
    pool: 'forks',
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
