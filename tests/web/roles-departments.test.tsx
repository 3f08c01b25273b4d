import { render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, memoryStore, TestMemoryRouter, type AuthProvider, type DataProvider } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import { FULL_RULES, type Rules } from '../../contract/permissions';
import { i18nProvider } from '../../src/i18n';
import RolesDepartments from '../../src/resources/staff-roles/RolesDepartments';

const departures = [{ id: 1, name: 'Технічна служба', roles_count: 2, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' }];
const role = (id: number, name: string, permissions: Rules) => ({
  id,
  name,
  departure_id: 1,
  departure: 'Технічна служба',
  permissions,
  staff_count: 1,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
});
const roles = [role(1, 'Інженер', { complexes: ['view'] }), role(2, 'Головний інженер', { complexes: ['view', 'delete'] })];

const dataProvider = {
  getList: async (resource: string) => {
    const data = resource === 'staff-roles' ? roles : departures;
    return { data, total: data.length };
  },
} as unknown as DataProvider;

function renderAs(rules: Rules, isAdmin = false) {
  const user = { id: 7, name: 'Галина', email: 'g@b.ua', reset_token: null, tutorial_completed: true, rules, complexes: [], is_admin: isAdmin };
  const authProvider: AuthProvider = {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getIdentity: vi.fn(async () => ({ ...user, fullName: user.name })),
  };
  const view = render(
    <TestMemoryRouter initialEntries={['/Roles-departments']}>
      <AdminContext authProvider={authProvider} dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
        <RolesDepartments />
      </AdminContext>
    </TestMemoryRouter>,
  );
  return { ...view, identityLoaded: () => waitFor(() => expect(authProvider.getIdentity).toHaveBeenCalled()) };
}

const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr') as HTMLElement;

describe('/Roles-departments', () => {
  it('an admin gets add buttons, rename and delete for departments, and actions on every role', async () => {
    renderAs(FULL_RULES, true);
    // Rights of a role read in Ukrainian.
    expect(within(await rowOf('Головний інженер')).getByText('Комплекси: перегляд, видалення')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Додати' })).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Редагувати: Технічна служба' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Видалити: Технічна служба' })).toBeTruthy();
    expect(within(await rowOf('Інженер')).getByRole('button', { name: 'Дії з записом' })).toBeTruthy();
    expect(within(await rowOf('Головний інженер')).getByRole('button', { name: 'Дії з записом' })).toBeTruthy();
  });

  it('view-only: the lists and nothing to act with', async () => {
    const { identityLoaded } = renderAs({ staff_roles: ['view'], complexes: ['view', 'delete'] });
    await identityLoaded();
    await rowOf('Головний інженер');
    await screen.findByText('Технічна служба', { selector: '.MuiListItemText-primary' });
    expect(screen.queryByRole('button', { name: 'Додати' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Редагувати/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Видалити/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Дії з записом' })).toBeNull();
  });

  it('a staff user with full rights on roles cannot act on a role stronger than their own', async () => {
    renderAs({ staff_roles: ['view', 'create', 'edit', 'delete'], complexes: ['view'] });
    await waitFor(async () => expect(within(await rowOf('Інженер')).getByRole('button', { name: 'Дії з записом' })).toBeTruthy());
    expect(within(await rowOf('Головний інженер')).queryByRole('button', { name: 'Дії з записом' })).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Додати' })).toHaveLength(2);
  });
});
