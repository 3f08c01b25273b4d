import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, memoryStore, TestMemoryRouter, type AuthProvider } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { FULL_RULES } from '../../contract/permissions';
import { i18nProvider } from '../../src/i18n';
import { Menu } from '../../src/layout/Menu';

function authWith(tutorialCompleted: boolean): AuthProvider {
  const user = {
    id: 1,
    name: 'Адмін',
    email: 'a@b.ua',
    reset_token: null,
    tutorial_completed: tutorialCompleted,
    rules: FULL_RULES,
    complexes: [],
    is_admin: true,
  };
  return {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getIdentity: async () => ({ ...user, fullName: user.name }),
  };
}

function renderMenu(path: string, tutorialCompleted = true) {
  return render(
    <TestMemoryRouter initialEntries={[path]}>
      <AdminContext authProvider={authWith(tutorialCompleted)} i18nProvider={i18nProvider} store={memoryStore({ sidebar: { open: true } })}>
        <Menu routeExists={() => true} />
      </AdminContext>
    </TestMemoryRouter>,
  );
}

describe('<Menu>', () => {
  it('opens the group of the current page and highlights its item', async () => {
    renderMenu('/Realty/parking');
    const item = await screen.findByRole('link', { name: 'Паркінги' });
    expect(item.className).toContain('Mui-selected');
    expect(screen.getByRole('link', { name: 'Будинки' }).className).not.toContain('Mui-selected');
    expect(screen.queryByRole('link', { name: 'Перелік заявок' })).toBeNull();
  });

  it('keeps one group open at a time', async () => {
    renderMenu('/members');
    fireEvent.click(await screen.findByRole('button', { name: 'Заявки' }));
    expect(await screen.findByRole('link', { name: 'Перелік заявок' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Працівники' }));
    expect(await screen.findByRole('link', { name: 'Список працівників' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Перелік заявок' })).toBeNull());
  });

  it('shows "З чого почати?" only while the tutorial is not complete', async () => {
    const { unmount } = renderMenu('/members', false);
    expect(await screen.findByRole('link', { name: 'З чого почати?' })).toBeTruthy();
    unmount();
    renderMenu('/members', true);
    await screen.findByRole('link', { name: 'Мешканці' });
    expect(screen.queryByRole('link', { name: 'З чого почати?' })).toBeNull();
  });
});
