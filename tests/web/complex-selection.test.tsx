import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { useLocation, type NavigateFunction } from 'react-router-dom';
import { AdminContext, memoryStore, TestMemoryRouter, type AuthProvider, type DataProvider, type GetListParams } from 'react-admin';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FULL_RULES } from '../../contract/permissions';
import { SELECTED_COMPLEX_KEY } from '../../src/authStorage';
import { Layout } from '../../src/layout/Layout';
import { i18nProvider } from '../../src/i18n';
import { en } from '../../src/i18n/en';
import { uk } from '../../src/i18n/uk';
import {
  AddressSelector,
  ComplexSelectionProvider,
  ComplexSelector,
  HeaderSelectors,
  sectionRoot,
  useComplexFilter,
  useComplexSelection,
  type HeaderSelectorsProps,
} from '../../src/layout/complexSelection';

// The build's edition, switchable per test (the selectors read EDITION when they render).
const edition = vi.hoisted(() => ({ value: 'main' as 'main' | 'alt' }));
vi.mock('../../src/edition', () => ({
  get EDITION() {
    return edition.value;
  },
}));

type Complex = { id: number; name: string };
type House = { id: number; complex_id: number; address: string };

const LYPOVYI: Complex = { id: 1, name: 'ЖК Липовий гай' };
const DUBOVYI: Complex = { id: 2, name: 'ЖК Дубовий' };
const KLENOVYI: Complex = { id: 3, name: 'ЖК Кленовий' };
const THREE = [LYPOVYI, DUBOVYI, KLENOVYI];

/** `count` houses of a complex, ids complexId*100+i, addresses already in ascending order. */
function housesOf(complexId: number, count: number): House[] {
  return Array.from({ length: count }, (_, i) => ({
    id: complexId * 100 + i + 1,
    complex_id: complexId,
    address: `К${complexId}, вул. Липова, ${String(i + 1).padStart(2, '0')}`,
  }));
}

function makeAuth(complexes: Complex[]) {
  const user = {
    id: 1,
    name: 'Адмін',
    email: 'a@b.ua',
    phone: null,
    reset_token: null,
    tutorial_completed: true,
    rules: FULL_RULES,
    complexes: [...complexes],
    two_factor: null,
    is_admin: true,
  };
  const snapshot = () => ({ ...user, complexes: [...user.complexes] });
  const auth = {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getIdentity: vi.fn(async () => ({ ...snapshot(), fullName: user.name })),
    refreshUser: vi.fn(async () => snapshot()),
  } satisfies AuthProvider & { refreshUser: unknown };
  return { auth, user };
}

function makeData(houses: House[]) {
  const getList = vi.fn(async (resource: string, params: GetListParams) => {
    if (resource !== 'houses') return { data: [], total: 0 };
    const data = houses.filter((h) => h.complex_id === params.filter?.complex_id);
    return { data, total: data.length };
  });
  return { getList } as unknown as DataProvider & { getList: typeof getList };
}

function Probe() {
  const filter = useComplexFilter();
  const { pathname } = useLocation();
  const { selectComplex, complexId } = useComplexSelection();
  return (
    <>
      <output data-testid="filter">{JSON.stringify(filter)}</output>
      <output data-testid="selected">{complexId ?? ''}</output>
      <output data-testid="path">{pathname}</output>
      <button type="button" onClick={() => selectComplex(KLENOVYI.id)}>
        pick-3
      </button>
    </>
  );
}

interface Setup {
  path?: string;
  complexes?: Complex[];
  houses?: House[];
  selectors?: ReactNode;
  props?: HeaderSelectorsProps;
}

let navigate: NavigateFunction = () => undefined;

