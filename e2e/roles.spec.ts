import { ADMIN, apiToken, expect, screenshot, signIn, test } from './fixtures';

const ROLE = 'Оператор ЖК';
const PERSON = { name: 'Ірина Савчук', email: 'iryna.savchuk@demo.ua', password: 'savchuk-pass-2026' };

test('a role without delete rights: its holder sees no delete action and the API refuses one', async ({ page }) => {
  await signIn(page, ADMIN);

  // 1. The role: view, create and edit on complexes and staff — no delete anywhere.
  await page.goto('/Roles-departments');
  const rolesSection = page.getByRole('region', { name: 'Ролі' });
  await rolesSection.getByRole('button', { name: 'Додати' }).click();
  const roleDialog = page.getByRole('dialog', { name: 'Нова роль' });
  await roleDialog.getByLabel('Назва ролі').fill(ROLE);
  for (const right of ['Комплекси: Перегляд', 'Комплекси: Створення', 'Комплекси: Редагування', 'Працівники: Перегляд', 'Працівники: Редагування']) {
    await roleDialog.getByRole('checkbox', { name: right }).check();
  }
  await screenshot(page, 'roles-matrix');
  await roleDialog.getByRole('button', { name: 'Зберегти' }).click();
  await expect(roleDialog).toBeHidden();
  const roleRow = rolesSection.getByRole('row').filter({ hasText: ROLE });
  await expect(roleRow).toContainText('Комплекси: перегляд, створення, редагування');
  await expect(roleRow).not.toContainText('видалення');

  // 2. A staff member with it, working in one complex.
  await page.goto('/Staff');
  await page.getByRole('button', { name: 'Додати' }).click();
  const staffDialog = page.getByRole('dialog', { name: 'Новий працівник' });
  await staffDialog.getByLabel(/^Ім'я/).fill(PERSON.name);
  await staffDialog.getByLabel('E-mail').fill(PERSON.email);
  await staffDialog.getByRole('combobox', { name: 'Роль' }).click();
  await page.getByRole('option', { name: ROLE }).click();
  await staffDialog.getByRole('combobox', { name: 'Комплекси' }).click();
  await page.getByRole('option', { name: 'ЖК «Липовий гай»' }).click();
  await page.keyboard.press('Escape');
  await staffDialog.getByRole('button', { name: 'Зберегти' }).click();
  await expect(staffDialog).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: PERSON.email })).toContainText(ROLE);

  // 3. The invitation link from the outbox sets the password.
  const adminToken = await apiToken(page.request, ADMIN);
  const outbox = await page.request.get('/api/admin/outbox?per_page=20', { headers: { Authorization: `Bearer ${adminToken}` } });
  expect(outbox.status()).toBe(200);
  const mails = ((await outbox.json()) as { data: { recipient: string; subject: string; body: string }[] }).data;
  const invitation = mails.find((m) => m.recipient === PERSON.email);
  expect(invitation?.subject).toMatch(/Запрошення/);
  const link = new URL(/https?:\/\/\S+\/ResetPassword\?\S+/.exec(invitation!.body)![0]);
  await page.evaluate(() => localStorage.clear());
  await page.goto(link.pathname + link.search);
  await page.getByLabel('Новий пароль').fill(PERSON.password);
  await page.getByLabel('Повторіть пароль').fill(PERSON.password);
  await page.getByRole('button', { name: 'Зберегти пароль' }).click();
  await expect(page.getByRole('alert').getByText('Пароль змінено')).toBeVisible();

  // 4. Signed in as them: edit is offered, delete is not — in lists, on the detail page, in the menu.
  await signIn(page, PERSON);
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Додати' })).toBeVisible();
  await rows.first().getByRole('button', { name: 'Дії з записом' }).click();
  await expect(page.getByRole('menuitem', { name: 'Редагувати' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Видалити' })).toHaveCount(0);
  await screenshot(page, 'roles-no-delete');
  await page.keyboard.press('Escape');
  await rows.first().click();
  await expect(page).toHaveURL(/\/Complex\/\d+$/);
  const complexId = Number(new URL(page.url()).pathname.split('/').pop());
  await expect(page.getByRole('button', { name: 'Редагувати' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Видалити' })).toHaveCount(0);

  await page.goto('/Staff');
  await expect(page.locator('tbody tr').filter({ hasText: PERSON.email })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Додати' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Ролі працівників' })).toHaveCount(0);

  // 5. The API refuses the delete anyway.
  const token = await apiToken(page.request, PERSON);
  const refused = await page.request.delete(`/api/admin/complexes/${complexId}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { message: string }).message).toMatch(/Недостатньо прав/);
  const still = await page.request.get(`/api/admin/complexes/${complexId}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(still.status()).toBe(200);
});
