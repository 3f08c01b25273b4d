import type { Page } from '@playwright/test';
import { apiToken, expect, signInForm as signIn, skipTours, STAFF, test } from './fixtures';

/**
 * Every list keeps its search, sort and page in the address: set them, leave for another screen
 * (a record's page where rows lead to one), come Back, reload: the same list, as it was left.
 */
interface ListCase {
  path: string;
  /** Typed into the list's search box; it must match some row. */
  search: string;
  /** Click a column's sort (the list has sortable columns). */
  sort?: boolean;
  /** Go to the second page (the list, searched, has more than one). */
  page?: boolean;
  /** Leave through the first row's link (a record page) instead of the sidebar. */
  open?: boolean;
}

const LISTS: ListCase[] = [
  { path: '/Requests?perPage=10', search: 'а', sort: true, page: true, open: true },
  { path: '/Members?perPage=10', search: 'ко', sort: true, page: true, open: true },
  { path: '/Complex', search: 'Лип', sort: true },
  { path: '/Complex/{complex}/houses', search: 'Лип', sort: true },
  { path: '/Realty/parking', search: 'вул', sort: true, page: true },
  { path: '/Staff', search: 'а', sort: true },
  { path: '/Type-requests', search: 'а', sort: true },
  { path: '/Members/roles', search: 'в', sort: true },
  { path: '/News', search: 'а', sort: true },
  { path: '/Announcements', search: 'а', sort: true },
  { path: '/Events', search: 'а', sort: true },
  { path: '/Advertisements', search: 'а', sort: true },
  { path: '/Contacts', search: 'а', sort: true },
  { path: '/Contacts?tab=sections', search: 'а', sort: true },
  { path: '/dashboard_old/Disconts', search: 'а', sort: true },
  { path: '/dashboard_old/Security-cameras', search: 'а', sort: true },
  { path: '/Voting', search: 'а', sort: true },
  { path: '/Interview', search: 'а', sort: true },
  { path: '/Voting/{voting}/participants?perPage=5', search: 'а', page: true },
  { path: '/Interview/{interview}/users', search: 'а' },
];

const address = (page: Page) => {
  const url = new URL(page.url());
  return decodeURIComponent(url.pathname + url.search);
};

/** What the list shows of its state: the search box, the active sort column and its direction, the rows' range. */
async function shownState(page: Page) {
  const sort = page.locator('thead .MuiTableSortLabel-root.Mui-active');
  const range = page.locator('.MuiTablePagination-displayedRows');
  return {
    search: await page.getByPlaceholder(/Пошук/).first().inputValue(),
    sort: (await sort.count())
      ? `${await sort.first().textContent()} ${(await sort.first().locator('svg').getAttribute('class'))?.match(/iconDirection(Asc|Desc)/)?.[1]}`
      : '',
    range: (await range.count()) ? await range.first().textContent() : '',
  };
}

/** The shown state once the last answer has come (a search is sent after a pause in typing). */
async function steadyState(page: Page) {
  let last = JSON.stringify(await shownState(page));
  await expect
    .poll(async () => {
      await page.waitForTimeout(400);
      const now = JSON.stringify(await shownState(page));
      const same = now === last;
      last = now;
      return same;
    })
    .toBe(true);
  return JSON.parse(last) as Awaited<ReturnType<typeof shownState>>;
}

