/**
 * Lighthouse (performance category) against the running app, in a Chromium that is already on the
 * machine: playwright-core launches it with a remote debugging port, signs in through the login
 * form when a page needs a session, and Lighthouse's Node API drives the same browser through that
 * port. Lighthouse keeps the browser's storage (the session lives in localStorage), so the HTTP
 * cache is cleared over CDP before every run instead: each run is a cold load.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import lighthouse, { desktopConfig, type Config } from 'lighthouse';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

export type Preset = 'desktop' | 'mobile';

export interface PageMetrics {
  page: string;
  preset: Preset;
  /** 0–100. */
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Transferred bytes of the page's script requests, and how many there were. */
  scriptBytes: number;
  scriptRequests: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface LighthouseBrowser {
  /** Runs Lighthouse on a URL (cold HTTP cache, storage kept). */
  measure(url: string, label: string, preset: Preset): Promise<PageMetrics>;
  /** Signs in through the login form and marks the guided tours as seen. */
  signIn(base: string, email: string, password: string, tours: string[]): Promise<void>;
  close(): Promise<void>;
}

export async function launchLighthouseBrowser(executablePath: string): Promise<LighthouseBrowser> {
  if (!fs.existsSync(executablePath)) throw new Error(`Chromium not found at ${executablePath}: set CHROMIUM_PATH (browsers are never downloaded).`);
  const port = await freePort();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'zhk-bench-spa-profile-'));
  // A persistent context is the browser's default context: the tab Lighthouse opens shares its storage.
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: [...CHROMIUM_FLAGS, `--remote-debugging-port=${port}`],
  });
  const page: Page = context.pages()[0] ?? (await context.newPage());
  const cdp = await context.newCDPSession(page);

  return {
    async signIn(base, email, password, tours) {
      await page.goto(`${base}/login`);
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Пароль', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Увійти' }).click();
      await page.waitForURL(/\/(setup|dashboard|requests)$/i, { timeout: 30_000 });
      await page.evaluate((keys) => {
        for (const key of keys) localStorage.setItem(`tour.${key}`, 'done');
      }, tours);
      await page.goto('about:blank');
    },
    async measure(url, label, preset) {
      await cdp.send('Network.clearBrowserCache');
      const config: Config | undefined = preset === 'desktop' ? desktopConfig : undefined;
      const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: true }, config);
      if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
      const { lhr } = result;
      if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
      const requests = (
        (lhr.audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? []
      ).filter((r) => r.resourceType === 'Script');
      return {
        page: label,
        preset,
        score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        fcpMs: value('first-contentful-paint'),
        lcpMs: value('largest-contentful-paint'),
        tbtMs: value('total-blocking-time'),
        cls: value('cumulative-layout-shift'),
        scriptBytes: requests.reduce((a, r) => a + (r.transferSize ?? 0), 0),
        scriptRequests: requests.length,
      };
    },
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
