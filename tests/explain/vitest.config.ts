import { defineConfig } from 'vitest/config';

/**
 * The EXPLAIN suite: generates the large data scale into its own PostgreSQL database
 * (DATABASE_URL names the server) and checks the plans of every list query.
 */
export default defineConfig({
  test: {
    name: 'explain',
    environment: 'node',
    include: ['tests/explain/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 600_000,
    hookTimeout: 900_000,
  },
});
