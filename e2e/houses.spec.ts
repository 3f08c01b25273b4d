import { expect, screenshot, signIn, test } from './fixtures';

test.describe('Будинки комплексу', () => {
  test('новий будинок з підказками міста й вулиці з’являється серед будинків комплексу', async ({ page }) => {
    await signIn(page);
    await page.locator('tbody tr').filter({ hasText: 'Липовий гай' }).getByRole('button', { name: 'Дії з записом' }).click();
    await page.getByRole('menuitem', { name: 'Відкрити' }).click();
    await expect(page).toHaveURL(/\/Complex\/\d+$/);
    const complexUrl = new URL(page.url()).pathname;

    await page.getByRole('link', { name: 'Будинки комплексу' }).click();
    await expect(page).toHaveURL(new RegExp(`${complexUrl}/houses$`));
    await expect(page.locator('tbody tr')).toHaveCount(3);

    await page.getByRole('button', { name: 'Новий будинок' }).click();
    const dialog = page.getByRole('dialog', { name: 'Новий будинок' });
    await expect(dialog).toBeVisible();

    // The city look-up is case-insensitive, ranks the city first and tells same-named places apart.
    await dialog.getByLabel('Населений пункт').fill('львів');
    const city = page.getByRole('option').first();
    await expect(city).toContainText('м. Львів');
    await expect(city).toContainText('Львівська обл.');
    await city.click();

    const street = dialog.getByLabel(/^Вулиця/);
    await expect(street).toBeEnabled();
    await street.fill('городоц');
    const streetOption = page
      .getByRole('option')
      .filter({ hasText: /Городоцька/ })
      .first();
    await expect(streetOption).toBeVisible();
    const streetName = (await streetOption.innerText()).split('\n')[0].trim();
    await streetOption.click();

    const number = `${Math.floor(Math.random() * 900) + 100}`;
    await dialog.getByLabel(/^Номер будинку/).fill(number);
    await dialog.getByLabel('Поверхів').fill('5');
    await screenshot(page, 'house-create-dialog');
    await dialog.getByRole('button', { name: 'Зберегти' }).click();

    await expect(page.getByRole('status').filter({ hasText: 'Будинок додано' })).toBeVisible();
    await expect(dialog).toBeHidden();
    const row = page.locator('tbody tr').filter({ hasText: `, ${number}` });
    await expect(row).toContainText('м. Львів');
    await expect(row).toContainText(streetName);
    await expect(page.locator('tbody tr')).toHaveCount(4);

    // The house is the complex's for real: a reload shows it, and the complex counts it.
    await page.reload();
    await expect(page.locator('tbody tr').filter({ hasText: `, ${number}` })).toBeVisible();
    await page.goto(complexUrl);
    await expect(page.getByTestId('count-houses')).toContainText('4');
  });

  test('вулицю, якої немає в довіднику, можна ввести — її додано разом з будинком', async ({ page }) => {
    await signIn(page);
    await page.locator('tbody tr').filter({ hasText: 'Липовий гай' }).getByRole('button', { name: 'Дії з записом' }).click();
    await page.getByRole('menuitem', { name: 'Відкрити' }).click();
    await page.getByRole('link', { name: 'Будинки комплексу' }).click();
    await page.getByRole('button', { name: 'Новий будинок' }).click();
    const dialog = page.getByRole('dialog', { name: 'Новий будинок' });

    // Apostrophe variants find the same place: ' typed, ’ stored.
    await dialog.getByLabel('Населений пункт').fill("кам'янець-под");
    const city = page.getByRole('option').filter({ hasText: 'м. Кам’янець-Подільський' });
    await expect(city).toContainText('Хмельницька обл.');
    await city.click();
    const streetName = `Липнева ${Date.now().toString(36)}`;
    await dialog.getByLabel(/^Вулиця/).fill(streetName);
    await dialog.getByLabel(/^Номер будинку/).fill('7');
    await dialog.getByRole('button', { name: 'Зберегти' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Будинок додано' })).toBeVisible();
    await expect(page.locator('tbody tr').filter({ hasText: streetName })).toContainText('м. Кам’янець-Подільський');

    // The new street is now in the look-up for that city.
    await page.getByRole('button', { name: 'Новий будинок' }).click();
    await dialog.getByLabel('Населений пункт').fill('Кам’янець-Под');
    await page.getByRole('option').filter({ hasText: 'м. Кам’янець-Подільський' }).click();
    await dialog.getByLabel(/^Вулиця/).fill(streetName.slice(0, 10));
    await expect(page.getByRole('option').filter({ hasText: streetName })).toBeVisible();
  });
});
