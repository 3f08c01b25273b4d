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
  rules: { staff: ['view', 'create'] },
  complexes: [],
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
const setup = (done: string[]) => ({
  data: {
    steps: ['complex', 'houses', 'residents', 'staff', 'request_types', 'news'].map((key) => ({
      key,
      done: done.includes(key),
      count: done.includes(key) ? 1 : 0,
    })),
    tutorial_completed: false,
  },
});

let calls: { url: string; method: string; body?: unknown }[];
function mockApi(done: string[]) {
  calls = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    calls.push({ url: String(url), method: init?.method ?? 'GET', body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (String(url).startsWith('/api/admin/setup/step/sendInvite'))
      return json({ message: 'Вкажіть коректний e-mail.', errors: { email: ['Вкажіть коректний e-mail.'], name: ["Вкажіть ім'я."] } }, 422);
    if (String(url).startsWith('/api/admin/setup')) return json(setup(done));
    if (String(url).startsWith('/api/admin/staff')) return json({ data: { data: [] }, form: { roles: [{ id: 3, name: 'Диспетчер' }], departures: [] } });
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
    expect((await screen.findByTestId('setup-progress')).textContent).toBe('2/6');
    expect(screen.getByTestId('setup-step-complex').dataset.done).toBe('yes');
    expect(screen.getByTestId('setup-step-residents').dataset.done).toBe('no');
    expect(screen.getByRole('link', { name: 'До мешканців' }).getAttribute('href')).toBe('/Members');
    expect(screen.getByRole('link', { name: 'Написати новину' }).getAttribute('href')).toBe('/News/create');
    expect(screen.getByRole('button', { name: 'Приховати «З чого почати?»' })).toBeTruthy();
  });

  it('offers «Завершити знайомство» when every step is done, and saves tutorial_completed', async () => {
    mockApi(['complex', 'houses', 'residents', 'staff', 'request_types', 'news']);
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

  it('hides the menu item once the tutorial is complete', () => {
    const labels = (tutorialCompleted: boolean) =>
      visibleMenu(menuFor('main'), { tutorialCompleted, can: () => true, routeExists: () => true }).map((e) => e.label);
    expect(labels(false)).toContain('app.menu.setup');
    expect(labels(true)).not.toContain('app.menu.setup');
  });
});
