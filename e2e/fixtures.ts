/**
 * Test fixtures: every test file gets its own running app (fresh database copy, free port),
 * started on first use in a worker and stopped when the worker moves to another file or exits.
 * `baseURL` points at it, so `page.goto('/login')` and `page.request.get('/api/...')` just work.
 */
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { freshDataDir, makeTempDir, startServer, type Edition, type RunningServer } from './server';

/** Keys of the screen tours (src/customPages/tours/ScreenTour.tsx). */
export const SCREEN_TOUR_KEYS = ['requests', 'members', 'news', 'voting'];

export const ADMIN = { email: 'admin@demo.ua', password: 'demo-admin-2026' };
export const STAFF = { email: 'dispatcher@demo.ua', password: 'demo-staff-2026' };
export const SHOTS_DIR = process.env.E2E_SHOTS_DIR ?? '/tmp/e2e-shots';

class ServerPool {
  private current?: { key: string; server: Promise<RunningServer> };

  async forFile(file: string, edition: Edition, seed: Seed): Promise<RunningServer> {
    const key = `${file}#${edition}#${seed}`;
    if (this.current?.key !== key) {
      await this.stop();
      const label = `${path.basename(file, '.spec.ts')}-${edition}`;
      // A clean install seeds an empty folder itself, with its admin only.
      const server =
        seed === 'clean'
          ? startServer({ dataDir: makeTempDir(`${label}-clean`), edition, removeDataDirOnStop: true, env: { SEED_DEMO: '0' } })
          : startServer({ dataDir: freshDataDir(label), edition, removeDataDirOnStop: true });
      this.current = { key, server };
    }
    return this.current.server;
  }

  async stop() {
    const running = this.current;
    this.current = undefined;
    if (running) await (await running.server.catch(() => undefined))?.stop();
  }
}

/** What the app's database starts with: the demo organization (the template copy) or a clean install (SEED_DEMO=0: only the admin). */
type Seed = 'demo' | 'clean';
type TestFixtures = { app: RunningServer; edition: Edition; seed: Seed; tours: boolean };
type WorkerFixtures = { servers: ServerPool };

// Fixture callbacks name Playwright's `use` "provide" so that the React hooks lint rule leaves them alone.
export const test = base.extend<TestFixtures, WorkerFixtures>({
  /** Which SPA build the app serves: dist/ (main) or dist-alt/ (VITE_EDITION=alt). */
  edition: ['main', { option: true }],
  seed: ['demo', { option: true }],
  servers: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, provide) => {
      const pool = new ServerPool();
      await provide(pool);
      await pool.stop();
    },
    { scope: 'worker' },
  ],
  app: async ({ servers, edition, seed }, provide, testInfo) => {
    const server = await servers.forFile(testInfo.file, edition, seed);
    await provide(server);
    if (testInfo.status !== testInfo.expectedStatus) {
      await testInfo.attach('server-output.txt', { body: server.output(), contentType: 'text/plain' });
    }
  },
  baseURL: async ({ app }, provide) => {
    await provide(app.url);
  },
  /** Guided tours cover the screen on first visit: tests that are not about them start with every tour seen. */
  tours: [false, { option: true }],
  page: async ({ page, tours }, provide) => {
    if (!tours) await skipTours(page);
    await provide(page);
  },
});

export { expect };

/**
 * Opens a menu group and follows one of its items. The group slides open, and a click during the
 * slide can miss, so the click is repeated until the address is the item's.
 */
export async function openMenuItem(page: Page, group: string, item: string, url: RegExp) {
  const nav = page.getByRole('navigation', { name: 'Головне меню' });
  await nav.getByRole('button', { name: group }).click();
  await expect(async () => {
    await nav.getByRole('link', { name: item }).click();
    await expect(page).toHaveURL(url, { timeout: 2000 });
  }).toPass({ timeout: 15_000 });
}

/** Signs in through the login form, waits for the landing screen (src/pages/landing.ts), then opens the complexes screen. */
/** Every screen tour marked as seen in this page (a test that is not about them starts without them). */
export async function skipTours(page: Page) {
  await page.addInitScript((keys) => {
    for (const key of keys) localStorage.setItem(`tour.${key}`, 'done');
  }, SCREEN_TOUR_KEYS);
}

/** The sign-in form filled and sent: the user lands on their first screen. */
export async function signInForm(page: Page, user: { email: string; password: string } = ADMIN) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Пароль', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Увійти' }).click();
  await expect(page).toHaveURL(/\/(setup|dashboard|requests)$/i);
}

export async function signIn(page: Page, user: { email: string; password: string } = ADMIN) {
  await signInForm(page, user);
  await page.goto('/Complex');
  await expect(page.getByTestId('header-title')).toHaveText('Житлові комплекси');
}

/** A bearer token from the API, for reading data the UI does not show (outbox, all complexes). */
export async function apiToken(request: APIRequestContext, user: { email: string; password: string } = ADMIN): Promise<string> {
  const res = await request.post('/api/admin/login', { data: user });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`), fullPage: true });
}

/** Today as the app writes dates (DD.MM.YYYY, local time). */
export function formatToday(d = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getDate())}.${p(d.getMonth() + 1)}.${d.getFullYear()}`;
}
