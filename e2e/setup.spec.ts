import { ADMIN, apiToken, expect, screenshot, test } from './fixtures';

/** «З чого почати?» on a clean install (SEED_DEMO=0: the admin and nothing else). */
test.use({ seed: 'clean' });

test('чиста установка: «З чого почати?» з кроком ролей, «До будинків» до будинків комплексу, перша роль і запрошення', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(ADMIN.email);
  await page.getByLabel('Пароль', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Увійти' }).click();
  // A clean install: the admin's work starts at the checklist.
  await expect(page).toHaveURL(/\/setup$/i);
  await expect(page.getByTestId('setup-progress')).toHaveText('0/7');

  // The step list names the staff roles, right before the invitation that needs one.
  const steps = page.locator('[data-testid^="setup-step-"]');
  await expect(steps).toHaveCount(7);
  await expect(steps.nth(3)).toHaveAttribute('data-testid', 'setup-step-staff_roles');
  await expect(steps.nth(3)).toContainText('Створіть ролі працівників');
  await expect(steps.nth(4)).toHaveAttribute('data-testid', 'setup-step-staff');

  // No complex yet: the houses step asks for one first.
  const houses = page.getByTestId('setup-step-houses');
  await expect(houses.getByRole('link', { name: 'Спершу додайте комплекс' })).toHaveAttribute('href', '/Complex');

  // No role yet: the invitation offers to create the first one, not an empty role select.
  const invite = page.getByTestId('setup-step-staff');
  await expect(invite.getByTestId('setup-first-role')).toBeVisible();
  await expect(invite.getByRole('combobox', { name: /^Роль/ })).toHaveCount(0);
  await expect(invite.getByRole('button', { name: 'Надіслати запрошення' })).toHaveCount(0);
  await screenshot(page, 'setup-clean');

  // A complex, made elsewhere: «До будинків» now opens its houses.
  const token = await apiToken(page.request);
  const created = await page.request.post('/api/admin/complexes', {
    headers: { authorization: `Bearer ${token}` },
    data: { name: 'ЖК «Тестовий»', city: 'Київ', address: 'вул. Тестова, 1' },
  });
  expect(created.status(), await created.text()).toBe(200);
  const complexId = ((await created.json()) as { main_data: { id: number } }).main_data.id;
  await page.reload();
  await houses.getByRole('link', { name: 'До будинків' }).click();
  await expect(page).toHaveURL(new RegExp(`/Complex/${complexId}/houses$`, 'i'));
  await expect(page.getByTestId('header-title')).toHaveText('ЖК «Тестовий»: Будинки');
  await page.goBack();
  await expect(page).toHaveURL(/\/setup$/i);

  // The first role, from a preset, right in the step; then it is the one offered.
  await invite.getByLabel('Назва ролі').fill('Диспетчерка');
  await invite.getByRole('button', { name: 'Створити роль' }).click();
  await expect(page.getByText('Роль «Диспетчерка» створено')).toBeVisible();
  await expect(page.getByTestId('setup-step-staff_roles')).toHaveAttribute('data-done', 'yes');
  await expect(invite.getByTestId('setup-first-role')).toHaveCount(0);
  const role = invite.getByRole('combobox', { name: /^Роль/ });
  await expect(role).toHaveText('Диспетчерка');
  await role.click();
  await expect(page.getByRole('option')).toHaveText(['Диспетчерка']);
  await page.keyboard.press('Escape');
  await expect(invite.getByRole('combobox', { name: /^Комплекси/ })).toHaveText('Усі комплекси');

  await invite.getByLabel("Ім'я").fill('Ірина Шевчук');
  await invite.getByLabel('E-mail').fill('iryna.shevchuk@test.ua');
  await invite.getByRole('button', { name: 'Надіслати запрошення' }).click();
  await expect(page.getByText('Запрошення надіслано на iryna.shevchuk@test.ua')).toBeVisible();
  await expect(invite).toHaveAttribute('data-done', 'yes');
  await expect(page.getByTestId('setup-progress')).toHaveText('3/7');
  await screenshot(page, 'setup-invited');

  // The colleague works in the complex and has the new role.
  const staff = await page.request.get('/api/admin/staff?search_query=iryna', { headers: { authorization: `Bearer ${token}` } });
  const [colleague] = ((await staff.json()) as { data: { data: { role: string; complex_ids: number[] }[] } }).data.data;
  expect(colleague).toMatchObject({ role: 'Диспетчерка', complex_ids: [complexId] });
});
