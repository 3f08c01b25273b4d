import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { AdminContext, HttpError, memoryStore, TestMemoryRouter, type AuthProvider, type DataProvider, type GetListParams } from 'react-admin';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Rules } from '../../contract/permissions';
import type { RequestStage, ServiceRequest, ServiceRequestDetail, ServiceRequestForm } from '../../contract/serviceRequests';
import { i18nProvider } from '../../src/i18n';
import StaffChatPage from '../../src/customPages/staff-chat/StaffChatPage';
import RequestList, { VIEWS_KEY } from '../../src/resources/service-requests/RequestList';
import RequestShow from '../../src/customPages/request/RequestShow';

const FORM: ServiceRequestForm = {
  responsible: [{ id: 3, name: 'Андрій Мельник', complex_ids: [1] }],
  performer: [{ id: 3, name: 'Андрій Мельник', complex_ids: [1] }],
  types: [{ id: 5, name: 'Сантехніка', deadline_hours: 24, staff_ids: [3] }],
  address: [{ id: 9, name: 'м. Київ, вулиця Липова, 12', complex_id: 1 }],
  units: [],
  residents: [],
};

function record(overrides: Partial<ServiceRequest> = {}): ServiceRequest {
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
    deadline: '2026-03-05T10:00:00.000Z',
    overdue: true,
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

function detail(stage: RequestStage, transitions: RequestStage[]): ServiceRequestDetail {
  return {
    ...record({ stage, performer_id: 3, performer: { id: 3, name: 'Андрій Мельник' } }),
    media: [],
    staff_chat: [
      {
        id: 1,
        chat_type: 'staff_chat',
        message: 'Потрібен ключ від техповерху',
        author: { kind: 'staff', id: 3, name: 'Андрій Мельник', via_link: true },
        files: [],
        edited_at: null,
        created_at: '2026-03-01T11:00:00.000Z',
        can_edit: false,
      },
    ],
    member_chat: [],
    history: [{ id: 1, kind: 'stage', user_id: 1, user_name: 'Адміністратор', from: null, to: 'new', comment: '', created_at: '2026-03-01T10:00:00.000Z' }],
    transitions,
    chat_links: [],
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
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  localStorage.clear();
  fetchMock = vi.fn(async (url: RequestInfo | URL) => {
    const u = String(url);
    if (u.includes('/service_request/form')) return json({ form: FORM });
    if (u.includes('/service_request/11')) return json({ data: currentDetail });
    if (u.includes('/api/staff/chat/')) return json({ message: 'Посилання на чат недійсне або термін його дії минув.' }, 404);
    return json({ message: 'Не знайдено.' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());
let currentDetail: ServiceRequestDetail;

function renderList(getList: DataProvider['getList'], url = '/Requests') {
  return render(
    <TestMemoryRouter initialEntries={[url]}>
      <AdminContext
        authProvider={authWith({ service_requests: ['view', 'create', 'edit'] })}
        dataProvider={{ getList } as unknown as DataProvider}
        i18nProvider={i18nProvider}
        store={memoryStore()}
      >
        <RequestList />
      </AdminContext>
    </TestMemoryRouter>,
  );
}

describe('requests list', () => {
  it('shows the stage chips with their icons and filters by the chosen stages', async () => {
    const getList = vi.fn(async (_r: string, _p: GetListParams) => ({ data: [record()], total: 1 }));
    renderList(getList as unknown as DataProvider['getList']);
    const table = await screen.findByRole('table', { name: 'Перелік заявок' });
    expect(await within(table).findByText('Тече кран на кухні')).toBeTruthy();
    expect(within(table).getByText('05.03.2026')).toBeTruthy();
    expect(within(table).getByText('Прострочено')).toBeTruthy();

    const stages = screen.getByRole('group', { name: 'Етап' });
    for (const [name, icon] of [
      ['Нова', 'new'],
      ['На розгляді', 'underReview'],
      ['У виконавця', 'executor'],
      ['Виконана', 'done'],
    ]) {
      const chip = within(stages).getByRole('button', { name });
      expect(chip.querySelector(`[data-icon="${icon}"]`), `${name} icon`).not.toBeNull();
    }
    fireEvent.click(within(stages).getByRole('button', { name: 'У виконавця' }));
    fireEvent.click(within(stages).getByRole('button', { name: 'Виконана' }));
    await waitFor(() => expect(getList.mock.calls.at(-1)![1].filter).toMatchObject({ stage: ['executor', 'done'] }));
    expect(within(stages).getByRole('button', { name: 'Виконана' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('opens with the filters, sort and page of the address (reload, Back, the dashboard links) and exports that list', async () => {
    const getList = vi.fn(async (_r: string, _p: GetListParams) => ({ data: [record()], total: 80 }));
    renderList(getList as unknown as DataProvider['getList'], '/Requests?stage=new&stage=executor&overdue=1&q=кран&type_id=5&sort=deadline&order=ASC&page=3');
    expect(await screen.findByText('Тече кран на кухні')).toBeTruthy();
    expect(getList.mock.calls[0][1]).toMatchObject({
      filter: { q: 'кран', stage: ['new', 'executor'], overdue: 1, type_id: '5' },
      sort: { field: 'deadline', order: 'ASC' },
      pagination: { page: 3, perPage: 25 },
    });
    const stages = screen.getByRole('group', { name: 'Етап' });
    expect(within(stages).getByRole('button', { name: 'Нова' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: /Експорт CSV/ })).toBeTruthy();
    fireEvent.click(within(stages).getByRole('button', { name: 'Нова' }));
    await waitFor(() => expect(getList.mock.calls.at(-1)![1]).toMatchObject({ filter: { stage: ['executor'] }, pagination: { page: 1 } }));
  });

  it('without a connection says so in words, claims no empty result and loads again on «Спробувати ще раз»', async () => {
    let online = false;
    const getList = vi.fn(async () => {
      if (!online) throw new HttpError('app.errors.network', 0);
      return { data: [record()], total: 1 };
    });
    renderList(getList as unknown as DataProvider['getList']);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain("Немає зв'язку з сервером");
    expect(screen.queryByText('app.errors.network')).toBeNull();
    expect(screen.queryByText('Заявок за цими умовами немає.')).toBeNull();
    online = true;
    fireEvent.click(within(alert).getByRole('button', { name: 'Спробувати ще раз' }));
    expect(await screen.findByText('Тече кран на кухні')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  /** The saved views API over an in-memory store, as the server answers it. */
  function savedViewsServer(initial: { id: number; name: string; query: string }[] = []) {
    const views = initial.map((v) => ({ ...v, list: 'requests', created_at: '', updated_at: '' }));
    const calls: { method: string; body?: unknown }[] = [];
    const serve = async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, body });
      if (method === 'GET') return json({ data: [...views].sort((a, b) => a.name.localeCompare(b.name, 'uk')) });
      if (method === 'POST') {
        if (views.some((v) => v.name.toLowerCase() === body.name.toLowerCase()))
          return json({ message: 'Вид із такою назвою вже є. Оберіть іншу назву.', errors: { name: ['Вид із такою назвою вже є. Оберіть іншу назву.'] } }, 422);
        const view = { id: views.length + 100, list: 'requests', created_at: '', updated_at: '', ...body };
        views.push(view);
        return json({ data: view });
      }
      const id = Number(url.split('/saved-views/')[1]);
      const at = views.findIndex((v) => v.id === id);
      if (method === 'DELETE') {
        views.splice(at, 1);
        return json({ message: 'Вид видалено.' });
      }
      Object.assign(views[at], body);
      return json({ data: views[at] });
    };
    const previous = fetchMock.getMockImplementation() as (url: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
    fetchMock.mockImplementation(async (url: RequestInfo | URL, init?: RequestInit) =>
      String(url).includes('/saved-views') ? serve(String(url), init) : previous(url, init),
    );
    return { views, calls };
  }

  it('saves the current filters as a named view on the server, renames it and brings it back', async () => {
    const server = savedViewsServer();
    const getList = vi.fn(async () => ({ data: [], total: 0 }));
    renderList(getList as unknown as DataProvider['getList']);
    fireEvent.change(await screen.findByRole('textbox', { name: /Пошук/ }), { target: { value: 'ліфт' } });
    fireEvent.click(screen.getByRole('button', { name: 'Нова' }));
    fireEvent.click(screen.getByRole('button', { name: 'Зберегти вигляд' }));
    fireEvent.change(await screen.findByLabelText('Назва вигляду'), { target: { value: 'Нові про ліфт' } });
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Зберегти' }));
    await waitFor(() =>
      expect(server.views.map((v) => [v.name, v.query])).toEqual([['Нові про ліфт', 'order=DESC&q=%D0%BB%D1%96%D1%84%D1%82&sort=created_at&stage=new']]),
    );
    expect(localStorage.getItem(VIEWS_KEY)).toBeNull();

    fireEvent.click(await screen.findByRole('button', { name: 'Скинути фільтри' }));
    await waitFor(() => expect((screen.getByRole('textbox', { name: /Пошук/ }) as HTMLInputElement).value).toBe(''));
    fireEvent.click(screen.getByRole('button', { name: 'Збережені вигляди' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Перейменувати вигляд «Нові про ліфт»' }));
    const name = await screen.findByLabelText('Назва вигляду');
    fireEvent.change(name, { target: { value: 'Ліфти' } });
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Зберегти' }));
    await waitFor(() => expect(server.views[0].name).toBe('Ліфти'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Збережені вигляди' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: /Ліфти/ }));
    await waitFor(() => expect((screen.getByRole('textbox', { name: /Пошук/ }) as HTMLInputElement).value).toBe('ліфт'));
    await waitFor(() => expect((getList.mock.calls.at(-1) as unknown as [string, GetListParams])[1].filter).toMatchObject({ q: 'ліфт', stage: ['new'] }));
    // The open view is ticked.
    fireEvent.click(screen.getByRole('button', { name: 'Збережені вигляди' }));
    expect(within(await screen.findByRole('menuitem', { name: /Ліфти/ })).getByTitle('Відкритий зараз')).toBeTruthy();
  });

  it('saving under a name that exists replaces that view’s filters; a refused name shows the server’s words', async () => {
    const server = savedViewsServer([
      { id: 1, name: 'Прострочені', query: 'overdue=1' },
      { id: 3, name: 'Виконані', query: 'stage=done' },
    ]);
    renderList(vi.fn(async () => ({ data: [], total: 0 })) as unknown as DataProvider['getList'], '/Requests?stage=done');
    // A view saved without a sort is the list in its default order: open now, it is ticked.
    fireEvent.click(await screen.findByRole('button', { name: 'Збережені вигляди' }));
    expect(within(await screen.findByRole('menuitem', { name: /Виконані/ })).getByTitle('Відкритий зараз')).toBeTruthy();
    expect(within(screen.getByRole('menuitem', { name: /Прострочені/ })).queryByTitle('Відкритий зараз')).toBeNull();
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    fireEvent.click(await screen.findByRole('button', { name: 'Зберегти вигляд' }));
    fireEvent.change(await screen.findByLabelText('Назва вигляду'), { target: { value: 'прострочені' } });
    expect(await screen.findByText('Вигляд із такою назвою вже є: його фільтри буде замінено поточними.')).toBeTruthy();
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Зберегти' }));
    // The sort is spelt out: a view keeps the order it was saved with.
    await waitFor(() =>
      expect(server.views).toEqual([
        expect.objectContaining({ id: 1, name: 'Прострочені', query: 'order=DESC&sort=created_at&stage=done' }),
        expect.objectContaining({ id: 3, name: 'Виконані' }),
      ]),
    );
    expect(server.calls.filter((c) => c.method === 'POST')).toEqual([]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // A name the server refuses (saved meanwhile in another tab) keeps the dialog open with its words under the field.
    server.views.push({ id: 2, name: 'Зайнята назва', query: '', list: 'requests', created_at: '', updated_at: '' });
    fireEvent.click(screen.getByRole('button', { name: 'Зберегти вигляд' }));
    fireEvent.change(await screen.findByLabelText('Назва вигляду'), { target: { value: 'Зайнята назва' } });
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Зберегти' }));
    expect(await screen.findByText('Вид із такою назвою вже є. Оберіть іншу назву.')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('renames a view with F2 and deletes one with Delete, from the keyboard', async () => {
    const server = savedViewsServer([
      { id: 1, name: 'Прострочені', query: 'overdue=1' },
      { id: 2, name: 'Нові', query: 'stage=new' },
    ]);
    renderList(vi.fn(async () => ({ data: [], total: 0 })) as unknown as DataProvider['getList']);
    fireEvent.click(await screen.findByRole('button', { name: 'Збережені вигляди' }));
    const item = await screen.findByRole('menuitem', { name: /Нові/ });
    expect(item.getAttribute('aria-keyshortcuts')).toBe('F2 Delete');
    fireEvent.keyDown(item, { key: 'Delete' });
    await waitFor(() => expect(server.views.map((v) => v.name)).toEqual(['Прострочені']));
    fireEvent.keyDown(await screen.findByRole('menuitem', { name: /Прострочені/ }), { key: 'F2' });
    expect(((await screen.findByLabelText('Назва вигляду')) as HTMLInputElement).value).toBe('Прострочені');
  });

  it('moves the views this browser kept to the server once, then forgets them here', async () => {
    localStorage.setItem(
      VIEWS_KEY,
      JSON.stringify([
        { name: 'Мої прострочені', filters: { ...{ search: '', stages: ['executor'], overdue: true }, sort: { field: 'deadline', order: 'ASC' } } },
        { name: 'Зламаний', filters: null },
      ]),
    );
    const server = savedViewsServer();
    renderList(vi.fn(async () => ({ data: [], total: 0 })) as unknown as DataProvider['getList']);
    await waitFor(() => expect(localStorage.getItem(VIEWS_KEY)).toBeNull());
    expect(server.views.map((v) => [v.name, v.query])).toEqual([['Мої прострочені', 'stage=executor&overdue=1&sort=deadline&order=ASC']]);
    fireEvent.click(screen.getByRole('button', { name: 'Збережені вигляди' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: /Мої прострочені/ }));
    const stages = screen.getByRole('group', { name: 'Етап' });
    await waitFor(() => expect(within(stages).getByRole('button', { name: 'У виконавця' }).getAttribute('aria-pressed')).toBe('true'));
  });
});

function renderShow(rules: Rules) {
  return render(
    <TestMemoryRouter initialEntries={['/Requests/11']}>
      <AdminContext authProvider={authWith(rules)} i18nProvider={i18nProvider} store={memoryStore()}>
        <Routes>
          <Route path="/Requests/:id" element={<RequestShow />} />
        </Routes>
      </AdminContext>
    </TestMemoryRouter>,
  );
}

describe('request detail', () => {
  it.each([
    ['new', ['underReview'], ['Взяти на розгляд'], ['Передати виконавцю', 'Позначити виконаною', 'Повернути на розгляд']],
    ['executor', ['done', 'underReview'], ['Позначити виконаною', 'Повернути на розгляд'], ['Взяти на розгляд', 'Передати виконавцю']],
    ['done', ['underReview'], ['Повернути на розгляд'], ['Позначити виконаною', 'Передати виконавцю']],
  ] as const)('on %s shows only the allowed stage actions', async (stage, transitions, shown, hidden) => {
    currentDetail = detail(stage, [...transitions]);
    renderShow({ service_requests: ['view', 'edit'] });
    for (const name of shown) expect(await screen.findByRole('button', { name })).toBeTruthy();
    for (const name of hidden) expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.getByText('Потрібен ключ від техповерху')).toBeTruthy();
    expect(screen.getByText('за посиланням')).toBeTruthy();
  });

  it('shows no stage actions and no composer to a role that may only view', async () => {
    currentDetail = detail('new', ['underReview']);
    renderShow({ service_requests: ['view'] });
    expect(await screen.findByText('Потрібен ключ від техповерху')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Взяти на розгляд' })).toBeNull();
    expect(await screen.findByTestId('member_chat')).toBeTruthy();
    expect(screen.queryAllByRole('textbox')).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Надіслати працівникам' })).toBeNull();
  });

  it("offers two composers named for who reads them, and no edit or delete on a resident's message", async () => {
    const base = detail('underReview', ['executor']);
    const message = (id: number, kind: 'resident' | 'staff', text: string) => ({
      id,
      chat_type: 'member_chat' as const,
      message: text,
      author: { kind, id, name: kind === 'resident' ? 'Ковальчук Ірина' : 'Оксана', via_link: false },
      files: [],
      edited_at: null,
      created_at: '2026-03-01T12:00:00.000Z',
      // Even were the server to allow it, a resident's message offers no edit.
      can_edit: true,
    });
    currentDetail = {
      ...base,
      member_id: 5,
      member_name: 'Ковальчук Ірина',
      member_chat: [message(2, 'resident', 'Вода досі тече'), message(3, 'staff', 'Майстер їде')],
    };
    renderShow({ service_requests: ['view', 'edit'] });
    const staff = await screen.findByRole('textbox', { name: 'Внутрішнє повідомлення працівникам' });
    const resident = screen.getByRole('textbox', { name: 'Повідомлення мешканцю (мешканець прочитає)' });
    expect(staff).not.toBe(resident);
    expect(within(screen.getByTestId('staff_chat')).getByRole('textbox')).toBe(staff);
    expect(within(screen.getByTestId('member_chat')).getByRole('textbox')).toBe(resident);
    expect(staff.tagName).toBe('TEXTAREA');
    expect(screen.getByTestId('staff_chat-audience').textContent).toContain('Мешканець — ні');
    expect(screen.getByTestId('member_chat-audience').textContent).toContain('Мешканець бачить');
    const [theirs, mine] = within(screen.getByTestId('member_chat')).getAllByTestId('chat-message');
    expect(theirs.textContent).toContain('Вода досі тече');
    expect(within(theirs).queryByRole('button', { name: 'Змінити' })).toBeNull();
    expect(within(theirs).queryByRole('button', { name: 'Видалити' })).toBeNull();
    expect(within(mine).getByRole('button', { name: 'Змінити' })).toBeTruthy();
    expect(within(mine).getByRole('button', { name: 'Видалити' })).toBeTruthy();
  });
});

/** The staff chat page opened by its link. */
function renderChat(token: string) {
  return render(
    <TestMemoryRouter initialEntries={[`/Chat/${token}`]}>
      <AdminContext i18nProvider={i18nProvider} store={memoryStore()}>
        <Routes>
          <Route path="/Chat/:token?" element={<StaffChatPage />} />
        </Routes>
      </AdminContext>
    </TestMemoryRouter>,
  );
}

describe('staff chat by link', () => {
  it('asks in its own dialog before marking the work done, and sends nothing when the performer goes back', async () => {
    const TOKEN = 'B'.repeat(43);
    const chat = {
      request: {
        id: 11,
        number: 42,
        type: 'Сантехніка',
        address: 'м. Київ, вулиця Липова, 12',
        realty_number: '7',
        text: 'Тече кран',
        stage: 'executor',
        deadline: null,
        media: [],
      },
      messages: [],
      responsible: [],
      performer: [{ id: 3, name: 'Андрій Мельник' }],
      can_finish: true,
      expires_at: '2026-12-01T10:00:00.000Z',
    };
    fetchMock.mockImplementation(async () => json({ staff_chat: chat }));
    const browserConfirm = vi.spyOn(window, 'confirm');
    renderChat(TOKEN);
    const posts = () => fetchMock.mock.calls.filter(([, init]) => (init as RequestInit | undefined)?.method === 'POST');
    fireEvent.click(await screen.findByRole('button', { name: 'Роботу виконано' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Позначити заявку виконаною?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Скасувати' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts()).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Роботу виконано' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Роботу виконано' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(((posts()[0][1] as RequestInit).body as FormData).get('done')).toBe('1');
    expect(browserConfirm).not.toHaveBeenCalled();
  });

  it('shows the error state for an invalid or expired link', async () => {
    renderChat('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    const alert = await screen.findByTestId('chat-error');
    expect(alert.textContent).toContain('Посилання на чат недійсне або термін його дії минув.');
    expect(fetchMock).toHaveBeenCalledWith('/api/staff/chat/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', expect.anything());
  });
});
