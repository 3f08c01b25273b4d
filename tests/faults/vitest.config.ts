import { defineConfig } from 'vitest/config';
import { declaredScreens } from '../../vite.config';

/**
 * Fault tolerance: real server processes killed, databases stopped under them, two processes
 * on one database, backup and restore. Files run one after another (each starts servers).
 */
export default defineConfig({
  // Some files read the SPA's route table, which lists the declared entities' screens.
  plugins: [declaredScreens()],
  test: {
    name: 'faults',
    environment: 'node',
    include: ['tests/faults/**/*.test.ts'],
    globalSetup: ['tests/faults/globalSetup.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
