import { expect, screenshot, signIn, test } from './fixtures';

test('невідома адреса показує сторінку 404 з посиланням «На головну»', async ({ page }) => {
  await signIn(page);
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Сторінку не знайдено' })).toBeVisible();
  await expect(page.locator('[data-status="404"]')).toBeVisible();
  await screenshot(page, 'not-found');

  await page.getByRole('link', { name: 'На головну' }).click();
  // Home (/) leads where the person's work is: the demo admin's is the dashboard (the demo's setup is complete).
  await expect(page).toHaveURL(/\/dashboard$/i);
  await expect(page.getByTestId('header-title')).toHaveText(/^Огляд/);
});

test('/api/admin/no-such відповідає JSON 404', async ({ page }) => {
  const res = await page.request.get('/api/admin/no-such');
  expect(res.status()).toBe(404);
  expect(res.headers()['content-type']).toMatch(/^application\/json/);
  const body = (await res.json()) as { message?: unknown };
  expect(body.message).toBe('Такого методу API не існує.');
});
