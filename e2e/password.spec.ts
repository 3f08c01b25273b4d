import { ADMIN, apiToken, expect, screenshot, STAFF, test } from './fixtures';

test('відновлення пароля: лист із посиланням, новий пароль, вхід з ним', async ({ page }) => {
  const newPassword = 'nove-haslo-2026!';

  await page.goto('/login');
  await page.getByRole('link', { name: 'Забули пароль?' }).click();
  await expect(page).toHaveURL(/\/ForgetPassword$/);
  await expect(page.getByRole('heading', { name: 'Відновлення пароля' })).toBeVisible();
  await page.getByLabel('E-mail').fill(STAFF.email);
  await screenshot(page, 'forgot-password');
  await page.getByRole('button', { name: 'Надіслати посилання' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'ми надіслали на нього посилання для відновлення пароля' })).toBeVisible();

  // The e-mail goes to the outbox (no SMTP configured); read it as the admin.
  const token = await apiToken(page.request, ADMIN);
  let body = '';
  await expect
    .poll(async () => {
      const res = await page.request.get('/api/admin/outbox', { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status()).toBe(200);
      const data = ((await res.json()) as { data: { recipient: string; body: string }[] }).data;
      body = data[0]?.recipient === STAFF.email ? data[0].body : '';
      return body;
    })
    .toContain('/ResetPassword?token=');
  const link = /https?:\/\/[^\s"'<>]+\/ResetPassword\?token=[^\s"'<>]+/.exec(body)?.[0];
  expect(link, body).toBeTruthy();
  const target = new URL(link!.replace(/&amp;/g, '&'));
  expect(target.searchParams.get('email')).toBe(STAFF.email);
  expect(target.searchParams.get('token')).toBeTruthy();

  // Open it on this server (the link's host comes from PUBLIC_URL, which the suite does not set).
  await page.goto(target.pathname + target.search);
  await expect(page.getByRole('heading', { name: 'Новий пароль' })).toBeVisible();
  await expect(page.getByLabel('E-mail')).toHaveValue(STAFF.email);
  await page.getByLabel('Новий пароль').fill(newPassword);
  await page.getByLabel('Повторіть пароль').fill(newPassword);
  await screenshot(page, 'reset-password');
  await page.getByRole('button', { name: 'Зберегти пароль' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Пароль змінено' })).toBeVisible();

  await page.getByRole('link', { name: 'Увійти' }).click();
  await expect(page).toHaveURL(/\/login$/);

  // The old password no longer works…
  await page.getByLabel('E-mail').fill(STAFF.email);
  await page.getByLabel('Пароль', { exact: true }).fill(STAFF.password);
  await page.getByRole('button', { name: 'Увійти' }).click();
  await expect(page.getByText('Невірний e-mail або пароль.')).toBeVisible();

  // …the new one does.
  await page.getByLabel('Пароль', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Увійти' }).click();
  // The dispatcher lands on the dashboard (src/pages/landing.ts) and sees their two complexes.
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/Complex');
  await expect(page.locator('tbody tr')).toHaveCount(2);
});