function setup({ path = '/News', complexes = THREE, houses = [...housesOf(1, 3), ...housesOf(2, 2), ...housesOf(3, 1)], selectors, props }: Setup = {}) {
  const { auth, user } = makeAuth(complexes);
  const data = makeData(houses);
  const view = render(
    <TestMemoryRouter initialEntries={[path]} navigateCallback={(n) => (navigate = n)}>
      <AdminContext authProvider={auth} dataProvider={data} i18nProvider={i18nProvider} store={memoryStore()}>
        <ComplexSelectionProvider>
          {selectors ?? <HeaderSelectors {...props} />}
          <Probe />
        </ComplexSelectionProvider>
      </AdminContext>
    </TestMemoryRouter>,
  );
  return { ...view, auth, user, data };
}

const complexButton = () => screen.findByRole('button', { name: /^Комплекс / });
const addressButton = () => screen.findByRole('button', { name: /^Адреси / });
const filter = () => JSON.parse(screen.getByTestId('filter').textContent ?? '{}');
const path = () => screen.getByTestId('path').textContent;
const selected = () => screen.getByTestId('selected').textContent;

async function complexShown(name: string) {
  await waitFor(() => expect(screen.getByRole('button', { name: /^Комплекс / }).textContent).toBe(name));
}

async function addressLabelShown(text: string) {
  await waitFor(() => expect(screen.getByTestId('address-selector-label').textContent).toBe(text));
}

async function chooseComplex(name: string) {
  fireEvent.click(await complexButton());
  const menu = await screen.findByRole('menu', { name: 'Комплекс' });
  fireEvent.click(within(menu).getByRole('menuitemradio', { name }));
  await waitFor(() => expect(screen.queryByRole('menu', { name: 'Комплекс' })).toBeNull());
}

async function openAddresses() {
  // Openable once the complex is known and its houses have loaded.
  await waitFor(async () => expect((await addressButton()).getAttribute('aria-disabled')).toBeNull());
  fireEvent.click(await addressButton());
  return screen.findByRole('menu', { name: 'Адреси' });
}

beforeEach(() => {
  localStorage.clear();
  edition.value = 'main';
});

describe('complex selection: saved complex', () => {
  it('reuses the saved complex while the user still has it', async () => {
    localStorage.setItem(SELECTED_COMPLEX_KEY, '2');
    setup();
    await complexShown('ЖК Дубовий');
    expect(localStorage.getItem(SELECTED_COMPLEX_KEY)).toBe('2');
  });

  it('falls back to the first complex when the saved one is gone, and saves it', async () => {
    localStorage.setItem(SELECTED_COMPLEX_KEY, '99');
    setup();
    await complexShown('ЖК Липовий гай');
    await waitFor(() => expect(localStorage.getItem(SELECTED_COMPLEX_KEY)).toBe('1'));
  });

  it('selects and saves the first complex when nothing was saved', async () => {
    setup({ complexes: [DUBOVYI, KLENOVYI] });
    await complexShown('ЖК Дубовий');
    await waitFor(() => expect(localStorage.getItem(SELECTED_COMPLEX_KEY)).toBe('2'));
  });

  it('persists nothing but the selected complex id', async () => {
    setup();
    await complexShown('ЖК Липовий гай');
    await addressLabelShown('К1, вул. Липова, 01 (+2)');
    expect(Object.keys(localStorage)).toEqual([SELECTED_COMPLEX_KEY]);
  });
});

describe('complex selection: choosing', () => {
  it('saves and selects the chosen complex', async () => {
    setup();
    await complexShown('ЖК Липовий гай');
    await chooseComplex('ЖК Кленовий');
    await complexShown('ЖК Кленовий');
    expect(localStorage.getItem(SELECTED_COMPLEX_KEY)).toBe('3');
    await waitFor(() => expect(filter().complex_id).toBe(3));
  });

  it('marks the selected complex in the menu', async () => {
    localStorage.setItem(SELECTED_COMPLEX_KEY, '2');
    setup();
    await complexShown('ЖК Дубовий');
    fireEvent.click(await complexButton());
    const menu = await screen.findByRole('menu', { name: 'Комплекс' });
    expect(within(menu).getByRole('menuitemradio', { name: 'ЖК Дубовий' }).getAttribute('aria-checked')).toBe('true');
    expect(within(menu).getByRole('menuitemradio', { name: 'ЖК Липовий гай' }).getAttribute('aria-checked')).toBe('false');
  });

  it('works from the keyboard', async () => {
    const user = userEvent.setup();
    setup();
    await complexShown('ЖК Липовий гай');
    (await complexButton()).focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu', { name: 'Комплекс' });
    expect(document.activeElement).toBe(within(menu).getByRole('menuitemradio', { name: 'ЖК Липовий гай' }));
    await user.keyboard('{ArrowDown}{Enter}');
    await complexShown('ЖК Дубовий');
    expect(localStorage.getItem(SELECTED_COMPLEX_KEY)).toBe('2');
  });
});

