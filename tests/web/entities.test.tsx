import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import fakeDataProvider from 'ra-data-fakerest';
import { AdminContext, memoryStore, TestMemoryRouter } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { ENTITIES } from '../../contract/entities';
import { inputFields, listFields, type EntityDeclaration } from '../../contract/entity';
import { FULL_RULES } from '../../contract/permissions';
import { en } from '../../src/i18n/en';
import { i18nProvider } from '../../src/i18n';
import { MODULES } from '../../src/resources';
import { EntityList } from '../../src/resources/generic/EntityList';
import type { entityModule } from '../../src/resources/generic/entityModule';
import { parcelLockerEntity } from '../fixtures/parcelLockers';

/**
 * Every declared entity's generated screen, against an in-memory data provider: the list shows
 * the declared columns with Ukrainian labels and the records, the form has the declared inputs,
 * and the export and add buttons are there. The throwaway entity of tests/fixtures is among them:
 * a declaration alone gets its screen.
 */
const houses = [
  { id: 11, complex_id: 1, address: 'м. Київ, вулиця Липова, 12, секція 1' },
  { id: 12, complex_id: 2, address: 'м. Київ, вулиця Сонячна, 3' },
];
const complexes = [
  { id: 1, name: 'ЖК «Липовий гай»' },
  { id: 2, name: 'ЖК «Сонячна гавань»' },
];

const auth = {
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  canAccess: async () => true,
  getIdentity: async () => ({ id: 1, fullName: 'Адмін', rules: FULL_RULES, complexes, tutorial_completed: true }),
};

const ALL = [...(ENTITIES as readonly EntityDeclaration[]), parcelLockerEntity as EntityDeclaration];
/** Samples may name a record of another declared entity: record 1 of each, which every data set has. */
const refs = Object.fromEntries(ALL.map((e) => [e.name, 1]));

function recordOf(e: EntityDeclaration, id: number, unique: string) {
  const body = e.sample({ houseId: houses[0].id, complexId: complexes[0].id, unique, refs }) as Record<string, unknown>;
  return { id, ...body, address: houses[0].address, complex_id: 1, created_at: '2026-03-05T10:00:00.000Z', updated_at: '2026-03-05T10:00:00.000Z' };
}

function renderList(e: EntityDeclaration) {
  const records = [recordOf(e, 1, 'Перший'), recordOf(e, 2, 'Другий')];
  const others = Object.fromEntries(ALL.filter((o) => o !== e).map((o) => [o.name, [recordOf(o, 1, 'Інший')]]));
  const dataProvider = fakeDataProvider({ ...others, houses, complexes, [e.name]: records }, false);
  render(
    <TestMemoryRouter initialEntries={['/list']}>
      <AdminContext authProvider={auth} dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
        <EntityList entity={e} />
      </AdminContext>
    </TestMemoryRouter>,
  );
  return records;
}

describe.each(ALL.map((e) => [e.name, e] as const))('%s', (_name, e) => {
  it('lists the records under the declared columns, in Ukrainian', async () => {
    const records = renderList(e);
    const firstText = listFields(e).find(([, f]) => f.type === 'text' && f.input !== false)!;
    expect(await screen.findByText(String(records[0][firstText[0] as keyof (typeof records)[0]]))).toBeTruthy();
    const headers = screen
      .getAllByRole('columnheader')
      .map((h) => h.textContent?.trim())
      .filter(Boolean);
    expect(headers).toEqual(listFields(e).map(([, f]) => f.label));
    expect(screen.getByRole('button', { name: /Експорт CSV/i })).toBeTruthy();
  });

  it('opens the form with an input for every declared field', async () => {
    renderList(e);
    fireEvent.click(await screen.findByRole('button', { name: 'Додати' }));
    const dialog = await screen.findByRole('dialog');
    for (const [, field] of inputFields(e)) {
      await waitFor(() => expect(within(dialog).getAllByText(new RegExp(`^${field.label}`)).length, field.label).toBeGreaterThan(0));
    }
  });

  it.skipIf(e === parcelLockerEntity)('is a module of the app with the name and area of its declaration, and has English labels', () => {
    const modules = MODULES.filter((m) => m.resources.some((r) => r.name === e.name)) as ReturnType<typeof entityModule>[];
    // One screen: a module of its own in src/resources/index.ts, or the one its declaration's `screen` asks for.
    expect(modules, `a module in src/resources/index.ts or a declared screen for ${e.name}`).toHaveLength(1);
    const module = modules[0];
    if (module?.entity) expect({ name: module.entity.name, area: module.entity.area }).toEqual({ name: e.name, area: e.area });
    const english = (en.resources as Record<string, { fields?: Record<string, string> }>)[e.name]?.fields ?? {};
    expect(Object.keys(e.fields).filter((k) => !english[k])).toEqual([]);
  });

  it.skipIf(!e.screen)('has the words of its own screen in Ukrainian and in English', () => {
    const english = (en.resources as Record<string, Record<string, unknown>>)[e.name] ?? {};
    const texts = e.texts ?? ({} as Record<string, string>);
    for (const key of ['name', 'title', 'create_title', 'edit_title', 'empty', 'created'] as const) {
      expect(texts[key], `${e.name}: texts.${key} in the declaration`).toBeTruthy();
      const en = key === 'created' ? (english.notifications as Record<string, string> | undefined)?.created : english[key];
      expect(en, `${e.name}: resources.${e.name}.${key === 'created' ? 'notifications.created' : key} in src/i18n/en.ts`).toBeTruthy();
    }
    const hinted = Object.entries(e.fields).filter(([, f]) => f.hint);
    expect(hinted.filter(([k, f]) => typeof f.hint !== 'string' || !(english.hints as Record<string, string> | undefined)?.[k]).map(([k]) => k)).toEqual([]);
  });
});

it('says a total the API estimated is about that many («≈ 200 913»), and an exact one as it is', async () => {
  const e = ALL[0];
  const records = [recordOf(e, 1, 'Перший'), recordOf(e, 2, 'Другий')];
  const fake = fakeDataProvider({ houses, complexes, [e.name]: records }, false);
  const estimated = {
    ...fake,
    getList: async (resource: string, params: Parameters<typeof fake.getList>[1]) => ({
      ...(await fake.getList(resource, params)),
      total: 200_913,
      meta: { estimatedTotal: true },
    }),
  };
  const { unmount } = render(
    <TestMemoryRouter initialEntries={['/list']}>
      <AdminContext authProvider={auth} dataProvider={estimated} i18nProvider={i18nProvider} store={memoryStore()}>
        <EntityList entity={e} />
      </AdminContext>
    </TestMemoryRouter>,
  );
  expect(await screen.findByText(/з ≈\s200\s913/)).toBeTruthy();
  unmount();
  renderList(e);
  expect(await screen.findByText(/^1[–-]2 з 2$/)).toBeTruthy();
});

it('gives a declaration without words of its own plain Ukrainian ones, never a catalogue key', async () => {
  const e = parcelLockerEntity as EntityDeclaration;
  expect(e.texts).toBeUndefined();
  renderList(e);
  fireEvent.click(await screen.findByRole('button', { name: 'Додати' }));
  const dialog = await screen.findByRole('dialog');
  expect(within(dialog).getByText('Поштомати: новий запис')).toBeTruthy();
  expect(document.body.textContent).not.toMatch(/resources\./);
});
