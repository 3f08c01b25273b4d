import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, memoryStore, TestMemoryRouter, type AuthProvider, type DataProvider } from 'react-admin';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18nProvider } from '../../src/i18n';
import ComplexList from '../../src/resources/complexes/ComplexList';
import type { Complex } from '../../src/types';

const download = vi.hoisted(() => vi.fn(async () => undefined));
vi.mock('../../src/lib/download', () => ({ downloadExport: download }));

const auth: AuthProvider = {
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  canAccess: async () => true,
};

const complex = (id: number, name: string, city: string) =>
  ({ id, name, city, address: '', description: '', created_at: '2026-01-15T10:00:00.000Z', updated_at: '2026-01-15T10:00:00.000Z' }) as unknown as Complex;

afterEach(() => vi.clearAllMocks());

/**
 * The export is the server's (GET /complexes/export, streamed, every row of the current filter;
 * formula-looking cells are neutralised there: tests/security/export-formulas.test.ts), not 1,000
 * rows written in the browser.
 */
describe('complexes list export', () => {
  it('asks the server for the export of the current search and sort', async () => {
    const records = [complex(1, 'ЖК Сонячний', 'Київ'), complex(2, 'ЖК Липки', 'Львів')];
    const dataProvider = { getList: async () => ({ data: records, total: records.length }) } as unknown as DataProvider;
    render(
      <TestMemoryRouter initialEntries={[`/Complex?filter=${encodeURIComponent(JSON.stringify({ q: 'ЖК' }))}`]}>
        <AdminContext authProvider={auth} dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
          <ComplexList />
        </AdminContext>
      </TestMemoryRouter>,
    );
    expect(await screen.findByText('ЖК Липки')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /CSV/ }));
    await waitFor(() => expect(download).toHaveBeenCalledTimes(1));
    const [path, format, filter] = download.mock.calls[0] as unknown as [string, string, Record<string, unknown>];
    expect(path).toBe('/complexes/export');
    expect(format).toBe('csv');
    expect(filter).toMatchObject({ search_query: 'ЖК', sort: 'id', order: 'asc' });
  });
});
