import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, memoryStore, TestMemoryRouter, TextInput, type AuthProvider, type DataProvider, type GetListParams } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import type { Member } from '../../contract/members';
import { ResourceFormDialog } from '../../src/components/ResourceFormDialog';
import { createDataProvider } from '../../src/dataProvider';
import { i18nProvider } from '../../src/i18n';
import MemberList from '../../src/resources/members/MemberList';

const auth: AuthProvider = {
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  canAccess: async () => true,
};

function buildMember(overrides: Partial<Member>): Member {
  return {
    id: 1,
    name: 'Коваленко Олена Петрівна',
    phone: '+380671234567',
    email: null,
    status: 'active',
    note: '',
    units: [],
    vehicles_count: 0,
    created_at: '2026-01-15T10:00:00.000Z',
    updated_at: '2026-01-15T10:00:00.000Z',
    ...overrides,
  };
}

/** Answers members searches when the test says so, in any order. */
function deferredMembers() {
  const pending = new Map<string, (members: Member[]) => void>();
  const getList = vi.fn((resource: string, params: GetListParams) => {
    if (resource !== 'members') return Promise.resolve({ data: [], total: 0 });
    const q = String(params.filter?.q ?? '');
    return new Promise((resolve) => pending.set(q, (data) => resolve({ data, total: data.length })));
  });
  const answer = async (q: string, data: Member[]) => {
    await waitFor(() => expect(pending.has(q), `a request for «${q}»`).toBe(true));
    await act(async () => pending.get(q)!(data));
  };
  return { dataProvider: { getList } as unknown as DataProvider, getList, answer };
}

/** The members list over the given data provider. */
function renderList(dataProvider: DataProvider, url = '/Members') {
  return render(
    <TestMemoryRouter initialEntries={[url]}>
      <AdminContext authProvider={auth} dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
        <MemberList />
      </AdminContext>
    </TestMemoryRouter>,
  );
}