// One test per list, each with the default time limit: on a slow machine a single walk over all of
// them ran past any one limit, and one list's failure hid the rest.
for (const list of LISTS) {
  test(`${list.path} keeps its search, sort and page through ${list.open ? 'a record' : 'another screen'}, Back and reload`, async ({ page }) => {
    const headers = { authorization: `Bearer ${await apiToken(page.request)}` };
    const first = async (kind: string) => {
      const body = await (await page.request.get(`/api/admin/${kind}?per_page=1`, { headers })).json();
      return (body.main_data?.data ?? body.data?.data ?? body.data)[0].id as number;
    };
    const ids: Record<string, () => Promise<number>> = {
      complex: () => first('complexes'),
      voting: () => first('voting'),
      interview: () => first('interview'),
    };
    let path = list.path;
    for (const [, key] of list.path.matchAll(/\{(\w+)\}/g)) path = path.replace(`{${key}}`, String(await ids[key]()));
    await signIn(page);

    await page.goto(path);
    const box = page.getByPlaceholder(/Пошук/).first();
    // Each step waits for what the list shows once it has taken the change, not only for the
    // address: the address changes first, and a click in between would act on the list as it was.
    const searched = page.waitForResponse((r) => {
      const url = new URL(r.url());
      return url.pathname.startsWith('/api/admin/') && url.searchParams.get('search_query') === list.search;
    });
    await box.fill(list.search);
    await expect.poll(() => address(page), `${path}: the search goes into the address`).toContain(list.search);
    await searched;
    await expect(page.locator('tbody tr').first()).toBeVisible();
    if (list.sort) {
      const before = address(page);
      const shownBefore = (await shownState(page)).sort;
      // A column other than the active one, or the active one the other way round.
      const others = page.locator('thead .MuiTableSortLabel-root:not(.Mui-active)');
      await ((await others.count()) ? others.last() : page.locator('thead .MuiTableSortLabel-root').first()).click();
      await expect.poll(() => address(page), `${path}: the sort goes into the address`).not.toBe(before);
      await expect.poll(async () => (await shownState(page)).sort, `${path}: the sort is shown`).not.toBe(shownBefore);
    }
    if (list.page) {
      const rangeBefore = (await shownState(page)).range;
      await page
        .getByRole('button', { name: /наступн/i })
        .first()
        .click();
      await expect.poll(() => address(page), `${path}: the page goes into the address`).toMatch(/page=2/);
      await expect.poll(async () => (await shownState(page)).range, `${path}: the page is shown`).not.toBe(rangeBefore);
    }
    await expect(page.locator('tbody tr').first()).toBeVisible();
    const left = address(page);
    const state = await steadyState(page);
    expect(state.search, `${path}: the search is shown`).not.toBe('');

    // Away: a record's page, or another screen from the sidebar.
    if (list.open) await page.locator('tbody tr a').first().click();
    else await page.getByRole('navigation', { name: 'Головне меню' }).getByRole('link', { name: 'Огляд' }).click();
    await expect.poll(() => address(page)).not.toBe(left);

    await page.goBack();
    await expect.poll(() => address(page), `${path}: Back`).toBe(left);
    await expect.poll(() => shownState(page), `${path}: Back`).toEqual(state);

    await page.reload();
    await expect.poll(() => address(page), `${path}: reload`).toBe(left);
    await expect.poll(() => shownState(page), `${path}: reload`).toEqual(state);
  });
}

test('saved views of the requests list are the user’s own, on the server: saved, still there after a reload, unseen by another user', async ({
  page,
  browser,
  baseURL,
}) => {
  const name = `Прострочені у виконавця ${Date.now() % 100000}`;
  await signIn(page, STAFF);
  await page.goto('/Requests');
  await page.getByRole('group', { name: 'Етап' }).getByRole('button', { name: 'У виконавця' }).click();
  // The switch follows the address, which it changes.
  await page.getByLabel('Лише прострочені').click();
  await expect(page.getByLabel('Лише прострочені')).toBeChecked();
  await expect.poll(() => address(page)).toMatch(/stage=executor.*overdue=1|overdue=1.*stage=executor/);
  await page.getByRole('button', { name: 'Зберегти вигляд' }).click();
  await page.getByLabel('Назва вигляду').fill(name);
  await page.getByRole('dialog').getByRole('button', { name: 'Зберегти' }).click();
  await expect(page.getByText(`Вигляд «${name}» збережено`)).toBeVisible();

  // Another day: the list opens plain, the view is there and brings its filters back.
  await page.goto('/Requests');
  await page.reload();
  await page.getByRole('button', { name: 'Збережені вигляди' }).click();
  await page.getByRole('menuitem', { name: name }).click();
  await expect.poll(() => address(page)).toMatch(/stage=executor/);
  await expect(page.getByRole('group', { name: 'Етап' }).getByRole('button', { name: 'У виконавця' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByLabel('Лише прострочені')).toBeChecked();

  // The admin, in a browser of their own, does not see the dispatcher's view.
  const other = await browser.newContext({ baseURL });
  const admin = await other.newPage();
  await skipTours(admin);
  await signIn(admin);
  await admin.goto('/Requests');
  await admin.getByRole('button', { name: 'Збережені вигляди' }).click();
  await expect(admin.getByRole('menu')).toBeVisible();
  await expect(admin.getByRole('menuitem', { name })).toHaveCount(0);
  await other.close();
});
