import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { AdminContext, type AuthProvider } from 'react-admin';
import { i18nProvider } from '../../src/i18n';
import SetupPage from '../../src/customPages/setup/SetupPage';
import { visibleMenu, menuFor } from '../../src/layout/menuItems';

const user = {
  id: 1,
  name: 'Адмін',
  email: 'a@b.ua',
  phone: null,
  reset_token: null,
  tutorial_completed: false,
  rules: { staff: ['view', 'create'], staff_roles: ['view', 'create'] },
  complexes: [
    { id: 1, name: 'ЖК «Липовий гай»' },
    { id: 2, name: 'ЖК «Сонячна гавань»' },
  ],
  two_factor: null,
  is_admin: true,
};
const authProvider: AuthProvider = {
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  getPermissions: async () => user.rules,
  getIdentity: async () => ({ ...user, fullName: user.name }),
  canAccess: async () => true,
};

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const STEPS = ['complex', 'houses', 'residents', 'staff_roles', 'staff', 'request_types', 'news'];
const setup = (done: string[], complexId: number | null) => ({
  data: {
    steps: STEPS.map((key) => ({
      key,
      done: done.includes(key),
      count: done.includes(key) ? 1 : 0,
      ...(key === 'houses' ? { complex_id: complexId } : {}),
    })),
    tutorial_completed: false,
  },
});

let calls: { url: string; method: string; body?: unknown }[];
function mockApi(done: string[], opts: { roles?: { id: number; name: string }[]; complexId?: number | null; invite?: 'refuse' | 'accept' } = {}) {
  calls = [];
  let roles = opts.roles ?? [{ id: 3, name: 'Диспетчер' }];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ url: String(url), method, body });
    if (String(url).startsWith('/api/admin/setup/step/sendInvite')) {
      if (opts.invite === 'accept') return json({ data: { id: 50, ...body } });
      return json({ message: 'Вкажіть коректний e-mail.', errors: { email: ['Вкажіть коректний e-mail.'], name: ["Вкажіть ім'я."] } }, 422);
    }
    if (String(url).startsWith('/api/admin/setup')) return json(setup(done, opts.complexId === undefined ? 5 : opts.complexId));
    if (String(url).startsWith('/api/admin/staff_role') && method === 'POST') {
      roles = [...roles, { id: 9, name: body.name }];
      return json({ data: roles, id: 9 });
    }
    if (String(url).startsWith('/api/admin/staff')) return json({ data: { data: [] }, form: { roles, departures: [] } });
    if (String(url).startsWith('/api/admin/user')) return json({ message: 'ok', data: { ...user, tutorial_completed: true } });
    return json({ message: 'not found' }, 404);
  });
}

const renderPage = () =>
  render(
    <MemoryRouter initialEntries={['/Setup']}>
      <AdminContext i18nProvider={i18nProvider} authProvider={authProvider}>
        <SetupPage />
      </AdminContext>
    </MemoryRouter>,
  );

