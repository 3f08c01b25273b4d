import type { APIRequestContext, Page } from '@playwright/test';
import { apiToken, expect, openMenuItem, screenshot, signIn, test } from './fixtures';

async function openRequests(page: Page) {
  await openMenuItem(page, 'Заявки', 'Перелік заявок', /\/requests$/i);
  await expect(page.getByTestId('header-title')).toHaveText('Перелік заявок');
}

/** Moves a request through the confirmation dialog of a stage action. */
async function move(page: Page, action: string, expected: string, performer?: string) {
  await page.getByRole('button', { name: action }).click();
  const dialog = page.getByRole('dialog');
  if (performer) {
    await dialog.getByRole('combobox', { name: 'Виконавець' }).click();
    await page.getByRole('option', { name: performer }).click();
  }
  await dialog.getByLabel('Коментар (необов’язково)').fill(`Етап: ${expected}`);
  await dialog.getByRole('button', { name: 'Підтвердити' }).click();
  await expect(page.getByTestId('request-stage')).toHaveText(expected);
}

/** A request with the engineer as performer, already with the executor, made through the API. */
async function requestWithPerformer(request: APIRequestContext, text: string) {
  const token = await apiToken(request);
  const headers = { authorization: `Bearer ${token}` };
  const form = (await (await request.get('/api/admin/service_request/form', { headers })).json()).form;
  const type = form.types.find((t: { name: string }) => t.name === 'Сантехніка');
  const engineer = form.performer.find((s: { name: string }) => s.name === 'Андрій Мельник');
  const house = form.address.find((h: { complex_id: number | null }) => engineer.complex_ids === null || engineer.complex_ids.includes(h.complex_id));
  const created = await request.post('/api/admin/service_request', {
    headers,
    data: { type_id: type.id, house_id: house.id, text, performer_id: engineer.id },
  });
  expect(created.status(), await created.text()).toBe(200);
  const id = (await created.json()).data.id as number;
  for (const stage of ['underReview', 'executor']) {
    const res = await request.put(`/api/admin/service_request/${id}`, { headers, data: { stage } });
    expect(res.status(), await res.text()).toBe(200);
  }
  return id;
}

/** A request of a resident with the resident's own words in the resident chat (recorded through the API), made through the API. */
async function requestWithResidentWords(request: APIRequestContext, text: string, words: string) {
  const token = await apiToken(request);
  const headers = { authorization: `Bearer ${token}` };
  const form = (await (await request.get('/api/admin/service_request/form', { headers })).json()).form;
  const type = form.types.find((t: { name: string }) => t.name === 'Сантехніка');
  const house = form.address[0];
  const people = (await (await request.get(`/api/admin/service_request/form?house_id=${house.id}`, { headers })).json()).form.residents;
  const created = await request.post('/api/admin/service_request', {
    headers,
    data: { type_id: type.id, house_id: house.id, realty_id: people[0].realty_id, member_id: people[0].id, text },
  });
  expect(created.status(), await created.text()).toBe(200);
  const id = (await created.json()).data.id as number;
  const said = await request.post(`/api/admin/service_request/chat/${id}`, {
    headers,
    multipart: { chat_type: 'member_chat', message: words, from_resident: '1' },
  });
  expect(said.status(), await said.text()).toBe(200);
  return id;
}

const STAFF_COMPOSER = 'Внутрішнє повідомлення працівникам';
const RESIDENT_COMPOSER = 'Повідомлення мешканцю (мешканець прочитає)';

/** The composer is a multi-line field about as wide as its chat panel. */
async function expectWideComposer(page: Page, chat: 'staff_chat' | 'member_chat', name: string) {
  const field = page.getByTestId(chat).getByRole('textbox', { name, exact: true });
  await expect(field).toBeVisible();
  expect(await field.evaluate((el) => el.tagName)).toBe('TEXTAREA');
  const panel = await page.getByTestId(chat).boundingBox();
  const box = await field.boundingBox();
  expect(box!.width).toBeGreaterThan(panel!.width * 0.8);
  expect(box!.height).toBeGreaterThan(50);
}

