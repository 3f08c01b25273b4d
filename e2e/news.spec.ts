import path from 'node:path';
import os from 'node:os';
import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, openMenuItem, screenshot, signIn, test } from './fixtures';

const rows = (page: Page) => page.locator('tbody tr');

/** A real PNG (2×2, blue) for the cover. */
function coverFile(): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'news-e2e-')), 'обкладинка.png');
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGNkYPjPwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');
  fs.writeFileSync(file, png);
  return file;
}

async function chooseComplex(page: Page, name: string) {
  await page.getByRole('button', { name: /^Комплекс/ }).click();
  await page.getByRole('menuitemradio', { name }).click();
  await expect(page.getByRole('button', { name: /^Комплекс/ })).toContainText(name);
}

test.describe('Новини', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
    await openMenuItem(page, 'Спільнота', 'Новини', /\/news$/i);
    await expect(page.getByTestId('header-title')).toHaveText('Новини');
  });

  test('вибір комплексу в шапці звужує список новин до нього', async ({ page }) => {
    await chooseComplex(page, 'ЖК «Липовий гай»');
    await expect(rows(page).filter({ hasText: 'Планове відключення гарячої води' })).toBeVisible();
    await expect(rows(page).filter({ hasText: 'Суботник на прибудинковій території' })).toHaveCount(0);

    await chooseComplex(page, 'ЖК «Сонячна гавань»');
    await expect(rows(page).filter({ hasText: 'Суботник на прибудинковій території' })).toBeVisible();
    await expect(rows(page).filter({ hasText: 'Планове відключення гарячої води' })).toHaveCount(0);
    // News for both complexes shows under either of them.
    await expect(rows(page).filter({ hasText: 'Новий графік роботи консьєржів' })).toBeVisible();
    await screenshot(page, 'news-list-filtered');
  });

  test('написати й опублікувати новину з обкладинкою', async ({ page }) => {
    await chooseComplex(page, 'ЖК «Приморський»');
    const title = `Перевірка лічильників ${Date.now().toString(36)}`;
    await page.getByRole('button', { name: 'Додати' }).click();
    await expect(page).toHaveURL(/\/News\/create$/);
    await expect(page.getByTestId('header-title')).toHaveText('Нова новина');

    await page.getByLabel('Заголовок').fill(title);
    const editor = page.locator('.ProseMirror');
    await editor.click();
    await page.keyboard.type('Контролери прийдуть ');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('у вівторок');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('.');
    await page.getByTestId('image_id-file').setInputFiles(coverFile());
    await expect(page.getByRole('img', { name: 'Обкладинка' })).toBeVisible();
    // The complex chosen in the header is the audience by default.
    await expect(page.locator('main').getByRole('button', { name: 'ЖК «Приморський»', exact: true })).toBeVisible();
    await screenshot(page, 'news-create-filled');
    await page.getByRole('button', { name: 'Зберегти' }).click();

    await expect(page.getByRole('status').filter({ hasText: 'Новину збережено' })).toBeVisible();
    await expect(page).toHaveURL(/\/News\/\d+$/);
    await expect(page.getByTestId('header-title')).toHaveText(title);
    await expect(page.getByText('Опубліковано')).toBeVisible();
    await expect(page.getByTestId('article-body').locator('strong')).toHaveText('у вівторок');
    const cover = page.getByRole('img', { name: title });
    await expect(cover).toBeVisible();
    expect(await cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(2);
    await screenshot(page, 'news-show-published');

    await page.getByRole('link', { name: 'Назад' }).click();
    await expect(page).toHaveURL(/\/News$/);
    const row = rows(page).filter({ hasText: title });
    await expect(row).toBeVisible();
    await expect(row).toContainText('Опубліковано');
    await expect(row).toContainText('ЖК «Приморський»');
  });

  test('/News/edit без ідентифікатора відкриває форму нової новини', async ({ page }) => {
    await page.goto('/News/edit');
    await expect(page.getByTestId('header-title')).toHaveText('Нова новина');
    await expect(page.getByLabel('Заголовок')).toHaveValue('');
  });
});
