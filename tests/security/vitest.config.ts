import { defineConfig } from 'vitest/config';

/** The security suite: API-level checks on its own databases (one per test file). */
export default defineConfig({
  test: {
    name: 'security',
    environment: 'node',
    include: ['tests/security/**/*.test.ts'],
    globalSetup: ['tests/api/globalSetup.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
