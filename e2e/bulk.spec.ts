import type { APIRequestContext, Page } from '@playwright/test';
import { apiToken, expect, openMenuItem, screenshot, signIn, test } from './fixtures';

async function openRequests(page: Page) {
  await openMenuItem(page, 'Заявки', 'Перелік заявок', /\/requests$/i);
  await expect(page.getByTestId('header-title')).toHaveText('Перелік заявок');
}

interface Made {
  id: number;
  number: number;
}

/** A request of the first complex (the header's selection), moved along the allowed path to `stage`. */
async function makeRequest(request: APIRequestContext, text: string, stage: 'new' | 'underReview'): Promise<Made> {
  const headers = { authorization: `Bearer ${await apiToken(request)}` };
  const form = (await (await request.get('/api/admin/service_request/form', { headers })).json()).form;
  const engineer = form.performer.find((s: { name: string }) => s.name === 'Андрій Мельник');
  const first = form.address[0].complex_id;
  const house = form.address.find(
    (h: { complex_id: number | null }) => h.complex_id === first && (engineer.complex_ids === null || engineer.complex_ids.includes(h.complex_id)),
  );
  const created = await request.post('/api/admin/service_request', {
    headers,
    data: { type_id: form.types[0].id, house_id: house.id, text, performer_id: stage === 'new' ? null : engineer.id },
  });
  expect(created.status(), await created.text()).toBe(200);
  const { id, number } = (await created.json()).data;
  if (stage === 'underReview') expect((await request.put(`/api/admin/service_request/${id}`, { headers, data: { stage } })).status()).toBe(200);
  return { id, number };
}

async function stageOf(request: APIRequestContext, id: number): Promise<string> {
  const res = await request.get(`/api/admin/service_request/${id}`, { headers: { authorization: `Bearer ${await apiToken(request)}` } });
  return (await res.json()).data.stage;
}

/** The table's frame and the page: neither scrolls sideways. */
async function sideways(page: Page) {
  return page.evaluate(() => {
    const frame = document.querySelector('.RaDataTable-tableWrapper')!;
    return { table: frame.scrollWidth - frame.clientWidth, page: document.documentElement.scrollWidth - document.documentElement.clientWidth };
  });
}

test.describe('Масові дії', () => {
  test('етап обраних заявок: ті, що можуть, переходять, решта каже чому; «Скасувати» нічого не змінює', async ({ page, request }) => {
    const tag = `Масова заявка ${Date.now()}`;
    const fresh = await makeRequest(request, `${tag}: нова`, 'new');
    const reviewed = await makeRequest(request, `${tag}: на розгляді`, 'underReview');
    await signIn(page);
    await openRequests(page);
    await page.getByRole('textbox', { name: /Пошук/ }).fill(tag);
    const rows = page.locator('tbody tr');
    await expect(rows).toHaveCount(2);
    const freshRow = rows.filter({ hasText: `${tag}: нова` });
    const reviewedRow = rows.filter({ hasText: `${tag}: на розгляді` });

    await freshRow.getByRole('checkbox').check();
    await reviewedRow.getByRole('checkbox').check();
    await expect(page.getByText('Вибрано 2 записи')).toBeVisible();
    await page.getByRole('button', { name: 'Змінити етап' }).click();
    await page.getByRole('menuitem', { name: 'У виконавця' }).click();

    // The request under review shows the move at once; the new one cannot skip the review and says so.
    const done = page.locator('[data-kind="success"]', { hasText: 'Етап змінено: 1 заявка' });
    await expect(done).toBeVisible();
    await expect(reviewedRow).toContainText('У виконавця');
    await expect(page.locator('[data-kind="warning"]')).toContainText(`№ ${fresh.number}: з етапу «Нова» не можна перевести на «У виконавця»`);
    await screenshot(page, 'bulk-requests-moved');

    // «Скасувати»: the row is as it was, and nothing reached the server.
    await done.getByRole('button', { name: 'Скасувати' }).click();
    await expect(reviewedRow).toContainText('На розгляді');
    expect(await stageOf(request, reviewed.id)).toBe('underReview');

    // Again, and this time the toast goes: the request moves, with its history as a single move has it.
    await reviewedRow.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Змінити етап' }).click();
    await page.getByRole('menuitem', { name: 'У виконавця' }).click();
    await page.locator('[data-kind="success"]').getByRole('button', { name: 'Закрити' }).click();
    await expect.poll(() => stageOf(request, reviewed.id)).toBe('executor');
    await expect(reviewedRow).toContainText('У виконавця');
    expect(await stageOf(request, fresh.id)).toBe('new');
    await page.goto(`/Requests/${reviewed.id}`);
    await expect(page.getByTestId('request-history')).toContainText('Адміністратор: На розгляді → У виконавця');
  });
});

for (const locale of ['uk-UA', 'en-US']) {
  test.describe(`Перелік заявок (${locale})`, () => {
    test.use({ locale });

    test('без прокрутки вбік на 1280 і 1440 px; стовпці, обрані користувачем, лишаються після перезавантаження', async ({ page }) => {
      await signIn(page);
      for (const width of [1280, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/Requests');
        await expect(page.locator('tbody tr').first()).toBeVisible();
        expect(await sideways(page), `${width} px`).toEqual({ table: 0, page: 0 });
        await screenshot(page, `requests-${width}-${locale}`);
      }

      const header = page.locator('thead');
      await expect(header).not.toContainText('Відповідальний');
      await page.getByRole('button', { name: 'Стовпці' }).click();
      await page.getByRole('option').filter({ hasText: 'Відповідальний' }).getByRole('switch').check();
      await page.keyboard.press('Escape');
      await expect(header).toContainText('Відповідальний');
      await page.reload();
      await expect(page.locator('tbody tr').first()).toBeVisible();
      await expect(header).toContainText('Відповідальний');
    });
  });
}
