import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, Form, memoryStore, TestMemoryRouter, type AuthProvider, type DataProvider, type GetListParams } from 'react-admin';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FULL_RULES } from '../../contract/permissions';
import type { Realty } from '../../contract/realty';
import { SELECTED_COMPLEX_KEY } from '../../src/authStorage';
import { i18nProvider } from '../../src/i18n';
import { ComplexSelectionProvider } from '../../src/layout/complexSelection';
import { shortAddress, unitLabel } from '../../src/lib/unitLabel';
import { UnitInput } from '../../src/resources/members/UnitInput';

const t = (key: string, options?: Record<string, unknown>) => i18nProvider.translate(key, options);

describe('unit labels', () => {
  it('name the kind and number first, then the house without the settlement', () => {
    const address = 'м. Київ, вулиця Липова, 12, секція 1';
    expect(unitLabel({ type: 'apartment', number: '12', address }, t)).toBe('кв. 12, вул. Липова, 12, секція 1');
    expect(unitLabel({ type: 'parking', number: '3', address }, t)).toBe('паркомісце 3, вул. Липова, 12, секція 1');
    expect(unitLabel({ type: 'storage', number: '7', address }, t)).toBe('комора 7, вул. Липова, 12, секція 1');
    expect(unitLabel({ type: 'commercial', number: '2' }, t)).toBe('комерційне прим. 2');
  });

  it('shorten the street type and keep an address they cannot read whole', () => {
    expect(shortAddress('м. Одеса, бульвар Французький, 60')).toBe('бульв. Французький, 60');
    expect(shortAddress('м. Харків, проспект Науки, 14А')).toBe('просп. Науки, 14А');
    expect(shortAddress('с. Липове, Садова, 3')).toBe('Садова, 3');
    expect(shortAddress('Київ')).toBe('Київ');
  });
});

const LYPOVYI = { id: 1, name: 'ЖК «Липовий гай»' };
const SONIACHNA = { id: 2, name: 'ЖК «Сонячна гавань»' };

