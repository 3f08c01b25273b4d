import type { Page } from '@playwright/test';
import { apiToken, expect, screenshot, signIn, test } from './fixtures';

const rows = (page: Page) => page.locator('tbody tr');

test.describe('Оголошення мешканців', () => {
  test('перемикач «Опубліковано» у списку публікує й приховує оголошення', async ({ page }) => {
    await signIn(page);
    await page.goto('/Advertisements');
    await expect(page.getByTestId('header-title')).toHaveText('Оголошення мешканців');
    const toggle = page.getByRole('checkbox', { name: 'Опубліковано: Шукаю няню на вечори' });
    await expect(toggle).not.toBeChecked();

    await toggle.click();
    await expect(page.getByRole('status').filter({ hasText: 'Оголошення опубліковано' })).toBeVisible();
    await expect(toggle).toBeChecked();
    await screenshot(page, 'ads-published');

    // The API agrees, and the list shows it after a reload.
    const token = await apiToken(page.request);
    const list = await page.request.get('/api/admin/advertisement?published=1&per_page=100', { headers: { Authorization: `Bearer ${token}` } });
    const names = ((await list.json()).main_data.data as { name: string }[]).map((a) => a.name);
    expect(names).toContain('Шукаю няню на вечори');
    await page.reload();
    await expect(page.getByRole('checkbox', { name: 'Опубліковано: Шукаю няню на вечори' })).toBeChecked();

    await page.getByRole('checkbox', { name: 'Опубліковано: Шукаю няню на вечори' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Оголошення приховано' })).toBeVisible();
    await expect(page.getByRole('checkbox', { name: 'Опубліковано: Шукаю няню на вечори' })).not.toBeChecked();
    await expect(rows(page)).toHaveCount(3);
  });
});

test.describe('Документи', () => {
  test('завантажити документ для двох будинків і скачати його', async ({ page }) => {
    await signIn(page);
    await page.getByRole('link', { name: 'Документи' }).click();
    await expect(page).toHaveURL(/\/documents$/i);
    await expect(page.getByTestId('header-title')).toHaveText('Документи');
    await page.getByRole('button', { name: 'Додати' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Новий документ' });
    await expect(dialog).toBeVisible();

    await dialog.getByLabel('Назва').fill('Кошторис на 2026 рік');
    const pdf = Buffer.from('%PDF-1.4\n% кошторис\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    await dialog.getByTestId('document-file').setInputFiles({ name: 'Кошторис-2026.pdf', mimeType: 'application/pdf', buffer: pdf });
    await expect(dialog.getByTestId('document-file-name')).toContainText('Кошторис-2026.pdf');
    const houses = dialog.getByLabel('Будинки');
    for (const section of ['секція 1', 'секція 2']) {
      await houses.click();
      await houses.fill(section);
      await page.getByRole('option', { name: new RegExp(`Липова, 12, ${section}`) }).click();
    }
    await screenshot(page, 'documents-create-dialog');
    await dialog.getByRole('button', { name: 'Зберегти' }).click();

    await expect(page.getByRole('status').filter({ hasText: 'Документ додано' })).toBeVisible();
    await expect(dialog).toBeHidden();
    const row = rows(page).filter({ hasText: 'Кошторис на 2026 рік' });
    await expect(row).toBeVisible();
    await expect(row).toContainText('2 будинки');
    await expect(row).toContainText('Кошторис-2026.pdf');
    await screenshot(page, 'documents-list');

    await row.getByRole('button', { name: 'Дії з записом' }).click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'Завантажити файл' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('Кошторис-2026.pdf');
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(pdf)).toBe(true);
  });
});

test.describe('Попередня версія кабінету', () => {
  test('список сторінок /dashboard_old веде до сучасних розділів', async ({ page }) => {
    await signIn(page);
    await page.goto('/dashboard_old');
    await expect(page.getByTestId('header-title')).toHaveText('Попередня версія кабінету');
    for (const name of ['Додати новину', 'Оголошення мешканців', 'Контакти комплексу', 'Знижки від партнерів', 'Камери спостереження', 'Оголошення']) {
      await expect(page.getByRole('link', { name: new RegExp(`^${name}`) }).first()).toBeVisible();
    }
    await screenshot(page, 'legacy-index');
    await page.getByRole('link', { name: 'Оголошення /dashboard_old/Notice' }).click();
    await expect(page).toHaveURL(/\/Announcements$/);
    await expect(page.getByTestId('header-title')).toHaveText('Оголошення');

    await page.goto('/dashboard_old/AddNews');
    await expect(page).toHaveURL(/\/News\/create$/);
    await expect(page.getByTestId('header-title')).toHaveText('Нова новина');
    await page.goto('/dashboard_old/Security-cameras');
    await expect(page.getByTestId('header-title')).toHaveText('Камери спостереження');
    await expect(rows(page).filter({ hasText: 'Вхід до секції 1' })).toBeVisible();
  });
});
