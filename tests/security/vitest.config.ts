import { defineConfig } from 'vitest/config';
import { declaredScreens } from '../../vite.config';

/** The security suite: API-level checks on its own databases (one per test file). */
export default defineConfig({
  // Some files read the SPA's route table, which lists the declared entities' screens.
  plugins: [declaredScreens()],
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
