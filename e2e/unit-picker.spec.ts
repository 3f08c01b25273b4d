import type { Locator, Page } from '@playwright/test';
import { expect, screenshot, signIn, test } from './fixtures';

/** The options the open unit picker offers, once the answer to what was typed has come. */
async function options(page: Page, first: RegExp) {
  const listbox = page.getByRole('listbox');
  await expect(listbox.getByRole('option').first()).toHaveText(first);
  return listbox.getByRole('option').allTextContents();
}

async function typeInto(picker: Locator, text: string) {
  await picker.fill('');
  await picker.pressSequentially(text, { delay: 20 });
}

test('прив’язка мешканця до приміщення: підписи з видом приміщення, лише обраний комплекс, пошук за адресою', async ({ page }) => {
  await signIn(page);
  await page.goto('/Members');
  await page.getByRole('link').filter({ hasText: /\S/ }).and(page.locator('main table a')).first().click();
  await expect(page).toHaveURL(/\/Members\/\d+$/i);
  await page.getByRole('tab', { name: 'Ролі' }).click();
  await page.getByRole('button', { name: "Пов'язати з приміщенням" }).click();
  const dialog = page.getByRole('dialog');

  // The header's complex, shown in the picker and changeable there.
  await expect(dialog.getByTestId('unit-complex').getByRole('combobox')).toHaveText('ЖК «Липовий гай»');
  const picker = dialog.getByRole('combobox', { name: 'Приміщення' });
  await picker.click();
  const all = await options(page, /^(кв\.|паркомісце|комора) \S+, вул\. Липова, 12, секція \d$/);
  // Only this complex's units, each named by its kind.
  for (const text of all) expect(text).toMatch(/^(кв\.|паркомісце|комора) \S+, вул\. Липова, 12, секція \d$/);
  await expect(dialog.getByText('Пошук за номером, вулицею чи будинком, напр. «кв. 12 Липова»')).toBeVisible();

  // Searched on the server by the words of a label: kind, number, street, section.
  await typeInto(picker, 'паркомісце 3');
  for (const text of await options(page, /^паркомісце 3, /)) expect(text).toMatch(/^паркомісце \d*3\d*, вул\. Липова, 12, секція 1$/);
  // In any order, with the street.
  await typeInto(picker, 'Липова кв. 5');
  for (const text of await options(page, /^кв\. 5, /)) expect(text).toMatch(/^кв\. \d*5\d*, вул\. Липова, 12, секція \d$/);
  await screenshot(page, 'unit-picker-search');

  // Another complex of the user's: its units only.
  await dialog.getByTestId('unit-complex').getByRole('combobox').click();
  await page.getByRole('option', { name: 'ЖК «Сонячна гавань»' }).click();
  await typeInto(picker, 'комора 2');
  // (The reference has this street without a type word.)
  const stryiska = await options(page, /^комора 2, Стрийська, 45$/);
  for (const text of stryiska) expect(text).toMatch(/^комора \d*2\d*, Стрийська, 45$/);
  await page.getByRole('option', { name: 'комора 2, Стрийська, 45', exact: true }).click();
  await expect(picker).toHaveValue('комора 2, Стрийська, 45');
  await screenshot(page, 'unit-picker-chosen');
});

test('нова заявка: приміщення будинку з видом і номером, пошук за номером', async ({ page }) => {
  await signIn(page);
  await page.goto('/Requests/create');
  const house = page.getByRole('combobox', { name: /^Адреса/ });
  await house.click();
  await page
    .getByRole('option', { name: /Липова, 12, секція 1$/ })
    .first()
    .click();
  const unit = page.getByRole('combobox', { name: 'Приміщення' });
  await unit.click();
  await expect(page.getByRole('option', { name: 'кв. 1', exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: 'паркомісце 1', exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: 'комора 1', exact: true })).toBeVisible();
  await unit.fill('комора 1');
  const found = await page.getByRole('option').allTextContents();
  expect(found.length).toBeGreaterThan(0);
  for (const text of found) expect(text).toMatch(/^комора 1\d*$/);
  await page.getByRole('option', { name: 'комора 12', exact: true }).click();
  await expect(unit).toHaveValue('комора 12');
  await screenshot(page, 'request-create-unit');
});
