import type { APIRequestContext } from '@playwright/test';
import { ADMIN, apiToken, expect, screenshot, STAFF, test } from './fixtures';

/** The newest 6-digit code mailed to `to`, read from the outbox as the admin. */
async function codeFor(request: APIRequestContext, to: string, after: number): Promise<string> {
  const token = await apiToken(request, ADMIN);
  let code = '';
  await expect
    .poll(async () => {
      const res = await request.get('/api/admin/outbox', { headers: { Authorization: `Bearer ${token}` } });
      const data = ((await res.json()) as { data: { id: number; recipient: string; body: string }[] }).data;
      const mail = data.find((m) => m.recipient === to && m.id > after);
      code = mail?.body.match(/\b(\d{6})\b/)?.[1] ?? '';
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code;
}

async function lastOutboxId(request: APIRequestContext): Promise<number> {
  const token = await apiToken(request, ADMIN);
  const res = await request.get('/api/admin/outbox', { headers: { Authorization: `Bearer ${token}` } });
  return ((await res.json()) as { data: { id: number }[] }).data[0]?.id ?? 0;
}

test('двоетапний вхід через e-mail: увімкнути, вийти й увійти з кодом із листа', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(STAFF.email);
  await page.getByLabel('Пароль', { exact: true }).fill(STAFF.password);
  await page.getByRole('button', { name: 'Увійти' }).click();
  await expect(page).not.toHaveURL(/\/login/);

  await page.goto('/User');
  await expect(page.getByTestId('two-factor-state')).toHaveText('Вимкнено');
  let after = await lastOutboxId(page.request);
  await page.getByRole('button', { name: 'Увімкнути через e-mail' }).click();
  const dialog = page.getByRole('dialog', { name: 'Увімкнути через e-mail' });
  await dialog.getByLabel('Поточний пароль').fill(STAFF.password);
  await dialog.getByRole('button', { name: 'Надіслати код' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Код надіслано');
  await dialog.getByLabel('Код з повідомлення').fill(await codeFor(page.request, STAFF.email, after));
  await screenshot(page, 'two-factor-enable');
  await dialog.getByRole('button', { name: 'Підтвердити' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('two-factor-state')).toHaveText('За кодом на e-mail');
  await screenshot(page, 'user-settings');

  await page.getByRole('button', { name: 'Вийти' }).first().click();
  await expect(page).toHaveURL(/\/login/);

  after = await lastOutboxId(page.request);
  await page.getByLabel('E-mail').fill(STAFF.email);
  await page.getByLabel('Пароль', { exact: true }).fill(STAFF.password);
  await page.getByRole('button', { name: 'Увійти' }).click();
  await expect(page.getByText('Ми надіслали лист з кодом на')).toBeVisible();
  await expect(page.getByRole('button', { name: /Надіслати ще раз через \d+ с/ })).toBeDisabled();

  // A wrong code is refused and says how many attempts are left.
  const code = await codeFor(page.request, STAFF.email, after);
  await page.getByLabel('Код з повідомлення').fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Підтвердити' }).click();
  await expect(page.getByText('Невірний код. Залишилось спроб: 4.')).toBeVisible();
  await screenshot(page, 'login-code-step');

  await page.getByLabel('Код з повідомлення').fill(code);
  await page.getByRole('button', { name: 'Підтвердити' }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await expect(page.getByTestId('header-title')).toBeVisible();
});
