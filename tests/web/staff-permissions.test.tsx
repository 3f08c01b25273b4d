import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, Form, memoryStore, TestMemoryRouter, type AuthProvider } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import { FULL_RULES, type Rules } from '../../contract/permissions';
import { AddButton } from '../../src/components/AddButton';
import { RowActionsMenu } from '../../src/components/RowActionsMenu';
import { createDataProvider } from '../../src/dataProvider';
import { itemAdapters, listAdapters } from '../../src/dataProvider/shapes';
import { saveSession } from '../../src/authStorage';
import { i18nProvider } from '../../src/i18n';
import { Menu } from '../../src/layout/Menu';
import { PermissionMatrixInput, toggleRight } from '../../src/resources/staff-roles/PermissionMatrix';

function authWith(rules: Rules, isAdmin = false): AuthProvider {
  const user = { id: 7, name: 'Оксана', email: 'o@b.ua', reset_token: null, tutorial_completed: true, rules, complexes: [], is_admin: isAdmin };
  return {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getIdentity: async () => ({ ...user, fullName: user.name }),
  };
}

function renderAs(rules: Rules, ui: React.ReactNode, path = '/') {
  return render(
    <TestMemoryRouter initialEntries={[path]}>
      <AdminContext authProvider={authWith(rules)} i18nProvider={i18nProvider} store={memoryStore({ sidebar: { open: true } })}>
        {ui}
      </AdminContext>
    </TestMemoryRouter>,
  );
}

async function openRowMenu() {
  fireEvent.click(await screen.findByRole('button', { name: 'Дії з записом' }));
  return screen.findByRole('menu');
}

describe('row actions follow the role', () => {
  it('shows open, edit and delete when the role allows all of them', async () => {
    renderAs({ staff: ['view', 'edit', 'delete'] }, <RowActionsMenu area="staff" onOpen={() => {}} onEdit={() => {}} onDelete={() => {}} />);
    await openRowMenu();
    expect(screen.getByRole('menuitem', { name: 'Відкрити' })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: 'Редагувати' })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: 'Видалити' })).toBeTruthy();
  });

  it('hides delete for a role without delete, and the click never reaches the handler', async () => {
    const onDelete = vi.fn();
    renderAs({ staff: ['view', 'edit'] }, <RowActionsMenu area="staff" onOpen={() => {}} onEdit={() => {}} onDelete={onDelete} />);
    await openRowMenu();
    expect(screen.getByRole('menuitem', { name: 'Редагувати' })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: 'Видалити' })).toBeNull();
    expect(onDelete).not.toHaveBeenCalled();
  });

  it('rights on another area do not count', async () => {
    renderAs({ houses: ['view', 'edit', 'delete'], staff: ['view'] }, <RowActionsMenu area="staff" onOpen={() => {}} onEdit={() => {}} onDelete={() => {}} />);
    await openRowMenu();
    expect(screen.queryByRole('menuitem', { name: 'Редагувати' })).toBeNull();
    expect(screen.queryByRole('menuitem', { name: 'Видалити' })).toBeNull();
  });

  it('renders no dropdown at all when nothing is left to do', async () => {
    renderAs({ staff: ['view'] }, <RowActionsMenu area="staff" onEdit={() => {}} onDelete={() => {}} />);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Дії з записом' })).toBeNull());
  });
});

describe('the add button follows the role', () => {
  it('shows «Додати» only with the create right', async () => {
    const { unmount } = renderAs({ service_request_types: ['view', 'create'] }, <AddButton area="service_request_types" onClick={() => {}} />);
    expect(await screen.findByRole('button', { name: 'Додати' })).toBeTruthy();
    unmount();
    renderAs({ service_request_types: ['view', 'edit', 'delete'] }, <AddButton area="service_request_types" onClick={() => {}} />);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Додати' })).toBeNull());
  });
});

describe('the staff menu', () => {
  it('shows «Ролі працівників», «Список працівників» and «Типи заявок» as the rules allow', async () => {
    const { unmount } = renderAs(FULL_RULES, <Menu />, '/staff');
    expect(await screen.findByRole('link', { name: 'Список працівників' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ролі працівників' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Заявки' }));
    expect(await screen.findByRole('link', { name: 'Типи заявок' })).toBeTruthy();
    unmount();

    renderAs({ staff: ['view'], complexes: ['view'] }, <Menu />, '/staff');
    expect(await screen.findByRole('link', { name: 'Список працівників' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Ролі працівників' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Заявки' })).toBeNull();
  });
});

describe('permission matrix', () => {
  it('any right brings view with it; taking view away takes all', () => {
    expect(toggleRight({}, 'houses', 'delete', true)).toEqual({ houses: ['view', 'delete'] });
    expect(toggleRight({ houses: ['view', 'delete'] }, 'houses', 'edit', true)).toEqual({ houses: ['view', 'edit', 'delete'] });
    expect(toggleRight({ houses: ['view', 'edit'] }, 'houses', 'edit', false)).toEqual({ houses: ['view'] });
    expect(toggleRight({ houses: ['view', 'edit'], staff: ['view'] }, 'houses', 'view', false)).toEqual({ staff: ['view'] });
  });

  it('edits the form value by area and action, and disables what the editor cannot grant', async () => {
    const submitted = vi.fn();
    renderAs(
      FULL_RULES,
      <Form record={{ permissions: { complexes: ['view'] } }} onSubmit={submitted}>
        <PermissionMatrixInput source="permissions" limit={{ complexes: ['view', 'edit'], houses: ['view'] }} />
        <button type="submit">OK</button>
      </Form>,
    );
    const complexesEdit = (await screen.findByRole('checkbox', { name: 'Комплекси: Редагування' })) as HTMLInputElement;
    expect((screen.getByRole('checkbox', { name: 'Комплекси: Перегляд' }) as HTMLInputElement).checked).toBe(true);
    expect(complexesEdit.checked).toBe(false);
    expect((screen.getByRole('checkbox', { name: 'Комплекси: Видалення' }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Працівники: Перегляд' }) as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(complexesEdit);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Будинки: Перегляд' }));
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(submitted).toHaveBeenCalled());
    expect(submitted.mock.calls[0][0].permissions).toEqual({ complexes: ['view', 'edit'], houses: ['view'] });
  });
});

describe('roles and departments answer the whole list', () => {
  const list = [
    { id: 3, name: 'Бухгалтер' },
    { id: 5, name: 'Диспетчер' },
  ];
  it('reads the list from data and picks the changed record by id', () => {
    expect(listAdapters.data_list({ data: list, form: { departures: [] } })).toEqual({ data: list, total: 2 });
    expect(itemAdapters.list_id({ data: list, id: 5 })).toEqual(list[1]);
  });

  it('create returns the new record; getOne finds a role in the list', async () => {
    saveSession('token', 3600);
    const fetchImpl = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      const body =
        init?.method === 'POST' ? { data: [...list, { id: 9, name: 'Інженер' }], form: { departures: [] }, id: 9 } : { data: list, form: { departures: [] } };
      expect(String(url)).toBe('/api/admin/staff_role');
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    });
    const dp = createDataProvider(fetchImpl as typeof fetch);
    expect((await dp.create('staff-roles', { data: { name: 'Інженер' } })).data).toEqual({ id: 9, name: 'Інженер' });
    expect((await dp.getOne('staff-roles', { id: 3 })).data).toEqual(list[0]);
    await expect(dp.getOne('staff-roles', { id: 404 })).rejects.toMatchObject({ status: 404 });
  });
});