test.describe('Заявки', () => {
  test('заявка мешканця проходить етапи нова → на розгляді → у виконавця → виконана', async ({ page }) => {
    await signIn(page);
    await openRequests(page);
    await page.getByRole('link', { name: 'Нова заявка' }).click();
    await expect(page.getByTestId('header-title')).toHaveText('Нова заявка');

    const text = `Тече батарея в спальні ${Date.now()}`;
    await page.getByRole('combobox', { name: 'Тип заявки' }).click();
    await page.getByRole('option', { name: 'Сантехніка' }).click();
    await page.getByRole('combobox', { name: 'Адреса' }).click();
    await page.getByRole('option').first().click();
    await page.getByRole('combobox', { name: 'Приміщення' }).click();
    await page.getByRole('option', { name: 'кв. 1', exact: true }).click();
    // The unit's resident is chosen with it.
    await expect(page.getByRole('combobox', { name: 'Мешканець' })).not.toHaveText('—');
    await page.getByLabel('Опис проблеми').fill(text);
    await page.getByRole('button', { name: 'Зберегти' }).click();

    await expect(page).toHaveURL(/\/Requests\/\d+$/);
    await expect(page.getByTestId('request-stage')).toHaveText('Нова');
    await expect(page.getByText(text)).toBeVisible();
    // Only the allowed move is offered.
    await expect(page.getByRole('button', { name: 'Позначити виконаною' })).toHaveCount(0);

    await move(page, 'Взяти на розгляд', 'На розгляді');
    await move(page, 'Передати виконавцю', 'У виконавця', 'Андрій Мельник');
    await move(page, 'Позначити виконаною', 'Виконана');
    await expect(page.getByRole('button', { name: 'Повернути на розгляд' })).toBeVisible();

    const history = page.getByTestId('request-history');
    await expect(history).toContainText('Адміністратор: Нова → На розгляді');
    await expect(history).toContainText('Адміністратор: На розгляді → У виконавця');
    await expect(history).toContainText('Адміністратор: У виконавця → Виконана');
    await expect(history).toContainText('Етап: Виконана');
    await screenshot(page, 'requests-done');

    await page.getByRole('link', { name: 'Назад' }).click();
    await expect(page).toHaveURL(/\/Requests$/i);
    await page.getByRole('textbox', { name: /Пошук/ }).fill(text);
    const row = page.locator('tbody tr').filter({ hasText: text });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Виконана');
  });

  test('повідомлення з /Chat/{token} в іншому браузері з’являється у відкритій заявці без перезавантаження', async ({ page, browser, request, baseURL }) => {
    const text = `Ліфт не приїжджає ${Date.now()}`;
    const id = await requestWithPerformer(request, text);
    await signIn(page);
    await page.goto(`/Requests/${id}`);
    await expect(page.getByTestId('request-stage')).toHaveText('У виконавця');

    await page.getByRole('button', { name: 'Створити посилання' }).click();
    const url = await page.getByTestId('chat-link-url').inputValue();
    expect(url).toMatch(/\/Chat\/[A-Za-z0-9_-]{40,}$/);

    const performer = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL });
    const phone = await performer.newPage();
    await phone.goto(new URL(url).pathname);
    await expect(phone.getByText(text)).toBeVisible();
    const message = `Буду о 15:00, потрібен доступ до машинного відділення ${Date.now()}`;
    await phone.getByRole('textbox', { name: 'Повідомлення…' }).fill(message);
    await phone.getByRole('button', { name: 'Надіслати' }).click();
    await expect(phone.getByText(message)).toBeVisible();
    await screenshot(phone, 'requests-link-chat');

    // The admin's page was not reloaded: the live stream brings the message into the staff chat.
    await expect(page.getByTestId('staff_chat').getByText(message)).toBeVisible({ timeout: 5000 });
    await expect(page.getByTestId('staff_chat')).toContainText('за посиланням');

    // The performer marks the work done: the open page shows it at once, and the admin who sent the link is notified.
    const unread = async () => Number((await page.getByTestId('notifications-badge').textContent())?.replace(/\D/g, '') || 0);
    const before = await unread();
    await phone.getByRole('button', { name: 'Роботу виконано' }).click();
    await phone.getByRole('dialog').getByRole('button', { name: 'Роботу виконано' }).click();
    await expect(phone.getByTestId('link-chat-stage')).toHaveText('Виконана');
    await expect(page.getByTestId('request-stage')).toHaveText('Виконана', { timeout: 5000 });
    await expect.poll(unread, { timeout: 5000 }).toBe(before + 1);
    await page.getByRole('button', { name: /^Сповіщення/ }).click();
    await expect(page.getByRole('list', { name: 'Сповіщення' }).getByRole('button').first()).toContainText(
      'Андрій Мельник позначив(ла) роботу виконаною за посиланням',
    );
    await page.keyboard.press('Escape');

    // A revoked link shows the error state.
    await page.getByRole('button', { name: 'Відкликати' }).click();
    await phone.reload();
    await expect(phone.getByTestId('chat-error')).toContainText('Посилання на чат недійсне');
    await performer.close();
  });

  test('два різні поля: внутрішній чат і чат з мешканцем; слова мешканця не змінити й не видалити', async ({ page, request }) => {
    const words = `Мешканка телефонувала: вода капає зі стелі ${Date.now()}`;
    const id = await requestWithResidentWords(request, `Протікає стеля у ванній ${Date.now()}`, words);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page);
    await page.goto(`/Requests/${id}`);
    await expect(page.getByTestId('request-stage')).toHaveText('Нова');

    // Each chat says who reads it, and its composer has its own name.
    await expect(page.getByTestId('staff_chat-audience')).toHaveText('Внутрішній: бачать лише працівники й виконавець. Мешканець — ні.');
    await expect(page.getByTestId('member_chat-audience')).toHaveText('Мешканець бачить кожне повідомлення цього чату.');
    await expectWideComposer(page, 'staff_chat', STAFF_COMPOSER);
    await expectWideComposer(page, 'member_chat', RESIDENT_COMPOSER);
    await expect(page.getByRole('textbox', { name: STAFF_COMPOSER, exact: true })).toHaveCount(1);
    await expect(page.getByRole('textbox', { name: RESIDENT_COMPOSER, exact: true })).toHaveCount(1);

    // A note to colleagues lands in the staff chat only, a reply to the resident in theirs only.
    const note = `Потрібен ключ від технічного поверху ${Date.now()}`;
    await page.getByRole('textbox', { name: STAFF_COMPOSER, exact: true }).fill(note);
    await page.getByRole('button', { name: 'Надіслати працівникам' }).click();
    await expect(page.getByTestId('staff_chat').getByText(note)).toBeVisible();
    const reply = `Майстер прийде завтра о 10:00 ${Date.now()}`;
    await page.getByRole('textbox', { name: RESIDENT_COMPOSER, exact: true }).fill(reply);
    await page.getByRole('button', { name: 'Надіслати мешканцю' }).click();
    await expect(page.getByTestId('member_chat').getByText(reply)).toBeVisible();
    await expect(page.getByTestId('member_chat').getByText(note)).toHaveCount(0);
    await expect(page.getByTestId('staff_chat').getByText(reply)).toHaveCount(0);

    // The resident's words offer neither edit nor delete; the admin's own reply does.
    const theirs = page.getByTestId('member_chat').getByTestId('chat-message').filter({ hasText: words });
    await expect(theirs).toContainText('мешканець');
    await expect(theirs.getByRole('button', { name: 'Змінити' })).toHaveCount(0);
    await expect(theirs.getByRole('button', { name: 'Видалити' })).toHaveCount(0);
    const mine = page.getByTestId('member_chat').getByTestId('chat-message').filter({ hasText: reply });
    await expect(mine.getByRole('button', { name: 'Змінити' })).toBeVisible();
    await screenshot(page, 'requests-two-composers');

    // On a phone the chats are tabs, each composer still as wide as its chat.
    await page.setViewportSize({ width: 390, height: 844 });
    await expectWideComposer(page, 'staff_chat', STAFF_COMPOSER);
    await page.getByRole('tab', { name: /Чат з мешканцем/ }).click();
    await expectWideComposer(page, 'member_chat', RESIDENT_COMPOSER);
    await expect(page.getByTestId('member_chat').getByTestId('chat-message').filter({ hasText: words }).getByRole('button', { name: 'Змінити' })).toHaveCount(
      0,
    );
  });
});
