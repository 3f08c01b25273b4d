import { act, fireEvent, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import fakeDataProvider from 'ra-data-fakerest';
import type { ReactNode } from 'react';
import { AdminContext, memoryStore, TestMemoryRouter, type DataProvider } from 'react-admin';
import { Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ENTITIES } from '../../contract/entities';
import { AREAS, FULL_RULES, type Area, type Rules } from '../../contract/permissions';
import { departureEntity } from '../../contract/staff';
import { createAuthProvider } from '../../src/authProvider';
import { saveSession } from '../../src/authStorage';
import { AddButton } from '../../src/components/AddButton';
import { RowActionsMenu } from '../../src/components/RowActionsMenu';
import { RouteGuard } from '../../src/guards';
import { i18nProvider } from '../../src/i18n';
import { rightsOf, useRights } from '../../src/lib/useRights';
import ArticleShow from '../../src/resources/articles/ArticleShow';
import { EntityList } from '../../src/resources/generic/EntityList';
import { jsonResponse, userWith } from './identity';

/** The app's own auth provider over a fetch that answers `GET /user` with these rules (and counts the requests). */
function signedInAs(rules: Rules) {
  saveSession('T', 3600);
  const fetch = vi.fn(async (url: RequestInfo | URL) => {
    if (String(url).endsWith('/user')) return jsonResponse({ data: userWith(rules) });
    throw new Error(`unexpected request ${String(url)}`);
  });
  return { authProvider: createAuthProvider(fetch as unknown as typeof globalThis.fetch), fetch };
}

function renderApp(rules: Rules, ui: ReactNode, { dataProvider, url = '/' }: { dataProvider?: DataProvider; url?: string } = {}) {
  const { authProvider, fetch } = signedInAs(rules);
  render(
    <TestMemoryRouter initialEntries={[url]}>
      <AdminContext authProvider={authProvider} dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
        {ui}
      </AdminContext>
    </TestMemoryRouter>,
  );
  return { authProvider, fetch };
}

beforeEach(() => localStorage.clear());
afterEach(() => localStorage.clear());

describe('rightsOf', () => {
  const rules: Rules = { articles: ['view', 'edit'], members: ['view', 'create', 'edit', 'delete'], staff: ['view'] };

  it('answers the actions of an area from the rules, list and show being view', () => {
    expect(rightsOf(rules, 'articles')).toEqual({ canView: true, canList: true, canShow: true, canCreate: false, canEdit: true, canDelete: false });
    expect(rightsOf(rules, 'members')).toEqual({ canView: true, canList: true, canShow: true, canCreate: true, canEdit: true, canDelete: true });
    expect(rightsOf(rules, 'staff')).toEqual({ canView: true, canList: true, canShow: true, canCreate: false, canEdit: false, canDelete: false });
  });

  it('allows nothing in an area the rules do not name, without rules or without an area', () => {
    const none = { canView: false, canList: false, canShow: false, canCreate: false, canEdit: false, canDelete: false };
    expect(rightsOf(rules, 'houses')).toEqual(none);
    expect(rightsOf(undefined, 'articles')).toEqual(none);
    expect(rightsOf(FULL_RULES, undefined)).toEqual(none);
  });

  it('gives the answer the auth provider gives react-admin, for every area and every declared entity', async () => {
    const { authProvider } = signedInAs(rules);
    const actions = [
      ['list', 'canList'],
      ['show', 'canShow'],
      ['create', 'canCreate'],
      ['edit', 'canEdit'],
      ['delete', 'canDelete'],
    ] as const;
    const resources: [string, Area][] = [...AREAS.map((a) => [a, a] as [string, Area]), ...ENTITIES.map((e) => [e.name, e.area] as [string, Area])];
    for (const [resource, area] of resources)
      for (const [action, key] of actions)
        expect(rightsOf(rules, area)[key], `${resource} ${action}`).toBe(await authProvider.canAccess!({ resource, action }));
  });
});

describe('useRights', () => {
  it('allows nothing while the user is not known, then what the role allows', async () => {
    saveSession('T', 3600);
    let answer!: (r: Response) => void;
    const fetch = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    const authProvider = createAuthProvider(fetch as unknown as typeof globalThis.fetch);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <AdminContext authProvider={authProvider} store={memoryStore()}>
        {children}
      </AdminContext>
    );
    const { result } = renderHook(() => useRights('documents'), { wrapper });
    expect(result.current).toMatchObject({ isPending: true, canView: false, canCreate: false, canEdit: false, canDelete: false });
    await act(async () => answer(jsonResponse({ data: userWith({ documents: ['view', 'delete'] }) })));
    await waitFor(() => expect(result.current.isPending).toBe(false));
    expect(result.current).toEqual({ isPending: false, canView: true, canList: true, canShow: true, canCreate: false, canEdit: false, canDelete: true });
  });

  it('is there at a screen’s first render, and all its calls cost one GET /user and no canAccess', async () => {
    const seen: boolean[] = [];
    function Probe() {
      const { canCreate } = useRights('articles');
      seen.push(canCreate);
      return <span>{canCreate ? 'може створювати' : 'не може'}</span>;
    }
    const { authProvider, fetch } = signedInAs({ articles: ['view', 'create'], houses: ['view', 'edit', 'delete'] });
    const canAccess = vi.spyOn(authProvider, 'canAccess');
    render(
      <TestMemoryRouter initialEntries={['/News']}>
        <AdminContext authProvider={authProvider} i18nProvider={i18nProvider} store={memoryStore()}>
          <RouteGuard middleware={['auth', 'customAuth']} area="articles">
            <Probe />
            <AddButton area="articles" onClick={() => undefined} />
            <AddButton area="houses" onClick={() => undefined} />
            <RowActionsMenu area="houses" onEdit={() => undefined} onDelete={() => undefined} />
          </RouteGuard>
        </AdminContext>
      </TestMemoryRouter>,
    );
    expect(await screen.findByText('може створювати')).toBeTruthy();
    // The screen never showed «cannot» before «can»: no button appears a moment after the page.
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every(Boolean)).toBe(true);
    expect(screen.getAllByTestId('add-button')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Дії з записом' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Редагувати')).toBeTruthy();
    expect(within(menu).getByText('Видалити')).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(canAccess).not.toHaveBeenCalled();
  });
});

