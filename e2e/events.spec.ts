import type { Page } from '@playwright/test';
import { expect, openMenuItem, signIn, test } from './fixtures';

const rows = (page: Page) => page.locator('tbody tr');

test.describe('Афіша заходів (альтернативна редакція)', () => {
  // An English browser: the date input stays Ukrainian (DD.MM.YYYY HH:mm) and takes typed text.
  test.use({ edition: 'alt', locale: 'en-US' });

  test('пункт меню «Афіша заходів», список без вибору комплексу в шапці, новий захід через /Events/edit', async ({ page }) => {
    await signIn(page);
    await openMenuItem(page, 'Спільнота', 'Афіша заходів', /\/events$/i);
    await expect(page.getByTestId('header-title')).toHaveText('Афіша заходів');
    await expect(page.getByTestId('header-selectors')).toHaveCount(0);
    // Not narrowed to one complex: events of both demo complexes show.
    await expect(rows(page).filter({ hasText: 'Дитяче свято у дворі' })).toBeVisible();
    await expect(rows(page).filter({ hasText: 'Збори співвласників' })).toBeVisible();

    await page.goto('/Events/edit');
    await expect(page.getByTestId('header-title')).toHaveText('Новий захід');
    await page.getByLabel('Назва').fill('Кіновечір у дворі');
    await page.getByLabel('Початок').fill('01.06.2030 20:00');
    await page.getByRole('textbox', { name: 'Місце', exact: true }).fill('Внутрішній двір');
    const complexes = page.getByLabel('Комплекси');
    await complexes.click();
    await page.getByRole('option', { name: 'ЖК «Приморський»' }).click();
    await page.getByRole('button', { name: 'Зберегти' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Захід додано' })).toBeVisible();
    await expect(page).toHaveURL(/\/Events\/\d+$/);
    await expect(page.getByText('01.06.2030 20:00')).toBeVisible();
    await expect(page.getByText('Внутрішній двір')).toBeVisible();
  });
});

test.describe('Афіша заходів (основна редакція)', () => {
  test('у меню немає пункту, але маршрут працює і фільтрується вибором у шапці', async ({ page }) => {
    await signIn(page);
    const nav = page.getByRole('navigation', { name: 'Головне меню' });
    await nav.getByRole('button', { name: 'Спільнота' }).click();
    await expect(nav.getByRole('link', { name: 'Новини' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Афіша заходів' })).toHaveCount(0);
    await page.goto('/Events');
    await expect(page.getByTestId('header-selectors')).toBeVisible();
    await page.getByRole('button', { name: /^Комплекс/ }).click();
    await page.getByRole('menuitemradio', { name: 'ЖК «Сонячна гавань»' }).click();
    await expect(rows(page).filter({ hasText: 'Збори співвласників' })).toBeVisible();
    await expect(rows(page).filter({ hasText: 'Дитяче свято у дворі' })).toHaveCount(0);
  });
});
