import { expect, openMenuItem, screenshot, signIn, test } from './fixtures';

/** Records one resident's answers through the dialog: the first resident who has not answered yet; returns their unit. */
async function recordAnswers(page: import('@playwright/test').Page, choice: string, score: string, channel: string) {
  await page.getByTestId('record-answer').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('combobox', { name: 'Мешканець' }).click();
  const option = page.getByRole('option').first();
  await expect(option).toBeVisible();
  // Namesakes exist: the resident is told apart by the unit, the last part of the caption.
  const caption = (await option.locator('span').last().textContent())!;
  const unit = caption.split(' · ').pop()!;
  await option.click();
  await dialog.getByRole('combobox', { name: /^Як отримано відповіді/ }).click();
  await page.getByRole('option', { name: channel }).click();
  await dialog.getByTestId('record-question-1').getByLabel(choice).check();
  await dialog.getByTestId('record-question-2').getByLabel(score, { exact: true }).check();
  await dialog.getByRole('button', { name: 'Зберегти' }).click();
  await expect(page.getByText('Відповіді записано').last()).toBeVisible();
  await expect(dialog).toBeHidden();
  return unit;
}

test('опитування: два питання, відповіді двох мешканців, відсотки й список адресатів', async ({ page }) => {
  await signIn(page);
  await openMenuItem(page, 'Спільнота', 'Опитування', /\/interview$/i);
  // The address changes at once; the previous screen (with a «Додати» of its own) stays until the surveys' screen has loaded.
  await expect(page.getByRole('columnheader', { name: 'Відповіді' })).toBeVisible();

  // Create a survey with a single-choice question and a 1–5 scale.
  await page.getByRole('button', { name: 'Додати' }).first().click();
  await expect(page).toHaveURL(/\/Interview\/create$/);
  await page.getByRole('textbox', { name: 'Назва' }).fill('Чи потрібен шлагбаум');
  await page.getByLabel('Текст питання').first().fill('Встановити шлагбаум на в’їзді у двір?');
  await page
    .getByRole('textbox', { name: /^Варіант/ })
    .nth(0)
    .fill('Так');
  await page
    .getByRole('textbox', { name: /^Варіант/ })
    .nth(1)
    .fill('Ні');
  await page.getByRole('button', { name: 'Додати питання' }).click();
  await page.getByLabel('Текст питання').nth(1).fill('Оцініть паркування у дворі');
  await page
    .getByRole('combobox', { name: /^Тип відповіді/ })
    .nth(1)
    .click();
  await page.getByRole('option', { name: 'Шкала' }).click();
  await page.getByRole('combobox', { name: /^Шкала/ }).click();
  await page.getByRole('option', { name: 'від 1 до 5' }).click();
  await page.getByRole('button', { name: 'Зберегти' }).click();
  await expect(page).toHaveURL(/\/Interview\/\d+$/);
  const id = /\/Interview\/(\d+)$/.exec(page.url())![1];
  await expect(page.getByTestId('question-1')).toContainText('Встановити шлагбаум на в’їзді у двір?');
  await expect(page.getByTestId('responses')).toContainText('0 з ');

  // Two residents answer by phone and on paper.
  const first = await recordAnswers(page, 'Так', '5', 'Телефоном');
  const second = await recordAnswers(page, 'Ні', '3', 'Паперова анкета');
  expect(first).not.toBe(second);
  await expect(page.getByTestId('result-1-Так')).toContainText('1 (50 %)');
  await expect(page.getByTestId('result-1-Ні')).toContainText('1 (50 %)');
  await expect(page.getByTestId('result-2-5')).toContainText('1 (50 %)');
  await expect(page.getByTestId('result-2-3')).toContainText('1 (50 %)');
  await expect(page.getByTestId('question-2')).toContainText('Середня оцінка: 4');
  await expect(page.getByTestId('responses')).toContainText('2 з ');
  await screenshot(page, 'interview-show');

  // Who answered, and how.
  await page.getByRole('button', { name: 'Адресати' }).click();
  await expect(page).toHaveURL(new RegExp(`/Interview/${id}/users$`));
  await expect(page.getByTestId('tab-answered')).toContainText('Відповіли (2)');
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: first })).toContainText('Телефоном');
  await expect(rows.filter({ hasText: second })).toContainText('Паперова анкета');
  await page.getByTestId('tab-not_answered').click();
  await expect(rows.filter({ hasText: first })).toHaveCount(0);
  await screenshot(page, 'interview-users');
});
