import { defineConfig, devices } from '@playwright/test';

/**
 * Run through `npm run test:e2e` (e2e/run.mjs builds both SPA editions first).
 * Each test file gets its own app process and database: see e2e/fixtures.ts.
 */
const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
};

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: '../test-results/e2e',
  globalSetup: './global-setup.ts',
  globalTeardown: './global-teardown.ts',
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  workers: 2,
  retries: 0,
  reporter: 'list',
  // Long journeys (a survey, a role and its holder) run 30–60 s on a busy 2-core CI machine.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  use: {
    locale: 'uk-UA',
    timezoneId: Intl.DateTimeFormat().resolvedOptions().timeZone,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        // The sidebar shows its labels from 1440 px up (below it collapses to icons).
        viewport: { width: 1600, height: 1000 },
        launchOptions,
      },
    },
  ],
});
