import path from 'node:path';
import os from 'node:os';
import fs from 'node:fs';
import type { APIRequestContext, Browser } from '@playwright/test';
import { apiToken, expect, openMenuItem, screenshot, signIn, test } from './fixtures';

/** A minimal PDF: the scan of a signed paper sheet. */
function sheetFile(): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'voting-e2e-')), 'листок.pdf');
  fs.writeFileSync(file, '%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
  return file;
}

async function latestCode(request: APIRequestContext, token: string, recipient: string) {
  const res = await request.get('/api/admin/outbox?per_page=20', { headers: { Authorization: `Bearer ${token}` } });
  const { data } = (await res.json()) as { data: { recipient: string; body: string }[] };
  const message = data.find((m) => m.recipient === recipient);
  return /(\d{6})/.exec(message!.body)![1];
}

/** A co-owner opens the link on a phone, gets a code by e-mail and votes «за» on both questions. */
async function voteThroughLink(browser: Browser, baseURL: string, linkPath: string, email: string, request: APIRequestContext, token: string) {
  const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(linkPath);
  await expect(page.getByRole('heading', { name: 'Схвалити кошторис і ремонт ліфтів' })).toBeVisible();
  await page.getByLabel('Телефон або e-mail').fill(email);
  await page.getByRole('button', { name: 'Отримати код' }).click();
  await page.getByLabel('Код з повідомлення').fill(await latestCode(request, token, email));
  await page.getByRole('button', { name: 'Підтвердити' }).click();
  await expect(page.getByText('Вас ідентифіковано кодом з e-mail')).toBeVisible();
  for (const n of [1, 2]) await page.getByTestId(`vote-question-${n}`).getByRole('button', { name: 'За' }).click();
  await page.getByRole('button', { name: 'Проголосувати' }).click();
  await expect(page.getByTestId('vote-done')).toBeVisible();
  await expect(page.getByTestId('vote-question-1')).toContainText('Ви вже проголосували електронно');
  await screenshot(page, 'voting-link-voted');
  await context.close();
}

test('збори: два питання, голоси двох співвласників за посиланням, паперовий листок третього, підсумки й протокол', async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  await signIn(page);
  await openMenuItem(page, 'Спільнота', 'Загальні збори', /\/voting$/i);

  // Create the meeting with two questions (once the list has come: its «Додати» is then the toolbar's).
  await expect(page.getByRole('row').filter({ hasText: 'Кошторис на 2026 рік' })).toBeVisible();
  await page.getByRole('button', { name: 'Додати' }).first().click();
  await expect(page).toHaveURL(/\/Voting\/create$/);
  await page.getByRole('textbox', { name: 'Назва зборів' }).fill('Схвалити кошторис і ремонт ліфтів');
  await page.getByLabel('Будинок').click();
  await page.getByRole('option', { name: /Липова, 12, секція 1/ }).click();
  await page.getByLabel('Ініціатор').fill('Правління ОСББ «Липовий гай»');
  await page.getByLabel('Місце проведення').fill('Хол першого під’їзду');
  await page.getByLabel('Рішення (як його буде записано)').first().fill('Затвердити кошторис ОСББ на 2027 рік.');
  await page.getByRole('button', { name: 'Додати питання' }).click();
  await page.getByLabel('Рішення (як його буде записано)').nth(1).fill('Замінити ліфт у першому під’їзді за рахунок ремонтного фонду.');
  await page.getByLabel('Поріг').nth(1).click();
  await page.getByRole('option', { name: 'Більше 75 %' }).click();
  await page.getByRole('button', { name: 'Зберегти' }).click();
  await expect(page).toHaveURL(/\/Voting\/\d+$/);
  const votingId = Number(/\/Voting\/(\d+)$/.exec(page.url())![1]);
  await expect(page.getByTestId('question-1')).toContainText('Затвердити кошторис ОСББ на 2027 рік.');
  await expect(page.getByTestId('question-2')).toContainText('більше 75 % голосів усіх співвласників');

  // Two co-owners with e-mail vote through the link.
  const link = await page.getByTestId('deeplink').inputValue();
  expect(link).toMatch(/\/Vote\/[A-Za-z0-9_-]+$/);
  const linkPath = new URL(link).pathname;
  const token = await apiToken(request);
  const residents = await request.get(`/api/admin/voting/${votingId}/residents?per_page=100`, { headers: { Authorization: `Bearer ${token}` } });
  const people = ((await residents.json()) as { data: { id: number; name: string; email: string | null }[] }).data;
  const withEmail = people.filter((p) => p.email);
  expect(withEmail.length).toBeGreaterThanOrEqual(3);
  await voteThroughLink(browser, baseURL!, linkPath, withEmail[0].email!, request, token);
  await voteThroughLink(browser, baseURL!, linkPath, withEmail[1].email!, request, token);

  // The third co-owner's paper sheet: «проти» on both, with the scan.
  await page.getByRole('button', { name: /Співвласники й бюлетені/ }).click();
  await expect(page).toHaveURL(new RegExp(`/Voting/${votingId}/participants$`));
  const third = withEmail[2];
  await page.getByTestId(`sheet-${third.id}`).click();
  await page.getByTestId('sheet-file').setInputFiles(sheetFile());
  await page.getByTestId('sheet-1-against').click();
  await page.getByTestId('sheet-2-against').click();
  await page.getByRole('button', { name: 'Зберегти' }).click();
  await expect(page.getByText('Листок записано')).toBeVisible();
  await expect(page.getByTestId(`participant-${third.id}`)).toContainText('Проголосував');
  await page.getByTestId('filter-voted').click();
  await expect(page.locator('tbody tr')).toHaveCount(3);
  await screenshot(page, 'voting-participants');

  // The tallies on the meeting page, and the protocol.
  await page.goto(`/Voting/${votingId}`);
  await expect(page.getByTestId('tally-1-for')).toContainText('2 співвласники ·');
  await expect(page.getByTestId('tally-1-against')).toContainText('1 співвласник ·');
  await expect(page.getByTestId('tally-2-against')).toContainText('1 співвласник ·');
  await screenshot(page, 'voting-show');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Завантажити протокол' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/Протокол зборів .*\.pdf$/);
  const saved = await download.path();
  expect(fs.readFileSync(saved!).subarray(0, 5).toString()).toBe('%PDF-');
});
