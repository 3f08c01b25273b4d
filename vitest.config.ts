import fs from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { declaredScreens } from './vite.config';

const WEB_TESTS = ['tests/web/**/*.test.{ts,tsx}', 'src/**/*.test.{ts,tsx}'];
/**
 * Web test files that replace a module (`vi.mock`) need a module cache of their own; the others
 * share one per worker, which spares each file re-importing React, MUI and react-admin.
 */
const mockingModules = ['tests/web', 'src']
  .flatMap((dir) => fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => path.join(dir, f)))
  .filter((file) => /\.test\.tsx?$/.test(file) && /\bvi\.(do)?mock\(/.test(fs.readFileSync(file, 'utf8')));

/** The browser-side tests in jsdom: with one module cache per worker, or one per file. */
const web = (name: string, files: { include: string[]; exclude?: string[] }, isolate: boolean) => ({
  plugins: [react(), declaredScreens()],
  // As in vite.config.ts: one copy of the rich text editor's core.
  resolve: { dedupe: ['@tiptap/core', '@tiptap/pm'] },
  test: { name, environment: 'jsdom', isolate, ...files, setupFiles: ['tests/web/setup.ts'], testTimeout: 20_000 },
});

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
          // Files share a module cache per worker (each still builds its own app on its own
          // database): module-level state must therefore be per app or per database.
          isolate: false,
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      web('web', { include: WEB_TESTS, exclude: mockingModules }, false),
      web('web-mocks', { include: mockingModules }, true),
    ],
  },
});
