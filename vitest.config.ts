import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { declaredScreens } from './vite.config';

export default defineConfig({
  test: {
    // Vitest's default leaves a core idle (CPUs − 1: one worker on two cores), while many API test
    // files spend much of their time waiting (retry delays, streams, timers): one worker per core
    // plus one keeps both cores busy. Each file has its own database, so files never share state.
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        test: {
          name: 'api',
          environment: 'node',
          include: ['tests/api/**/*.test.ts'],
          globalSetup: ['tests/api/globalSetup.ts'],
          pool: 'forks',
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react(), declaredScreens()],
        // As in vite.config.ts: one copy of the rich text editor's core.
        resolve: { dedupe: ['@tiptap/core', '@tiptap/pm'] },
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['tests/web/**/*.test.{ts,tsx}', 'src/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/web/setup.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