describe('what a role sees', () => {
  const article = {
    id: 5,
    title: 'Відключення води',
    body: '<p>Завтра з 9 до 12.</p>',
    status: 'published',
    publish_at: null,
    is_emergency: false,
    image_url: null,
    author: null,
    houses: [],
    complexes: [],
    complex_ids: [],
    house_ids: [],
    audience: 'all',
  };
  const showArticle = (rules: Rules) =>
    renderApp(
      rules,
      <Routes>
        <Route path="/News/:id" element={<ArticleShow />} />
      </Routes>,
      { url: '/News/5', dataProvider: { getOne: async () => ({ data: article }) } as unknown as DataProvider },
    );

  it('an article: edit and delete for a role with both rights', async () => {
    showArticle({ articles: ['view', 'edit', 'delete'] });
    expect(await screen.findByRole('heading', { name: 'Відключення води' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Редагувати' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Видалити' })).toBeTruthy();
  });

  it('an article: no delete button for a role without the delete right', async () => {
    showArticle({ articles: ['view', 'edit'] });
    expect(await screen.findByRole('heading', { name: 'Відключення води' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Редагувати' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Видалити' })).toBeNull();
  });

  it('an article: neither for a role that may only view', async () => {
    showArticle({ articles: ['view'] });
    expect(await screen.findByRole('heading', { name: 'Відключення води' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Редагувати' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Видалити' })).toBeNull();
  });

  const listDepartures = (rules: Rules) =>
    renderApp(rules, <EntityList entity={departureEntity} />, {
      dataProvider: fakeDataProvider({ 'staff-departures': [{ id: 1, name: 'Аварійна служба' }] }, false),
    });

  it('an entity list answers by the entity’s area: edit, no add or delete, for staff_roles view and edit', async () => {
    listDepartures({ staff_roles: ['view', 'edit'], staff: ['view', 'create', 'edit', 'delete'] });
    expect(await screen.findByText('Аварійна служба')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Додати' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Дії з записом' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Редагувати')).toBeTruthy();
    expect(within(menu).queryByText('Видалити')).toBeNull();
  });

  it('an entity list: add and delete for a role with every staff_roles right', async () => {
    listDepartures({ staff_roles: ['view', 'create', 'edit', 'delete'] });
    expect(await screen.findByText('Аварійна служба')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Додати' }).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: 'Дії з записом' }));
    expect(within(await screen.findByRole('menu')).getByText('Видалити')).toBeTruthy();
  });
});
