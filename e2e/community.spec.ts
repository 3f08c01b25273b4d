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
