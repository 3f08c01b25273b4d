import { ADMIN, apiToken, expect, screenshot, signIn, STAFF, test } from './fixtures';

test.describe('Працівник (диспетчер)', () => {
  test('бачить лише 2 призначені комплекси і не має кнопки «Додати»', async ({ page }) => {
    await signIn(page, STAFF);
    const rows = page.locator('tbody tr');
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: 'Липовий гай' })).toBeVisible();
    await expect(rows.filter({ hasText: 'Сонячна гавань' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Експорт CSV' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Додати' })).toHaveCount(0);
    await screenshot(page, 'staff-complexes');
  });

  test('/Complex/<id> непризначеного комплексу показує сторінку помилки, а не дані', async ({ page }) => {
    // Every complex of the organization, through the API as the admin…
    const adminToken = await apiToken(page.request, ADMIN);
    const all = await page.request.get('/api/admin/complexes?per_page=100', { headers: { Authorization: `Bearer ${adminToken}` } });
    expect(all.status()).toBe(200);
    const complexes = ((await all.json()) as { main_data: { data: { id: number; name: string }[] } }).main_data.data;
    // …and the ones the dispatcher may see.
    const staffToken = await apiToken(page.request, STAFF);
    const me = await page.request.get('/api/admin/user', { headers: { Authorization: `Bearer ${staffToken}` } });
    const assigned = ((await me.json()) as { data: { complexes: { id: number }[] } }).data.complexes.map((c) => c.id);
    expect(assigned).toHaveLength(2);
    const foreign = complexes.find((c) => !assigned.includes(c.id));
    expect(foreign, 'a complex not assigned to the dispatcher').toBeTruthy();

    await signIn(page, STAFF);
    await page.goto(`/Complex/${foreign!.id}`);
    const errorPage = page.locator('[data-status]');
    await expect(errorPage).toBeVisible();
    await expect(errorPage).toHaveAttribute('data-status', /^(404|403)$/);
    await expect(page.getByRole('heading', { name: /Сторінку не знайдено|Сталася помилка/ })).toBeVisible();
    await expect(page.getByRole('link', { name: 'На головну' })).toBeVisible();
    await expect(page.getByText(foreign!.name)).toHaveCount(0);
    await screenshot(page, 'staff-foreign-complex');
  });
});