describe('complex selection: a complex is added', () => {
  it('reloads the user and selects the newest complex', async () => {
    const { auth, user } = setup({ complexes: [LYPOVYI, DUBOVYI] });
    await complexShown('ЖК Липовий гай');
    const added = { id: 7, name: 'ЖК Новий' };
    user.complexes.push(added);
    await act(async () => {
      window.dispatchEvent(new CustomEvent('complexAdded', { detail: added }));
    });
    await complexShown('ЖК Новий');
    expect(auth.refreshUser).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(SELECTED_COMPLEX_KEY)).toBe('7');
    fireEvent.click(await complexButton());
    const menu = await screen.findByRole('menu', { name: 'Комплекс' });
    expect(
      within(menu)
        .getAllByRole('menuitemradio')
        .map((i) => i.textContent),
    ).toEqual(['ЖК Липовий гай', 'ЖК Дубовий', 'ЖК Новий']);
  });

  it('makes the selector usable once a second complex exists', async () => {
    const { user } = setup({ complexes: [LYPOVYI] });
    await complexShown('ЖК Липовий гай');
    expect((await complexButton()).getAttribute('aria-haspopup')).toBeNull();
    user.complexes.push(DUBOVYI);
    await act(async () => {
      window.dispatchEvent(new CustomEvent('complexAdded', { detail: DUBOVYI }));
    });
    await complexShown('ЖК Дубовий');
    expect((await complexButton()).getAttribute('aria-haspopup')).toBe('menu');
  });
});

describe('complex selection: back to the section root', () => {
  it.each([
    ['/News/5', '/News'],
    ['/news/edit/5', '/News'],
    ['/Requests/12', '/Requests'],
    ['/members/3/show', '/Members'],
    ['/ANNOUNCEMENTS/create', '/Announcements'],
    ['/voting/9', '/Voting'],
    ['/Events/1/edit', '/Events'],
  ])('from %s to %s when the complex changes', async (from, to) => {
    setup({ path: from });
    await complexShown('ЖК Липовий гай');
    expect(path()).toBe(from);
    await chooseComplex('ЖК Дубовий');
    await waitFor(() => expect(path()).toBe(to));
  });

  it('does not move when the complex is only being restored on load', async () => {
    localStorage.setItem(SELECTED_COMPLEX_KEY, '3');
    setup({ path: '/News/5' });
    await complexShown('ЖК Кленовий');
    await addressLabelShown('К3, вул. Липова, 01');
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(path()).toBe('/News/5');
  });

  it('stays put outside the sections', async () => {
    setup({ path: '/Complex/5' });
    await waitFor(() => expect(selected()).toBe('1'));
    fireEvent.click(screen.getByRole('button', { name: 'pick-3' }));
    await waitFor(() => expect(selected()).toBe('3'));
    expect(path()).toBe('/Complex/5');
  });

  it('maps paths to their section root', () => {
    expect(sectionRoot('/news')).toBe('/News');
    expect(sectionRoot('/Newsletter/1')).toBeUndefined();
    expect(sectionRoot('/dashboard_old/complex')).toBeUndefined();
    expect(sectionRoot('/')).toBeUndefined();
  });
});