describe('«З чого почати?»', () => {
  beforeEach(() => localStorage.setItem('auth.token', 'T'));
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('ticks the steps whose data exists and shows the progress', async () => {
    mockApi(['complex', 'houses']);
    renderPage();
    expect((await screen.findByTestId('setup-progress')).textContent).toBe('2/7');
    expect(screen.getByTestId('setup-step-complex').dataset.done).toBe('yes');
    expect(screen.getByTestId('setup-step-residents').dataset.done).toBe('no');
    expect(screen.getByRole('link', { name: 'До мешканців' }).getAttribute('href')).toBe('/Members');
    expect(screen.getByRole('link', { name: 'Написати новину' }).getAttribute('href')).toBe('/News/create');
    expect(screen.getByRole('button', { name: 'Приховати «З чого почати?»' })).toBeTruthy();
  });

  it('offers «Завершити знайомство» when every step is done, and saves tutorial_completed', async () => {
    mockApi(STEPS);
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Завершити знайомство' }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/admin/user' && c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.url === '/api/admin/user' && c.method === 'POST')?.body).toEqual({ name: 'Адмін', tutorial_completed: true });
  });

  it('shows the whole message of each field the invitation was refused for', async () => {
    mockApi(['complex', 'houses']);
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Надіслати запрошення' }));
    // Each message once, under its field, and whole (not its first letter).
    expect((await screen.findByText('Вкажіть коректний e-mail.')).className).toContain('MuiFormHelperText');
    expect(screen.getByText("Вкажіть ім'я.").className).toContain('MuiFormHelperText');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('names the staff roles step, and leads «До будинків» to the houses of the complex the API names', async () => {
    mockApi(['complex']);
    renderPage();
    const roles = await screen.findByTestId('setup-step-staff_roles');
    expect(roles.textContent).toContain('Створіть ролі працівників');
    expect(screen.getByRole('link', { name: 'До ролей' }).getAttribute('href')).toBe('/Roles-departments');
    // The roles step comes before the invitation, which needs a role.
    const order = screen.getAllByTestId(/^setup-step-/).map((el) => el.dataset.testid);
    expect(order.indexOf('setup-step-staff_roles')).toBe(order.indexOf('setup-step-staff') - 1);
    expect(screen.getByRole('link', { name: 'До будинків' }).getAttribute('href')).toBe('/Complex/5/houses');
  });

  it('without a complex, the houses step asks for one first', async () => {
    mockApi([], { complexId: null });
    renderPage();
    expect((await screen.findByRole('link', { name: 'Спершу додайте комплекс' })).getAttribute('href')).toBe('/Complex');
  });

  it('with no staff role, offers to create the first one instead of an empty role select, then invites with it', async () => {
    mockApi(['complex', 'houses'], { roles: [], invite: 'accept' });
    renderPage();
    const form = await screen.findByTestId('setup-first-role');
    expect(screen.queryByRole('button', { name: 'Надіслати запрошення' })).toBeNull();
    expect(screen.queryByLabelText('Роль')).toBeNull();
    expect((screen.getByLabelText('Назва ролі') as HTMLInputElement).value).toBe('Диспетчер');
    fireEvent.change(screen.getByLabelText('Назва ролі'), { target: { value: 'Диспетчерка' } });
    fireEvent.click(screen.getByRole('button', { name: 'Створити роль' }));
    await waitFor(() => expect(screen.queryByTestId('setup-first-role')).toBeNull());
    expect(form.isConnected).toBe(false);
    const created = calls.find((c) => c.url === '/api/admin/staff_role' && c.method === 'POST');
    expect(created?.body).toMatchObject({ name: 'Диспетчерка', departure_id: null, permissions: { service_requests: ['view', 'create', 'edit'] } });

    // The new role is chosen in the invitation; the colleague works in every complex by default.
    fireEvent.change(screen.getByLabelText("Ім'я"), { target: { value: 'Ірина Шевчук' } });
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'iryna@test.ua' } });
    expect(screen.getByText('Диспетчерка')).toBeTruthy();
    expect(screen.getByText('Усі комплекси')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Надіслати запрошення' }));
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/api/admin/setup/step/sendInvite'))).toBe(true));
    expect(calls.find((c) => c.url.startsWith('/api/admin/setup/step/sendInvite'))?.body).toEqual({
      name: 'Ірина Шевчук',
      email: 'iryna@test.ua',
      role_id: 9,
      complex_ids: [1, 2],
    });
  });

  it('offers only the existing roles in the invitation', async () => {
    mockApi(['complex', 'houses', 'staff_roles'], { roles: [{ id: 3, name: 'Диспетчер' }] });
    renderPage();
    fireEvent.mouseDown(await screen.findByLabelText('Роль'));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options).toEqual(['Диспетчер']);
    expect(screen.queryByTestId('setup-first-role')).toBeNull();
  });

  it('hides the menu item once the tutorial is complete', () => {
    const labels = (tutorialCompleted: boolean) =>
      visibleMenu(menuFor('main'), { tutorialCompleted, can: () => true, routeExists: () => true }).map((e) => e.label);
    expect(labels(false)).toContain('app.menu.setup');
    expect(labels(true)).not.toContain('app.menu.setup');
  });
});
