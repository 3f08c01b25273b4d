import { render, screen, waitFor } from '@testing-library/react';
import { AdminContext, memoryStore, TestMemoryRouter, type DataProvider, type GetListParams } from 'react-admin';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FULL_RULES } from '../../contract/permissions';
import type { Announcement } from '../../contract/announcements';
import { i18nProvider } from '../../src/i18n';
import { ComplexSelectionProvider } from '../../src/layout/complexSelection';
import AnnouncementList from '../../src/resources/announcements/AnnouncementList';

const edition = vi.hoisted(() => ({ value: 'main' as 'main' | 'alt' }));
vi.mock('../../src/edition', () => ({
  get EDITION() {
    return edition.value;
  },
}));

const complexes = [
  { id: 1, name: 'ЖК «Липовий гай»' },
  { id: 2, name: 'ЖК «Сонячна гавань»' },
];
const houses = [
  { id: 11, complex_id: 1, address: 'м. Київ, вулиця Липова, 12, секція 1' },
  { id: 12, complex_id: 1, address: 'м. Київ, вулиця Липова, 12, секція 2' },
];

function buildAnnouncement(overrides: Partial<Announcement> = {}): Announcement {
  return {
    id: 1,
    title: 'Повірка лічильників води',
    body: 'Просимо забезпечити доступ.',
    valid_from: '2026-05-01T07:00:00.000Z',
    valid_until: '2026-05-08T07:00:00.000Z',
    state: 'active',
    author: 'Адміністратор',
    complex_ids: [1],
    house_ids: [],
    complexes: [complexes[0]],
    houses: [],
    created_at: '2026-04-30T10:00:00.000Z',
    updated_at: '2026-04-30T10:00:00.000Z',
    ...overrides,
  };
}

function setup() {
  const auth = {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getIdentity: async () => ({ id: 1, name: 'Адмін', fullName: 'Адмін', rules: FULL_RULES, complexes, reset_token: null, tutorial_completed: true }),
  };
  const getList = vi.fn(async (resource: string, params: GetListParams) => {
    if (resource === 'houses') return { data: houses.filter((h) => h.complex_id === params.filter?.complex_id), total: 2 };
    if (resource === 'announcements') return { data: [buildAnnouncement()], total: 1 };
    return { data: [], total: 0 };
  });
  const dataProvider = { getList } as unknown as DataProvider;
  render(
    <TestMemoryRouter initialEntries={['/Announcements']}>
      <AdminContext authProvider={auth} dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
        <ComplexSelectionProvider>
          <AnnouncementList />
        </ComplexSelectionProvider>
      </AdminContext>
    </TestMemoryRouter>,
  );
  const announcementCalls = () => getList.mock.calls.filter(([resource]) => resource === 'announcements').map(([, params]) => params.filter);
  return { announcementCalls };
}

afterEach(() => {
  edition.value = 'main';
  localStorage.clear();
});

describe('AnnouncementList', () => {
  it('asks for the announcements of the complex and addresses chosen in the header and shows them', async () => {
    const { announcementCalls } = setup();
    expect(await screen.findByText('Повірка лічильників води')).toBeTruthy();
    await waitFor(() => expect(announcementCalls()).toContainEqual({ complex_id: 1, house_ids: [11, 12] }));
    expect(screen.getByText('Діє')).toBeTruthy();
    expect(screen.getByText('01.05.2026 – 08.05.2026')).toBeTruthy();
    expect(screen.getByText('ЖК «Липовий гай»')).toBeTruthy();
  });

  it('is not narrowed in the alternative edition, which shows no selector', async () => {
    edition.value = 'alt';
    const { announcementCalls } = setup();
    expect(await screen.findByText('Повірка лічильників води')).toBeTruthy();
    expect(announcementCalls().every((f) => f === undefined || (f.complex_id === undefined && f.house_ids === undefined))).toBe(true);
  });
});