describe('complex selector: when it cannot open', () => {
  it('opens with several complexes (control)', async () => {
    setup();
    await complexShown('ЖК Липовий гай');
    fireEvent.click(await complexButton());
    expect(await screen.findByRole('menu', { name: 'Комплекс' })).toBeTruthy();
  });

  it('does not open with a single complex', async () => {
    setup({ complexes: [DUBOVYI] });
    await complexShown('ЖК Дубовий');
    const button = await complexButton();
    fireEvent.click(button);
    fireEvent.keyDown(button, { key: 'Enter' });
    await act(async () => undefined);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button.getAttribute('aria-disabled')).toBe('true');
  });

  it('does not open when disabled', async () => {
    setup({ props: { disabled: true } });
    await complexShown('ЖК Липовий гай');
    const button = await complexButton();
    expect((button as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(button);
    await act(async () => undefined);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('does not open when read-only', async () => {
    setup({ selectors: <ComplexSelector readOnly /> });
    await complexShown('ЖК Липовий гай');
    fireEvent.click(await complexButton());
    await act(async () => undefined);
    expect(screen.queryByRole('menu')).toBeNull();
  });
});

describe('address selector', () => {
  it('loads the houses of the selected complex, sorted by address, all at once', async () => {
    const { data } = setup();
    await addressLabelShown('К1, вул. Липова, 01 (+2)');
    const houseCalls = data.getList.mock.calls.filter(([resource]) => resource === 'houses');
    expect(houseCalls.at(-1)?.[1]).toMatchObject({
      filter: { complex_id: 1 },
      pagination: { page: 1, perPage: 1000 },
      sort: { field: 'address', order: 'ASC' },
    });
  });

  it('preselects all addresses when a complex has at most 20', async () => {
    setup({ houses: housesOf(1, 20) });
    await addressLabelShown('К1, вул. Липова, 01 (+19)');
    const menu = await openAddresses();
    const items = within(menu).getAllByRole('menuitemcheckbox');
    expect(items).toHaveLength(20);
    expect(items.every((i) => i.getAttribute('aria-checked') === 'true')).toBe(true);
  });

  it('preselects only the first address when a complex has more than 20', async () => {
    setup({ houses: housesOf(1, 21) });
    await addressLabelShown('К1, вул. Липова, 01');
    const menu = await openAddresses();
    const checked = within(menu)
      .getAllByRole('menuitemcheckbox')
      .filter((i) => i.getAttribute('aria-checked') === 'true');
    expect(checked.map((i) => i.textContent)).toEqual(['К1, вул. Липова, 01']);
    expect(filter().house_ids).toEqual([101]);
  });

  it('applies the preselection of the newly selected complex', async () => {
    setup({ houses: [...housesOf(1, 2), ...housesOf(2, 25)] });
    await addressLabelShown('К1, вул. Липова, 01 (+1)');
    await chooseComplex('ЖК Дубовий');
    await addressLabelShown('К2, вул. Липова, 01');
    expect(filter()).toEqual({ complex_id: 2, house_ids: [201] });
  });

  it("labels the first selected address plus (+N), and 'Виберіть' when none is selected", async () => {
    setup({ houses: housesOf(1, 4) });
    await addressLabelShown('К1, вул. Липова, 01 (+3)');
    const menu = await openAddresses();
    fireEvent.click(within(menu).getByRole('menuitemcheckbox', { name: 'К1, вул. Липова, 01' }));
    await addressLabelShown('К1, вул. Липова, 02 (+2)');
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Жодного' }));
    await addressLabelShown('Виберіть');
    fireEvent.click(within(menu).getByRole('menuitemcheckbox', { name: 'К1, вул. Липова, 03' }));
    await addressLabelShown('К1, вул. Липова, 03');
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Усі' }));
    await addressLabelShown('К1, вул. Липова, 01 (+3)');
  });

  it("has 'Select' as the English placeholder", () => {
    expect(uk.app.selector.select).toBe('Виберіть');
    expect(en.app.selector.select).toBe('Select');
  });

  it('keeps the selection per complex while the user moves around', async () => {
    setup({ houses: [...housesOf(1, 3), ...housesOf(2, 2)] });
    await addressLabelShown('К1, вул. Липова, 01 (+2)');
    const menu = await openAddresses();
    fireEvent.click(within(menu).getByRole('menuitemcheckbox', { name: 'К1, вул. Липова, 02' }));
    await addressLabelShown('К1, вул. Липова, 01 (+1)');
    fireEvent.keyDown(menu, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());

    await chooseComplex('ЖК Дубовий');
    await addressLabelShown('К2, вул. Липова, 01 (+1)');
    const menu2 = await openAddresses();
    fireEvent.click(within(menu2).getByRole('menuitemcheckbox', { name: 'К2, вул. Липова, 01' }));
    await addressLabelShown('К2, вул. Липова, 02');
    fireEvent.keyDown(menu2, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());

    await chooseComplex('ЖК Липовий гай');
    await addressLabelShown('К1, вул. Липова, 01 (+1)');
    await chooseComplex('ЖК Дубовий');
    await addressLabelShown('К2, вул. Липова, 02');
    await chooseComplex('ЖК Липовий гай');
    await addressLabelShown('К1, вул. Липова, 01 (+1)');

    await act(async () => navigate('/Requests'));
    expect(path()).toBe('/Requests');
    await addressLabelShown('К1, вул. Липова, 01 (+1)');
    expect(filter()).toEqual({ complex_id: 1, house_ids: [101, 103] });
  });

  it('says so when the complex has no addresses', async () => {
    setup({ houses: [] });
    await addressLabelShown('Виберіть');
    const menu = await openAddresses();
    expect(within(menu).getByRole('menuitem', { name: 'Немає адрес' }).getAttribute('aria-disabled')).toBe('true');
  });
});

describe('dropdown height', () => {
  it('caps the complex menu at 400px', async () => {
    setup();
    await complexShown('ЖК Липовий гай');
    fireEvent.click(await complexButton());
    const menu = await screen.findByRole('menu', { name: 'Комплекс' });
    expect((menu.closest('.MuiPaper-root') as HTMLElement).style.maxHeight).toBe('400px');
  });

  it('caps the address menu at 400px', async () => {
    setup({ houses: housesOf(1, 30) });
    const menu = await openAddresses();
    expect((menu.closest('.MuiPaper-root') as HTMLElement).style.maxHeight).toBe('400px');
  });
});

describe('where the selectors show', () => {
  it.each(['/News', '/news/5', '/Requests', '/requests/12/edit', '/Members', '/announcements', '/Voting/3', '/EVENTS'])('on %s', async (at) => {
    setup({ path: at });
    expect(await screen.findByTestId('header-selectors')).toBeTruthy();
    await complexShown('ЖК Липовий гай');
    expect(await addressButton()).toBeTruthy();
  });

  it.each(['/', '/Complex', '/dashboard_old/complex', '/Newsletter', '/User', '/Realty/parking', '/Interview', '/Interview/4/users'])(
    'not on %s',
    async (at) => {
      setup({ path: at });
      await waitFor(() => expect(selected()).toBe('1'));
      expect(screen.queryByTestId('header-selectors')).toBeNull();
      expect(screen.queryByRole('button', { name: /^Комплекс/ })).toBeNull();
    },
  );

  it('follows the page as the user navigates', async () => {
    setup({ path: '/Complex' });
    await waitFor(() => expect(selected()).toBe('1'));
    expect(screen.queryByTestId('header-selectors')).toBeNull();
    await act(async () => navigate('/Events/2'));
    expect(await screen.findByTestId('header-selectors')).toBeTruthy();
    await waitFor(() => expect(filter().complex_id).toBe(1));
  });

  it('never in the alternative edition (EDITION)', async () => {
    edition.value = 'alt';
    setup({ path: '/News' });
    await waitFor(() => expect(selected()).toBe('1'));
    expect(screen.queryByTestId('header-selectors')).toBeNull();
    // Not shown, so the News list is not narrowed by the saved selection either.
    expect(filter()).toEqual({});
  });

  it('never in the alternative edition (prop)', async () => {
    setup({ path: '/News', props: { edition: 'alt' } });
    await waitFor(() => expect(filter().complex_id).toBe(1));
    expect(screen.queryByTestId('header-selectors')).toBeNull();
  });
});

describe('useComplexFilter', () => {
  it('gives the complex and the selected houses', async () => {
    localStorage.setItem(SELECTED_COMPLEX_KEY, '2');
    setup();
    await waitFor(() => expect(filter()).toEqual({ complex_id: 2, house_ids: [201, 202] }));
  });

  it('gives only the complex until its houses are known', async () => {
    const { auth } = makeAuth(THREE);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const data = {
      getList: vi.fn(async () => {
        await gate;
        return { data: housesOf(1, 2), total: 2 };
      }),
    } as unknown as DataProvider;
    render(
      <TestMemoryRouter initialEntries={['/News']}>
        <AdminContext authProvider={auth} dataProvider={data} i18nProvider={i18nProvider} store={memoryStore()}>
          <ComplexSelectionProvider>
            <AddressSelector />
            <Probe />
          </ComplexSelectionProvider>
        </AdminContext>
      </TestMemoryRouter>,
    );
    await waitFor(() => expect(filter()).toEqual({ complex_id: 1 }));
    await act(async () => release());
    await waitFor(() => expect(filter()).toEqual({ complex_id: 1, house_ids: [101, 102] }));
  });

  it('follows the address selection, including an empty one', async () => {
    setup({ houses: housesOf(1, 3) });
    await waitFor(() => expect(filter()).toEqual({ complex_id: 1, house_ids: [101, 102, 103] }));
    const menu = await openAddresses();
    fireEvent.click(within(menu).getByRole('menuitemcheckbox', { name: 'К1, вул. Липова, 01' }));
    await waitFor(() => expect(filter()).toEqual({ complex_id: 1, house_ids: [102, 103] }));
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Жодного' }));
    await waitFor(() => expect(filter()).toEqual({ complex_id: 1, house_ids: [] }));
  });

  it('is empty outside the provider', () => {
    function Outside() {
      return <output data-testid="outside">{JSON.stringify(useComplexFilter())}</output>;
    }
    render(
      <TestMemoryRouter initialEntries={['/News']}>
        <Outside />
      </TestMemoryRouter>,
    );
    expect(screen.getByTestId('outside').textContent).toBe('{}');
  });
});

describe('in the default layout', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('mounts the selection and shows the selectors in the header after the title', async () => {
    // Defined by vite.config.ts at build time; the footer shows them.
    vi.stubGlobal('__APP_VERSION__', '0.0.0');
    vi.stubGlobal('__BUILD_DATE__', '2025-01-01T00:00:00.000Z');
    localStorage.setItem(SELECTED_COMPLEX_KEY, '2');
    const { auth } = makeAuth(THREE);
    const data = makeData([...housesOf(1, 3), ...housesOf(2, 2)]);
    render(
      <TestMemoryRouter initialEntries={['/News/4']}>
        <AdminContext authProvider={auth} dataProvider={data} i18nProvider={i18nProvider} store={memoryStore()}>
          <Layout>
            <Probe />
          </Layout>
        </AdminContext>
      </TestMemoryRouter>,
    );
    await complexShown('ЖК Дубовий');
    await waitFor(() => expect(filter()).toEqual({ complex_id: 2, house_ids: [201, 202] }));
    const title = screen.getByTestId('header-title');
    const selectors = screen.getByTestId('header-selectors');
    expect(title.closest('header')).toBe(selectors.closest('header'));
    expect(title.compareDocumentPosition(selectors) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