const unit = (id: number, complexId: number, type: Realty['type'], number: string, address: string): Realty => ({
  id,
  house_id: complexId * 10,
  complex_id: complexId,
  address,
  type,
  number,
  area: null,
  floor: null,
  entrance: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

const UNITS = [
  unit(11, 1, 'apartment', '12', 'м. Київ, вулиця Липова, 5'),
  unit(12, 1, 'parking', '12', 'м. Київ, вулиця Липова, 5'),
  unit(13, 1, 'storage', '7', 'м. Київ, вулиця Липова, 5'),
  unit(21, 2, 'apartment', '12', 'м. Львів, вулиця Стрийська, 45'),
];

function setup(complexes = [LYPOVYI, SONIACHNA]) {
  const user = {
    id: 1,
    name: 'Адмін',
    email: 'a@b.ua',
    phone: null,
    reset_token: null,
    tutorial_completed: true,
    rules: FULL_RULES,
    complexes,
    two_factor: null,
    is_admin: true,
  };
  const auth: AuthProvider = {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    canAccess: async () => true,
    getIdentity: async () => ({ ...user, fullName: user.name }),
  };
  // The realty list as the API answers it: the complex filter and the search words (server-side).
  const getList = vi.fn(async (resource: string, params: GetListParams) => {
    if (resource !== 'realty') return { data: [], total: 0 };
    const q = String(params.filter?.q ?? '').toLowerCase();
    const data = UNITS.filter(
      (u) =>
        (!params.filter?.complex_id || u.complex_id === params.filter.complex_id) &&
        (!params.filter?.type || u.type === params.filter.type) &&
        (!q || `${u.number} ${u.address}`.toLowerCase().includes(q)),
    );
    return { data, total: data.length };
  });
  const getMany = vi.fn(async (_resource: string, params: { ids: unknown[] }) => ({ data: UNITS.filter((u) => params.ids.includes(u.id)) }));
  const getOne = vi.fn(async (_resource: string, params: { id: unknown }) => ({ data: UNITS.find((u) => u.id === Number(params.id))! }));
  const dataProvider = { getList, getMany, getOne } as unknown as DataProvider;
  return { auth, dataProvider, getList };
}

function renderPicker(opts: { defaultValue?: number; type?: Realty['type']; complexes?: (typeof LYPOVYI)[] } = {}) {
  const { auth, dataProvider, getList } = setup(opts.complexes);
  render(
    <TestMemoryRouter initialEntries={['/Members/1']}>
      <AdminContext authProvider={auth} dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
        <ComplexSelectionProvider>
          <Form defaultValues={{ realty_id: opts.defaultValue ?? null }}>
            <UnitInput source="realty_id" type={opts.type} label="resources.residents.fields.realty_id" />
          </Form>
        </ComplexSelectionProvider>
      </AdminContext>
    </TestMemoryRouter>,
  );
  return { getList };
}

/** The filters the picker asked the realty list for. */
const realtyCalls = (getList: ReturnType<typeof setup>['getList']) =>
  getList.mock.calls.filter(([resource]) => resource === 'realty').map(([, p]) => p.filter as Record<string, unknown>);

const optionTexts = async () => (await screen.findAllByRole('option')).map((o) => o.textContent);
const openOptions = async () => {
  const input = await screen.findByRole('combobox', { name: 'Приміщення' });
  fireEvent.mouseDown(input);
  fireEvent.focus(input);
  return input;
};

describe('the unit picker', () => {
  afterEach(() => localStorage.clear());

  it('offers the units of the header’s complex only, labelled by kind: flat, parking place and storeroom apart', async () => {
    localStorage.setItem(SELECTED_COMPLEX_KEY, '1');
    const { getList } = renderPicker();
    await openOptions();
    await waitFor(async () => expect(await optionTexts()).toEqual(['кв. 12, вул. Липова, 5', 'паркомісце 12, вул. Липова, 5', 'комора 7, вул. Липова, 5']));
    expect(realtyCalls(getList).every((f) => f.complex_id === 1)).toBe(true);
    expect(screen.getByText(/Пошук за номером, вулицею чи будинком/)).toBeTruthy();
  });

  it('searches on the server with what was typed, within the complex', async () => {
    localStorage.setItem(SELECTED_COMPLEX_KEY, '1');
    const { getList } = renderPicker();
    const input = await openOptions();
    fireEvent.change(input, { target: { value: 'кв. 12 липова' } });
    await waitFor(() => expect(realtyCalls(getList)).toContainEqual(expect.objectContaining({ q: 'кв. 12 липова', complex_id: 1 })));
  });

  it('lets another complex be chosen in the picker, and then offers its units', async () => {
    localStorage.setItem(SELECTED_COMPLEX_KEY, '1');
    const { getList } = renderPicker();
    const complex = within(await screen.findByTestId('unit-complex')).getByRole('combobox');
    expect(complex.textContent).toBe('ЖК «Липовий гай»');
    fireEvent.mouseDown(complex);
    fireEvent.click(await screen.findByRole('option', { name: 'ЖК «Сонячна гавань»' }));
    await waitFor(() => expect(realtyCalls(getList).at(-1)).toMatchObject({ complex_id: 2 }));
    await openOptions();
    await waitFor(async () => expect(await optionTexts()).toEqual(['кв. 12, вул. Стрийська, 45']));
  });

  it('keeps to the kind a field asks for (a vehicle’s parking place)', async () => {
    localStorage.setItem(SELECTED_COMPLEX_KEY, '1');
    const { getList } = renderPicker({ type: 'parking' });
    await openOptions();
    await waitFor(async () => expect(await optionTexts()).toEqual(['паркомісце 12, вул. Липова, 5']));
    expect(realtyCalls(getList).at(-1)).toMatchObject({ complex_id: 1, type: 'parking' });
  });

  it('opens an existing link in its unit’s complex, whatever the header shows', async () => {
    localStorage.setItem(SELECTED_COMPLEX_KEY, '1');
    renderPicker({ defaultValue: 21 });
    const input = (await screen.findByRole('combobox', { name: 'Приміщення' })) as HTMLInputElement;
    await waitFor(() => expect(input.value).toBe('кв. 12, вул. Стрийська, 45'));
    expect(within(screen.getByTestId('unit-complex')).getByRole('combobox').textContent).toBe('ЖК «Сонячна гавань»');
  });

  it('shows no complex choice to someone with one complex', async () => {
    renderPicker({ complexes: [LYPOVYI] });
    await openOptions();
    expect(screen.queryByTestId('unit-complex')).toBeNull();
  });
});