describe('members list', () => {
  it('applies an answer only if it belongs to the latest fetch (lastFetchTs): a slow older search never replaces a newer one', async () => {
    const { dataProvider, getList, answer } = deferredMembers();
    renderList(dataProvider);
    await answer('', [buildMember({ id: 1, name: 'Перший Мешканець' })]);
    expect(await screen.findByText('Перший Мешканець')).toBeTruthy();

    const search = screen.getByRole('textbox', { name: /Пошук/ });
    // Two searches, each sent once the typing paused.
    fireEvent.change(search, { target: { value: 'Ко' } });
    await waitFor(() => expect(getList).toHaveBeenCalledTimes(2));
    fireEvent.change(search, { target: { value: 'Коваль' } });
    await waitFor(() => expect(getList).toHaveBeenCalledTimes(3));

    // The newer search answers first, then the older, slower one.
    await answer('Коваль', [buildMember({ id: 2, name: 'Коваль Ірина' })]);
    expect(await screen.findByText('Коваль Ірина')).toBeTruthy();
    await answer('Ко', [buildMember({ id: 3, name: 'Коваленко Застарілий' }), buildMember({ id: 4, name: 'Кобзар Застарілий' })]);

    const table = screen.getByRole('table', { name: 'Мешканці' });
    expect(within(table).getByText('Коваль Ірина')).toBeTruthy();
    expect(within(table).queryByText('Коваленко Застарілий')).toBeNull();
    expect(within(table).queryByText('Кобзар Застарілий')).toBeNull();
    expect(within(table).getAllByRole('row')).toHaveLength(2);
  });

  it('sends a search once the typing pauses: seven letters typed quickly are one request', async () => {
    const { dataProvider, getList, answer } = deferredMembers();
    renderList(dataProvider);
    await answer('', [buildMember({ id: 1, name: 'Перший Мешканець' })]);
    const search = screen.getByRole('textbox', { name: /Пошук/ });
    let typed = '';
    for (const letter of 'Коваль ') {
      typed += letter;
      fireEvent.change(search, { target: { value: typed } });
    }
    expect((search as HTMLInputElement).value).toBe('Коваль ');
    await answer('Коваль ', [buildMember({ id: 2, name: 'Коваль Ірина' })]);
    expect(await screen.findByText('Коваль Ірина')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(getList.mock.calls.map(([, p]) => (p as GetListParams).filter?.q)).toEqual(['', 'Коваль ']);
  });

  it('opens with the search, status, sort and page of the address (reload and Back keep them) and exports that list', async () => {
    const getList = vi.fn(async () => ({ data: [buildMember({ id: 5, name: 'Коваль Ірина' })], total: 60 }));
    renderList({ getList } as unknown as DataProvider, '/Members?q=Коваль&status=inactive&sort=created_at&order=DESC&page=2&perPage=50');
    expect(await screen.findByText('Коваль Ірина')).toBeTruthy();
    expect(getList.mock.calls[0]).toEqual([
      'members',
      expect.objectContaining({
        filter: expect.objectContaining({ q: 'Коваль', status: 'inactive' }),
        sort: { field: 'created_at', order: 'DESC' },
        pagination: { page: 2, perPage: 50 },
      }),
    ]);
    expect((screen.getByRole('textbox', { name: /Пошук/ }) as HTMLInputElement).value).toBe('Коваль');
    expect(screen.getByRole('button', { name: /Експорт CSV/ })).toBeTruthy();
    // A new filter starts again from the first page.
    fireEvent.change(screen.getByRole('textbox', { name: /Пошук/ }), { target: { value: 'Коваленко' } });
    await waitFor(() =>
      expect(getList.mock.calls.at(-1)).toEqual([
        'members',
        expect.objectContaining({ filter: expect.objectContaining({ q: 'Коваленко' }), pagination: { page: 1, perPage: 50 } }),
      ]),
    );
  });

  it('shows rows, units and statuses in Ukrainian', async () => {
    const { dataProvider, answer } = deferredMembers();
    renderList(dataProvider);
    await answer('', [
      buildMember({
        status: 'inactive',
        units: [
          {
            resident_id: 9,
            realty_id: 5,
            house_id: 1,
            complex_id: 1,
            address: 'м. Київ, вулиця Липова, 12',
            type: 'apartment',
            number: '15',
            role_id: 1,
            role: 'Власник',
            ownership_share: '1',
          },
        ],
      }),
    ]);
    expect(await screen.findByText('Квартира № 15')).toBeTruthy();
    expect(screen.getByText('Неактивний')).toBeTruthy();
    expect(screen.getByText('15.01.2026')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Коваленко Олена Петрівна' }).getAttribute('href')).toBe('/Members/1');
  });
});

describe('resident form', () => {
  it('sends the value of a role_id option object', async () => {
    const fetchMock = vi.fn(async (_url: string, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body ?? '{}'));
      return new Response(JSON.stringify({ data: { id: 7, ...body } }), { status: 200, headers: { 'Content-Type': 'application/json' } });
    });
    const dataProvider = createDataProvider(fetchMock as unknown as typeof fetch);
    render(
      <TestMemoryRouter initialEntries={['/Members/1']}>
        <AdminContext authProvider={auth} dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
          <ResourceFormDialog
            resource="residents"
            target="create"
            onClose={() => undefined}
            defaultValues={{ member_id: 1, realty_id: 5, role_id: { value: 3, label: 'Співвласник' } }}
            title={{ create: 'resources.residents.create_title', edit: 'resources.residents.edit_title' }}
            notifications={{ created: 'resources.residents.notifications.created', updated: 'resources.residents.notifications.updated' }}
          >
            <TextInput source="ownership_share" label="resources.residents.fields.ownership_share" />
          </ResourceFormDialog>
        </AdminContext>
      </TestMemoryRouter>,
    );
    fireEvent.change(await screen.findByRole('textbox', { name: 'Частка у власності' }), { target: { value: '1/2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Зберегти' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/admin/residents');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ member_id: 1, realty_id: 5, role_id: 3, ownership_share: '1/2' });
  });
});
