import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { AdminContext, Form, memoryStore, TestMemoryRouter, type AuthProvider, type DataProvider } from 'react-admin';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FULL_RULES, type Rules } from '../../contract/permissions';
import type { Staff } from '../../contract/staff';
import { i18nProvider } from '../../src/i18n';
import { StaffFields } from '../../src/resources/staff/StaffFields';
import StaffShow from '../../src/resources/staff/StaffShow';

/**
 * The staff screens follow who may change sign-in data (docs/security.md, section 2): only an
 * admin edits a colleague's e-mail and phone, nobody their own there, and a password link to
 * someone who already has a password is an admin's to send.
 */
const ME = 7;
const colleague = (changes: Partial<Staff> = {}): Staff => ({
  id: 5,
  name: 'Оксана Коваленко',
  email: 'oksana@test.ua',
  phone: '+380501112233',
  is_admin: false,
  role_id: 1,
  role: 'Диспетчер',
  departure_id: null,
  departure: null,
  complex_ids: [1],
  complexes: [{ id: 1, name: 'ЖК Сонячний' }],
  can_manage: true,
  invitation_pending: false,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  ...changes,
});

function auth(isAdmin: boolean, rules: Rules = { staff: ['view', 'create', 'edit', 'delete'] }): AuthProvider {
  const user = {
    id: ME,
    name: 'Галина',
    email: 'g@b.ua',
    reset_token: null,
    tutorial_completed: true,
    rules: isAdmin ? FULL_RULES : rules,
    complexes: [{ id: 1, name: 'ЖК Сонячний' }],
    is_admin: isAdmin,
  };
  return {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getIdentity: async () => ({ ...user, fullName: user.name }),
  };
}

beforeEach(() => {
  // The staff form's role list (GET /staff's `form`).
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(JSON.stringify({ data: { data: [] }, form: { roles: [], departures: [] } }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        }),
    ),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderShow(record: Staff, isAdmin: boolean) {
  const dataProvider = { getOne: async () => ({ data: record }) } as unknown as DataProvider;
  return render(
    <TestMemoryRouter initialEntries={[`/Staff/${record.id}`]}>
      <AdminContext authProvider={auth(isAdmin)} dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
        <Routes>
          <Route path="/Staff/:id" element={<StaffShow />} />
        </Routes>
      </AdminContext>
    </TestMemoryRouter>,
  );
}

describe('/Staff/{id}: the password-link button', () => {
  it('a colleague with staff rights is offered to send a pending invitation again', async () => {
    renderShow(colleague({ invitation_pending: true }), false);
    expect(await screen.findByRole('button', { name: 'Надіслати запрошення ще раз' })).toBeTruthy();
  });

  it('but no password link to someone who has a password (the API would refuse it)', async () => {
    renderShow(colleague(), false);
    expect(await screen.findByRole('button', { name: 'Редагувати' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Надіслати запрошення ще раз' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Надіслати посилання для зміни пароля' })).toBeNull();
  });

  it('an admin may send that link, named for what it is', async () => {
    renderShow(colleague(), true);
    expect(await screen.findByRole('button', { name: 'Надіслати посилання для зміни пароля' })).toBeTruthy();
  });

  it('nobody sends one to themselves', async () => {
    renderShow(colleague({ id: ME, invitation_pending: true }), true);
    expect(await screen.findByRole('button', { name: 'Редагувати' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Надіслати/ })).toBeNull();
  });
});

function renderFields(record: Staff | undefined, isAdmin: boolean, onSubmit = vi.fn()) {
  return render(
    <TestMemoryRouter>
      <AdminContext authProvider={auth(isAdmin)} i18nProvider={i18nProvider} store={memoryStore()}>
        <Form record={record} onSubmit={onSubmit}>
          <StaffFields creating={record === undefined} />
          <button type="submit">OK</button>
        </Form>
      </AdminContext>
    </TestMemoryRouter>,
  );
}

const field = (name: RegExp) => screen.getByRole('textbox', { name }) as HTMLInputElement;
async function contacts() {
  // The identity arrives after the first render; the lock follows it.
  await screen.findByRole('textbox', { name: /E-mail/ });
  return { email: field(/E-mail/), phone: field(/Телефон/) };
}

describe('the staff form: sign-in e-mail and phone', () => {
  it('a colleague with staff rights sees a colleague’s e-mail and phone read-only, and why', async () => {
    renderFields(colleague(), false);
    await waitFor(async () => expect((await contacts()).email.readOnly).toBe(true));
    expect((await contacts()).phone.readOnly).toBe(true);
    expect(screen.getAllByText('E-mail і телефон колеги змінює лише адміністратор.').length).toBeGreaterThan(0);
  });

  it('read-only, they are still sent unchanged with the rest of the form (the API requires the e-mail)', async () => {
    const onSubmit = vi.fn();
    renderFields(colleague(), false, onSubmit);
    await contacts();
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ email: 'oksana@test.ua', phone: '+380501112233' });
  });

  it('an admin edits them, warned that the sessions end and the old address is told', async () => {
    renderFields(colleague(), true);
    await screen.findAllByText(/всі сеанси працівника завершаться/);
    const { email, phone } = await contacts();
    expect(email.readOnly).toBe(false);
    expect(phone.readOnly).toBe(false);
  });

  it('nobody edits their own here: the personal settings confirm it with a code', async () => {
    renderFields(colleague({ id: ME }), true);
    await screen.findAllByText(/особистих налаштуваннях/);
    expect((await contacts()).email.readOnly).toBe(true);
  });

  it('a new colleague’s e-mail and phone are typed in by whoever creates them', async () => {
    renderFields(undefined, false);
    const { email, phone } = await contacts();
    expect(email.readOnly).toBe(false);
    expect(phone.readOnly).toBe(false);
  });
});
