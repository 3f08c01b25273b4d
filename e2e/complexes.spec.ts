import type { Page } from '@playwright/test';
import { expect, formatToday, screenshot, signIn, test } from './fixtures';

const rows = (page: Page) => page.locator('tbody tr');
const rowOf = (page: Page, text: string) => rows(page).filter({ hasText: text });

async function rowAction(page: Page, rowText: string, action: 'Відкрити' | 'Редагувати' | 'Видалити') {
  await rowOf(page, rowText).getByRole('button', { name: 'Дії з записом' }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

async function addComplex(page: Page, c: { name: string; city: string; address?: string }) {
  await page.getByRole('button', { name: 'Додати' }).click();
  const dialog = page.getByRole('dialog', { name: 'Новий комплекс' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Назва').fill(c.name);
  await dialog.getByLabel('Місто').fill(c.city);
  if (c.address) await dialog.getByLabel('Адреса').fill(c.address);
  await dialog.getByRole('button', { name: 'Зберегти' }).click();
  return dialog;
}

/** A name no other test in this file uses. */
const unique = (label: string) => `ЖК «${label} ${Date.now().toString(36)}»`;

test.describe('Житлові комплекси (адміністратор)', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
    await expect(rowOf(page, 'Липовий гай')).toBeVisible();
  });

  test('додавання: тост про успіх і новий комплекс у списку', async ({ page }) => {
    const name = unique('Нова Оселя');
    await page.getByRole('button', { name: 'Додати' }).click();
    const dialog = page.getByRole('dialog', { name: 'Новий комплекс' });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Назва').fill(name);
    await dialog.getByLabel('Місто').fill('Вінниця');
    await dialog.getByLabel('Адреса').fill('вул. Соборна, 1');
    await screenshot(page, 'complex-create-dialog');
    await dialog.getByRole('button', { name: 'Зберегти' }).click();

    await expect(page.getByRole('status').filter({ hasText: 'Комплекс додано' })).toBeVisible();
    await expect(dialog).toBeHidden();
    const row = rowOf(page, name);
    await expect(row).toBeVisible();
    await expect(row).toContainText('Вінниця');
    await expect(row).toContainText('вул. Соборна, 1');
  });

  test('відкриття через меню рядка показує поля, а стрілка «Назад» повертає до списку', async ({ page }) => {
    const name = unique('Відкритий');
    await addComplex(page, { name, city: 'Полтава', address: 'вул. Європейська, 7' });
    await expect(rowOf(page, name)).toBeVisible();

    await rowAction(page, name, 'Відкрити');
    await expect(page).toHaveURL(/\/Complex\/\d+$/);
    await expect(page.getByTestId('header-title')).toHaveText(name);
    const main = page.locator('main');
    await expect(main.getByText(name, { exact: true })).toBeVisible();
    await expect(main.getByText('Полтава', { exact: true })).toBeVisible();
    await expect(main.getByText('вул. Європейська, 7', { exact: true })).toBeVisible();
    await expect(main.getByText(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/).first()).toBeVisible();
    await screenshot(page, 'complex-show');

    await page.getByRole('link', { name: 'Назад' }).click();
    await expect(page).toHaveURL(/\/Complex$/);
    await expect(page.getByTestId('header-title')).toHaveText('Житлові комплекси');
    await expect(rowOf(page, name)).toBeVisible();
  });

  test('редагування через меню рядка: змінене значення видно у списку', async ({ page }) => {
    const name = unique('Редагований');
    await addComplex(page, { name, city: 'Суми' });
    await expect(rowOf(page, name)).toContainText('Суми');

    await rowAction(page, name, 'Редагувати');
    const dialog = page.getByRole('dialog', { name: 'Редагування комплексу' });
    await expect(dialog.getByLabel('Назва')).toHaveValue(name);
    await dialog.getByLabel('Місто').fill('Чернігів');
    await dialog.getByRole('button', { name: 'Зберегти' }).click();

    await expect(page.getByRole('status').filter({ hasText: 'Зміни збережено' })).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(rowOf(page, name)).toContainText('Чернігів');
    await expect(rowOf(page, name)).not.toContainText('Суми');
  });

  test('видалення через меню рядка з підтвердженням', async ({ page }) => {
    const name = unique('Видалений');
    await addComplex(page, { name, city: 'Ужгород' });
    await expect(rowOf(page, name)).toBeVisible();

    await rowAction(page, name, 'Видалити');
    const confirm = page.getByRole('dialog', { name: `Видалити «${name}»?` });
    await expect(confirm).toBeVisible();
    await expect(confirm).toContainText('Цю дію не можна скасувати.');
    await screenshot(page, 'complex-delete-confirm');
    await confirm.getByRole('button', { name: 'Видалити' }).click();

    await expect(confirm).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: 'Комплекс видалено' })).toBeVisible();
    await expect(rowOf(page, name)).toHaveCount(0);
    await expect(rowOf(page, 'Липовий гай')).toBeVisible();
  });

  test('дубль назви: помилка сервера під полем «Назва»', async ({ page }) => {
    const dialog = await addComplex(page, { name: 'ЖК «Липовий гай»', city: 'Київ' });
    const error = dialog.getByText('Комплекс з такою назвою вже існує.');
    await expect(error).toBeVisible();
    // The message is the helper text of the name field.
    const nameField = dialog.locator('.MuiFormControl-root').filter({ has: page.getByLabel('Назва') });
    await expect(nameField).toContainText('Комплекс з такою назвою вже існує.');
    await expect(dialog).toBeVisible();
    await screenshot(page, 'complex-duplicate-name');
  });

  test('дати у списку у форматі ДД.ММ.РРРР', async ({ page }) => {
    const headers = await page.locator('thead th').allInnerTexts();
    const col = headers.findIndex((h) => h.trim() === 'Створено');
    expect(col, `columns: ${JSON.stringify(headers)}`).toBeGreaterThanOrEqual(0);
    const cells = rows(page).locator(`td:nth-child(${col + 1})`);
    // Other tests of this file add complexes to the same database: at least the 5 demo ones.
    await expect(cells.nth(4)).toBeVisible();
    for (const text of await cells.allInnerTexts()) expect(text.trim()).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);

    const today = formatToday();
    const yesterday = formatToday(new Date(Date.now() - 86_400_000));
    const first = (await cells.first().innerText()).trim();
    expect([today, yesterday]).toContain(first);
  });

  test('пошук звужує список', async ({ page }) => {
    await expect(rows(page).nth(4)).toBeVisible();
    await page.getByPlaceholder('Пошук за назвою, містом, адресою').fill('Львів');
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText('Сонячна гавань');
    await expect(page).toHaveURL(/Complex\?.*filter=/);

    await page.getByPlaceholder('Пошук за назвою, містом, адресою').fill('Набережна');
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText('Дніпровські вогні');
  });
});
