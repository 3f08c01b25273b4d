/**
 * The time a person waits from a click in the sidebar to the list's rows, in Chromium
 * (playwright-core, never a downloaded browser): cold (a fresh browser profile: the screen's code
 * and its data are fetched) and warm (back to a list seen a moment ago: react-query's cache shows
 * the last rows at once while it refreshes them).
 */
import { chromium, type Page } from 'playwright-core';

export interface ListCase {
  label: string;
  /** The sidebar group to open first, if the item is in one. */
  group?: string;
  item: string;
}

export interface ClickTiming {
  label: string;
  coldMs: number[];
  warmMs: number[];
}

const NAV = (page: Page) => page.getByRole('navigation', { name: 'Головне меню' });

/** Clicks a sidebar item and waits until the list shows a row of data; the time in ms. */
async function clickToRows(page: Page, c: ListCase): Promise<number> {
  const nav = NAV(page);
  if (c.group) {
    const link = nav.getByRole('link', { name: c.item });
    if (!(await link.isVisible())) await nav.getByRole('button', { name: c.group }).click();
  }
  const start = Date.now();
  await nav.getByRole('link', { name: c.item }).click();
  await page.locator('table tbody tr td').first().waitFor({ state: 'visible', timeout: 60_000 });
  return Date.now() - start;
}

/** The overview, away from any list: where each measured click starts. */
async function away(page: Page) {
  await NAV(page).getByRole('link', { name: 'Огляд' }).click();
  await page.waitForURL(/\/dashboard/i);
  await page
    .locator('table tbody tr td')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
}

export async function measureClicks(
  base: string,
  user: { email: string; password: string },
  tours: string[],
  cases: ListCase[],
  runs: number,
  executablePath: string,
): Promise<ClickTiming[]> {
  const browser = await chromium.launch({ executablePath, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  const out: ClickTiming[] = cases.map((c) => ({ label: c.label, coldMs: [], warmMs: [] }));
  try {
    for (let run = 0; run < runs; run++) {
      // A fresh profile per run: nothing cached, as for a person opening the list first today.
      const context = await browser.newContext({ locale: 'uk-UA', viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${base}/login`);
      await page.getByLabel('E-mail').fill(user.email);
      await page.getByLabel('Пароль', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Увійти' }).click();
      await page.waitForURL(/\/(setup|dashboard|requests)$/i, { timeout: 60_000 });
      await page.evaluate((keys) => keys.forEach((k) => localStorage.setItem(`tour.${k}`, 'done')), tours);
      await page.goto(`${base}/dashboard`);
      await NAV(page).waitFor();
      for (const [i, c] of cases.entries()) {
        await away(page);
        out[i].coldMs.push(await clickToRows(page, c));
        await away(page);
        out[i].warmMs.push(await clickToRows(page, c));
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return out;
}
