import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, TestMemoryRouter, type AuthProvider, type DataProvider, type GetListParams, type Store } from 'react-admin';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Member } from '../../contract/members';
import type { Rules } from '../../contract/permissions';
import type { ServiceRequest, ServiceRequestForm } from '../../contract/serviceRequests';
import { saveSession } from '../../src/authStorage';
import { createDataProvider } from '../../src/dataProvider';
import { BulkRefusalError } from '../../src/dataProvider/bulk';
import { i18nProvider } from '../../src/i18n';
import { Toaster } from '../../src/layout/Toaster';
import { appStore, preferencesKey } from '../../src/lib/appStore';
import { theme } from '../../src/theme';
import MemberList from '../../src/resources/members/MemberList';
import { bulkProblem } from '../../src/resources/service-requests/RequestBulkActions';
import RequestList, { columnsKey } from '../../src/resources/service-requests/RequestList';

const FORM: ServiceRequestForm = {
  responsible: [{ id: 3, name: 'Андрій Мельник', complex_ids: [1] }],
  performer: [{ id: 3, name: 'Андрій Мельник', complex_ids: [1] }],
  types: [],
  address: [],
  units: [],
  residents: [],
};

function request(overrides: Partial<ServiceRequest>): ServiceRequest {
  return {
    id: 11,
    number: 42,
    type_id: 5,
    type: 'Сантехніка',
    house_id: 9,
    complex_id: 1,
    complex_name: 'ЖК «Липовий гай»',
    address: 'м. Київ, вулиця Липова, 12',
    realty_id: null,
    realty_number: '7',
    member_id: null,
    member_name: 'Коваленко Олена',
    member_phone: null,
    text: 'Тече кран на кухні',
    stage: 'new',
    priority: 'normal',
    deadline: null,
    overdue: false,
    responsible_id: 3,
    responsible: { id: 3, name: 'Андрій Мельник' },
    performer_id: null,
    performer: null,
    media_ids: [],
    done_at: null,
    created_at: '2026-03-01T10:00:00.000Z',
    updated_at: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

function authWith(rules: Rules): AuthProvider {
  const user = { id: 7, name: 'Оксана', email: 'o@b.ua', reset_token: null, tutorial_completed: true, rules, complexes: [], is_admin: false };
  return {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    canAccess: async () => true,
    getIdentity: async () => ({ ...user, fullName: user.name }),
  };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  localStorage.clear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: RequestInfo | URL) => (String(url).includes('/service_request/form') ? json({ form: FORM }) : json({ message: 'Не знайдено.' }, 404))),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderScreen(screenElement: React.ReactNode, dataProvider: object, rules: Rules, store: Store = appStore()) {
  return render(
    <TestMemoryRouter initialEntries={['/']}>
      <AdminContext
        authProvider={authWith(rules)}
        dataProvider={dataProvider as unknown as DataProvider}
        i18nProvider={i18nProvider}
        store={store}
        theme={theme}
      >
        {screenElement}
        <Toaster />
      </AdminContext>
    </TestMemoryRouter>,
  );
}

/** The screens' tests render react-admin and MUI in jsdom: slow on a busy machine, hence the describes' longer timeout. */
const toast = async (kind: 'success' | 'warning' | 'error') => {
  const el = await waitFor(() => {
    const found = document.querySelector<HTMLElement>(`[data-kind="${kind}"]`);
    if (!found) throw new Error(`no ${kind} toast`);
    return found;
  });
  // The toaster pairs an undoable toast with its mutation in an effect after the toast renders; a
  // person's click comes later than that, a test's could come first.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return el;
};

describe('requests list: bulk stage and performer', { timeout: 60_000 }, () => {
  const rows = [
    request({ id: 11, number: 42, stage: 'new' }),
    request({ id: 12, number: 43, stage: 'executor', performer_id: 3, performer: { id: 3, name: 'Андрій Мельник' } }),
    request({ id: 13, number: 44, stage: 'underReview', text: 'Не світить ліхтар' }),
  ];
  const provider = () => {
    const updateMany = vi.fn(async (_r: string, p: { ids: unknown[] }) => ({ data: p.ids }));
    const getList = vi.fn(async (_r: string, _p: GetListParams) => ({ data: rows, total: rows.length }));
    return { getList, updateMany };
  };
  /** A request's row by its number (plain DOM look-ups: role queries are slow on a busy machine, and a toast lasts 5 s). */
  const rowOf = (table: HTMLElement, n: number) => [...table.querySelectorAll('tbody tr')].find((tr) => tr.querySelector('a')?.textContent === String(n))!;
  const select = async (...numbers: number[]) => {
    const table = await screen.findByRole('table', { name: 'Перелік заявок' });
    await within(table).findAllByText('Тече кран на кухні');
    for (const n of numbers) fireEvent.click(rowOf(table, n).querySelector('input[type="checkbox"]')!);
    return table;
  };

  it('moves the requests that may move at once, tells why the others stay, and «Скасувати» sends nothing', async () => {
    const dp = provider();
    renderScreen(<RequestList />, dp, { service_requests: ['view', 'edit'] });
    const table = await select(42, 43, 44);
    fireEvent.click(screen.getByRole('button', { name: 'Змінити етап' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Виконана' }));

    // № 43 (with the executor) shows the change at once, until «Скасувати» takes it back: nothing is sent.
    const done = await toast('success');
    expect(done.textContent).toContain('Етап змінено: 1 заявка');
    expect(rowOf(table, 43).textContent).toContain('Виконана');
    fireEvent.click(within(done).getByText('Скасувати'));
    await waitFor(() => expect(rowOf(table, 43).textContent).toContain('У виконавця'));
    expect(dp.updateMany).not.toHaveBeenCalled();
    // № 42 and № 44 cannot go to «Виконана» and say why.
    const warning = await toast('warning');
    expect(warning.textContent).toContain('Не змінено: 2 з 3');
    expect(warning.textContent).toContain('№ 42: з етапу «Нова» не можна перевести на «Виконана»');
    expect(warning.textContent).toContain('№ 44: з етапу «На розгляді» не можна перевести на «Виконана»');
  });

  it('sends the change when its toast closes: the performer of the selected requests, by react-admin updateMany', async () => {
    const dp = provider();
    renderScreen(<RequestList />, dp, { service_requests: ['view', 'edit'] });
    await select(42, 44);
    fireEvent.click(screen.getByRole('button', { name: 'Призначити виконавця' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Андрій Мельник' }));
    const done = await toast('success');
    expect(done.textContent).toContain('Виконавця призначено для 2 заявок');
    fireEvent.click(within(done).getByRole('button', { name: 'Закрити' }));
    await waitFor(() => expect(dp.updateMany).toHaveBeenCalledTimes(1));
    expect(dp.updateMany.mock.calls[0][0]).toBe('service-requests');
    expect(dp.updateMany.mock.calls[0][1]).toMatchObject({ ids: [11, 13], data: { performer_id: 3 } });
  });

  it('tells the requests the API refused, each with its reason, once the change is sent', async () => {
    const dp = provider();
    dp.updateMany.mockRejectedValueOnce(
      new BulkRefusalError('Жоден запис не змінено', [], [{ id: 13, message: 'Андрій Мельник не працює в комплексі цього будинку.' }]),
    );
    renderScreen(<RequestList />, dp, { service_requests: ['view', 'edit'] });
    await select(44);
    fireEvent.click(screen.getByRole('button', { name: 'Призначити виконавця' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Андрій Мельник' }));
    fireEvent.click(within(await toast('success')).getByRole('button', { name: 'Закрити' }));
    const error = await toast('error');
    expect(error.textContent).toContain('Не змінено: 1 з 1');
    expect(error.textContent).toContain('№ 44: Андрій Мельник не працює в комплексі цього будинку.');
  });

  it('names each row checkbox for a screen reader (its input, not the span around it)', async () => {
    renderScreen(<RequestList />, provider(), { service_requests: ['view', 'edit'] });
    const table = await select();
    expect(table.querySelectorAll('tbody input[type="checkbox"][aria-label="Вибрати цей рядок"]')).toHaveLength(3);
    expect(table.querySelectorAll('.MuiCheckbox-root[aria-label]')).toHaveLength(0);
    expect(table.querySelector('thead input[type="checkbox"]')!.getAttribute('aria-label')).toBe('Вибрати всі');
  });

  it('offers no selection to a role that may only view', async () => {
    renderScreen(<RequestList />, provider(), { service_requests: ['view'] });
    const table = await screen.findByRole('table', { name: 'Перелік заявок' });
    expect(await within(table).findByText('Не світить ліхтар')).toBeTruthy();
    expect(within(table).queryAllByRole('checkbox')).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Змінити етап' })).toBeNull();
  });

  it('judges a move by the stage rules and the performer', () => {
    expect(bulkProblem(request({ stage: 'new' }), { stage: 'underReview' })).toBeUndefined();
    expect(bulkProblem(request({ stage: 'done' }), { stage: 'done' })).toBeUndefined();
    expect(bulkProblem(request({ stage: 'new' }), { stage: 'done' })?.message).toBe('resources.service_requests.bulk.cannot_move');
    expect(bulkProblem(request({ stage: 'underReview', performer_id: null }), { stage: 'executor' })?.message).toBe(
      'resources.service_requests.bulk.needs_performer',
    );
    expect(bulkProblem(request({ stage: 'underReview', performer_id: null }), { stage: 'executor', performer_id: 3 })).toBeUndefined();
    expect(bulkProblem(request({ stage: 'new' }), { performer_id: 3 })).toBeUndefined();
  });
});

describe('requests list: columns', { timeout: 60_000 }, () => {
  it('hides the responsible and the creation date until the user chooses, and keeps the choice per user across a reload', async () => {
    const getList = vi.fn(async () => ({ data: [request({})], total: 1 }));
    const first = renderScreen(<RequestList />, { getList }, { service_requests: ['view', 'edit'] });
    const table = await screen.findByRole('table', { name: 'Перелік заявок' });
    const headers = () => Array.from(table.querySelectorAll('thead th'), (h) => h.textContent);
    await within(table).findByText('Тече кран на кухні');
    expect(headers()).toEqual(expect.arrayContaining(['№', 'Етап', 'Тип заявки', 'Адреса', 'Опис проблеми', 'Виконавець', 'Термін']));
    expect(headers()).not.toContain('Відповідальний');
    expect(headers()).not.toContain('Створено');

    fireEvent.click(screen.getByRole('button', { name: 'Стовпці' }));
    const selector = await waitFor(() => {
      const list = document.getElementById(`${columnsKey(7)}-columnsSelector`)?.querySelector('ul');
      if (!list) throw new Error('no column list');
      return list;
    });
    fireEvent.click(within(selector).getByLabelText('Відповідальний'));
    fireEvent.click(within(selector).getByLabelText('Тип заявки'));
    await waitFor(() => expect(headers()).toContain('Відповідальний'));
    expect(headers()).not.toContain('Тип заявки');
    expect(JSON.parse(localStorage.getItem(`RaStore.${columnsKey(7)}`)!)).toEqual(['created_at', 'type']);

    // A new page load (a fresh store over the same browser storage) shows the same columns.
    first.unmount();
    renderScreen(<RequestList />, { getList }, { service_requests: ['view', 'edit'] });
    const again = await screen.findByRole('table', { name: 'Перелік заявок' });
    await within(again).findByText('Тече кран на кухні');
    const shown = Array.from(again.querySelectorAll('thead th'), (h) => h.textContent);
    expect(shown).toContain('Відповідальний');
    expect(shown).not.toContain('Тип заявки');
  });
});

describe('members list: bulk status', { timeout: 60_000 }, () => {
  it('makes the selected members inactive through react-admin updateMany, after the undo delay', async () => {
    const members: Member[] = [1, 2, 3].map((id) => ({
      id,
      name: `Мешканець ${id}`,
      phone: null,
      email: null,
      status: 'active',
      note: '',
      units: [],
      vehicles_count: 0,
      created_at: '2026-01-15T10:00:00.000Z',
      updated_at: '2026-01-15T10:00:00.000Z',
    }));
    const updateMany = vi.fn(async (_r: string, p: { ids: unknown[] }) => ({ data: p.ids }));
    renderScreen(<MemberList />, { getList: async () => ({ data: members, total: 3 }), updateMany }, { members: ['view', 'edit'] });
    const table = await screen.findByRole('table', { name: 'Мешканці' });
    for (const name of ['Мешканець 1', 'Мешканець 3']) fireEvent.click(within(within(table).getByText(name).closest('tr')!).getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Зробити неактивними' }));
    const done = await toast('success');
    expect(done.textContent).toContain('Статус змінено: 2 мешканці');
    expect(within(within(table).getByText('Мешканець 1').closest('tr')!).getByText('Неактивний')).toBeTruthy();
    expect(within(within(table).getByText('Мешканець 2').closest('tr')!).getByText('Активний')).toBeTruthy();
    fireEvent.click(within(done).getByRole('button', { name: 'Закрити' }));
    await waitFor(() => expect(updateMany).toHaveBeenCalledTimes(1));
    expect(updateMany.mock.calls[0][1]).toMatchObject({ ids: [1, 3], data: { status: 'inactive' } });
  });
});

describe('data provider: bulk changes and deletes', () => {
  const calls: { url: string; method: string; body: unknown }[] = [];
  const answer = (fn: (url: string, method: string) => Response) =>
    vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      calls.push({ url: String(url), method, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      return fn(String(url), method);
    });
  beforeEach(() => {
    calls.length = 0;
    saveSession('token', 3600);
  });

  it('sends one PATCH with the ids and only the declared bulk fields, and answers the changed ids', async () => {
    const dp = createDataProvider(answer(() => json({ message: 'Змінено записів: 2.', data: { updated: [11, 12], refused: [] } })));
    const res = await dp.updateMany('service-requests', { ids: [11, 12], data: { performer_id: 3, performer: { id: 3, name: 'Андрій' } } });
    expect(res.data).toEqual([11, 12]);
    expect(calls).toEqual([{ url: '/api/admin/service_request', method: 'PATCH', body: { performer_id: 3, ids: [11, 12] } }]);
  });

  it('names the refused rows with their reasons, whether some rows changed (200) or none (422)', async () => {
    const refused = [{ id: 12, message: 'Мешканця не знайдено.' }];
    const partial = createDataProvider(answer(() => json({ message: 'Змінено записів: 1 з 2; не змінено: 1.', data: { updated: [11], refused } })));
    const err = await partial.updateMany('members', { ids: [11, 12], data: { status: 'inactive' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BulkRefusalError);
    expect(err).toMatchObject({ done: [11], refused });
    const none = createDataProvider(answer(() => json({ message: 'Жоден запис не змінено: Мешканця не знайдено.', data: { updated: [], refused } }, 422)));
    const err2 = await none.updateMany('members', { ids: [12], data: { status: 'inactive' } }).catch((e: unknown) => e);
    expect(err2).toMatchObject({ done: [], refused });
  });

  it("deletes row by row with each row's own DELETE, and names the rows that stayed", async () => {
    const dp = createDataProvider(
      answer((url) => (url.endsWith('/7') ? json({ message: 'Документ не знайдено.' }, 404) : json({ message: 'Документ видалено.' }))),
    );
    const err = await dp.deleteMany('documents', { ids: [5, 7, 9] }).catch((e: unknown) => e);
    expect(calls.map((c) => `${c.method} ${c.url}`).sort()).toEqual([
      'DELETE /api/admin/documents/5',
      'DELETE /api/admin/documents/7',
      'DELETE /api/admin/documents/9',
    ]);
    expect(err).toBeInstanceOf(BulkRefusalError);
    expect(err).toMatchObject({ done: [5, 9], refused: [{ id: 7, message: 'Документ не знайдено.' }] });
    calls.length = 0;
    const ok = createDataProvider(answer(() => json({ message: 'Документ видалено.' })));
    expect((await ok.deleteMany('documents', { ids: [5, 9] })).data).toEqual([5, 9]);
  });
});

describe('react-admin store', () => {
  it('keeps a user’s preferences in localStorage across a sign-out and a new page, and everything else in memory', () => {
    const key = preferencesKey(7, 'service-requests.columns');
    const store = appStore({ 'sidebar.open': true });
    store.setup();
    const heard: unknown[] = [];
    const stop = store.subscribe(key, (v) => heard.push(v));
    store.setItem(key, ['created_at']);
    store.setItem('members.selectedIds', [1, 2]);
    expect(heard).toEqual([['created_at']]);
    expect(localStorage.getItem(`RaStore.${key}`)).toBe('["created_at"]');
    expect(Object.keys(localStorage).filter((k) => k.startsWith('RaStore.'))).toEqual([`RaStore.${key}`]);

    // Signing out resets the store: the session's state goes, the preferences stay.
    store.reset();
    expect(store.getItem('members.selectedIds')).toBeUndefined();
    expect(store.getItem('sidebar.open')).toBeUndefined();
    expect(store.getItem(key)).toEqual(['created_at']);
    const next = appStore();
    next.setup();
    expect(next.getItem(key)).toEqual(['created_at']);
    expect(next.getItem(preferencesKey(8, 'service-requests.columns'), ['responsible'])).toEqual(['responsible']);

    next.removeItems(preferencesKey(7, ''));
    expect(localStorage.getItem(`RaStore.${key}`)).toBeNull();
    stop();
  });
});
