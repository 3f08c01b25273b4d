import { ADMIN, expect, screenshot, signIn, test } from './fixtures';

test.describe('Вхід і вихід', () => {
  test('вхід через /Login веде через /dashboard_old/complex туди, де робота (адміністратор демо — «Огляд»), меню й футер', async ({ page }) => {
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
    });

    await page.goto('/Login');
    await expect(page.getByRole('heading', { name: 'Вхід до адмін-панелі' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'uk');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
    await screenshot(page, 'login');

    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Пароль', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Увійти' }).click();

    // The demo's first steps are all done (server/seed.ts): its admin starts at the dashboard.
    // A clean install starts at «З чого почати?» (e2e/setup.spec.ts).
    await expect(page).toHaveURL(/\/dashboard$/i);
    expect(visited).toContain('/dashboard_old/complex');

    const nav = page.getByRole('navigation', { name: 'Головне меню' });
    await expect(nav.getByRole('link', { name: 'Огляд' })).toBeVisible();
    await nav.getByRole('button', { name: "Об'єкти нерухомості" }).click();
    await nav.getByRole('link', { name: 'Будинки' }).click();
    await expect(page).toHaveURL(/\/Complex$/i);
    await expect(page.getByTestId('header-title')).toHaveText('Житлові комплекси');

    const footer = page.locator('footer');
    await expect(footer.getByText('Зроблено в Україні')).toBeVisible();
    await expect(footer.getByTestId('footer-version')).toHaveText(/^Версія \S+ від \d{2}\.\d{2}\.\d{4}$/);

    await expect(page.locator('html')).toHaveAttribute('lang', 'uk');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
    await expect(page.getByRole('row').filter({ hasText: 'Липовий гай' })).toBeVisible();
    await screenshot(page, 'complexes-list');
  });

  test('вихід кнопкою «Вийти» очищає сесію, а /Complex після виходу веде на /login', async ({ page }) => {
    await signIn(page);
    // The selected complex must not outlive the session either.
    await page.evaluate(() => localStorage.setItem('selectedComplex', '1'));

    await page.getByRole('button', { name: 'Вийти', exact: true }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Увійти' })).toBeVisible();

    const keys = await page.evaluate(() => Object.keys(localStorage));
    expect(keys.filter((k) => k.startsWith('auth.'))).toEqual([]);
    expect(keys).not.toContain('selectedComplex');

    await page.goto('/Complex');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Увійти' })).toBeVisible();
  });

  test('невірний пароль показує «Невірний e-mail або пароль.»', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Пароль', { exact: true }).fill('wrong-password-123');
    await page.getByRole('button', { name: 'Увійти' }).click();
    await expect(page.getByText('Невірний e-mail або пароль.')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    const keys = await page.evaluate(() => Object.keys(localStorage));
    expect(keys.filter((k) => k.startsWith('auth.'))).toEqual([]);
    await screenshot(page, 'login-wrong-password');
  });

  test('увійшовши, користувач з /login повертається на сторінку, де був', async ({ page }) => {
    await signIn(page);
    const row = page.getByRole('row').filter({ hasText: 'Сонячна гавань' });
    await row.getByText('Сонячна гавань').click();
    await expect(page).toHaveURL(/\/Complex\/\d+$/);
    const complexUrl = page.url();
    await expect(page.getByTestId('header-title')).toHaveText('ЖК «Сонячна гавань»');

    await page.goto('/login');
    await expect(page).toHaveURL(complexUrl);
    await expect(page.getByTestId('header-title')).toHaveText('ЖК «Сонячна гавань»');
  });
});
