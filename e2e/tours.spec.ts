import type { Page } from '@playwright/test';
import { expect, screenshot, signIn, test } from './fixtures';

/** Guided tours of the list screens (src/customPages/tours): these tests start with no tour seen. */
test.use({ tours: true });

/** Each step's title and what it points at (src/customPages/tours/ScreenTour.tsx). */
const TARGETS: Record<string, string> = {
  'Комплекс і адреси': '[data-testid="header-selectors"]',
  Пошук: 'main [data-tour="search"], main input[name="q"]',
  Список: 'main table',
  'Дії з записом': 'main [data-tour="row-actions"]',
  Додати: 'main [data-tour="add"], main [data-testid="add-button"]',
};

const progress = (page: Page) => page.getByTestId('tour-progress');
const tour = (page: Page) => page.getByTestId('tour');

/**
 * Walks a tour with «Далі» from its first step: the counter runs 1/N…N/N without a gap, every
 * step's target is on the page (the spotlight is over a shown element), and the last step
 * offers «Завершити», which ends the tour. Returns N.
 */
async function walkTour(page: Page, shots?: string): Promise<number> {
  await expect(progress(page)).toHaveText(/^1\/\d$/, { timeout: 15_000 });
  const total = Number((await progress(page).textContent())!.split('/')[1]);
  for (let n = 1; n <= total; n++) {
    await expect(progress(page)).toHaveText(`${n}/${total}`);
    // The step's target is on the page, visible.
    const title = (await tour(page).getByRole('heading').textContent())!;
    expect(Object.keys(TARGETS)).toContain(title);
    await expect(page.locator(TARGETS[title]).first()).toBeVisible();
    // The tooltip is whole on the screen and below the fixed header, its title and buttons readable
    // (the table is taller than the screen: room neither above nor below it).
    await expect(tour(page)).toBeInViewport({ ratio: 1 });
    await expect
      .poll(async () => {
        const header = (await page.locator('header').first().boundingBox())!;
        return (await tour(page).boundingBox())!.y - (header.y + header.height);
      }, `step ${n}/${total}: the tooltip starts below the header`)
      .toBeGreaterThanOrEqual(0);
    if (shots) await screenshot(page, `${shots}-${n}`);
    if (n < total) {
      await expect(tour(page).getByRole('button', { name: 'Завершити' })).toHaveCount(0);
      await tour(page).getByRole('button', { name: 'Далі' }).click();
    }
  }
  await expect(tour(page).getByRole('button', { name: 'Далі' })).toHaveCount(0);
  await tour(page).getByRole('button', { name: 'Завершити' }).click();
  await expect(tour(page)).toHaveCount(0);
  return total;
}

test.describe('підказки екранів', () => {
  for (const [path, title] of [
    ['/Members', 'Мешканці'],
    ['/Requests', 'Перелік заявок'],
    ['/News', 'Новини'],
    ['/Voting', 'Загальні збори'],
  ] as const) {
    test(`${path}: кроки 1/5…5/5 по черзі, «Завершити» на останньому, удруге не показуються`, async ({ page }) => {
      await signIn(page);
      await page.goto(path);
      await expect(page.getByTestId('header-title')).toHaveText(title);
      expect(await walkTour(page, `tour${path.toLowerCase().replace('/', '-')}`)).toBe(5);
      await page.reload();
      await expect(page.getByTestId('header-title')).toHaveText(title);
      await page.waitForTimeout(2000);
      await expect(tour(page)).toHaveCount(0);
    });
  }

  test('меню лишається доступним під час підказок: пункт меню відкриває розділ, підказки вважаються переглянутими', async ({ page }) => {
    await signIn(page);
    await page.goto('/Members');
    await expect(progress(page)).toHaveText('1/5', { timeout: 15_000 });
    const nav = page.getByRole('navigation', { name: 'Головне меню' });
    // The sidebar is above the overlay: what a click there meets is the menu itself.
    const documents = nav.getByRole('link', { name: 'Документи' });
    const box = (await documents.boundingBox())!;
    const hit = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x, y)?.closest('a')?.textContent ?? null,
      [box.x + box.width / 2, box.y + box.height / 2],
    );
    expect(hit).toContain('Документи');
    await documents.click();
    await expect(page).toHaveURL(/\/Documents$/i);
    await expect(tour(page)).toHaveCount(0);
    // The header's selectors and help stay usable too; the members' tour does not come back by itself.
    await nav.getByRole('link', { name: 'Мешканці' }).click();
    await expect(page.getByTestId('header-title')).toHaveText('Мешканці');
    await page.waitForTimeout(2000);
    await expect(tour(page)).toHaveCount(0);
  });

  test('підказки можна показати знову з меню «Довідка»; на екрані без підказок пункт недоступний', async ({ page }) => {
    await signIn(page);
    await page.goto('/Requests');
    await walkTour(page);

    await page.getByRole('button', { name: 'Довідка' }).click();
    await page.getByRole('menuitem', { name: 'Показати підказки до цього екрана' }).click();
    await expect(progress(page)).toHaveText('1/5');
    await screenshot(page, 'tour-replayed');
    expect(await walkTour(page)).toBe(5);

    await page.goto('/Complex');
    await expect(page.getByTestId('header-title')).toHaveText('Житлові комплекси');
    await page.getByRole('button', { name: 'Довідка' }).click();
    const item = page.getByRole('menuitem', { name: /Показати підказки до цього екрана/ });
    await expect(item).toHaveAttribute('aria-disabled', 'true');
    await expect(item).toContainText('На цьому екрані підказок немає');
    await screenshot(page, 'help-menu');
    await page.keyboard.press('Escape');
  });

  test('на телефоні (390 px) лічильник так само без пропусків: кроки без цілі на екрані не рахуються', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page);
    await page.goto('/Requests');
    // The row actions are scrolled out of a phone's width: 4 steps, all shown.
    expect(await walkTour(page, 'tour-requests-390')).toBe(4);
  });
});

test.describe('підказки в англомовному браузері', () => {
  test.use({ locale: 'en-US' });
  test('українською, з тим самим лічильником', async ({ page }) => {
    await signIn(page);
    await page.goto('/News');
    await expect(progress(page)).toHaveText('1/5', { timeout: 15_000 });
    await expect(tour(page).getByRole('button', { name: 'Далі' })).toBeVisible();
    await screenshot(page, 'tour-news-en-US');
    expect(await walkTour(page)).toBe(5);
  });
});

test.describe('підказки в альтернативній редакції', () => {
  test.use({ edition: 'alt' });
  test('без вибору комплексу в шапці: 4 кроки, 1/4…4/4', async ({ page }) => {
    await signIn(page);
    await page.goto('/Members');
    expect(await walkTour(page)).toBe(4);
  });
});
