import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, memoryStore, TestMemoryRouter, type AuthProvider, type DataProvider } from 'react-admin';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18nProvider } from '../../src/i18n';
import ComplexList from '../../src/resources/complexes/ComplexList';
import type { Complex } from '../../src/types';

const auth: AuthProvider = {
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  canAccess: async () => true,
};

const complex = (id: number, name: string, city: string, address: string) =>
  ({ id, name, city, address, description: '', created_at: '2026-01-15T10:00:00.000Z', updated_at: '2026-01-15T10:00:00.000Z' }) as unknown as Complex;

afterEach(() => vi.restoreAllMocks());

describe('complexes list CSV export (written in the browser)', () => {
  it('writes no cell that a spreadsheet would run as a formula', async () => {
    const records = [
      complex(1, '=HYPERLINK("http://evil.example","Докладніше")', '+Київ', '-1+cmd|\' /C calc\'!A0'),
      complex(2, '@SUM(1+1)', 'Львів', 'вул. Городоцька, 1'),
    ];
    const dataProvider = { getList: async () => ({ data: records, total: records.length }) } as unknown as DataProvider;
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:export';
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    render(
      <TestMemoryRouter initialEntries={['/Complex']}>
        <AdminContext authProvider={auth} dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()}>
          <ComplexList />
        </AdminContext>
      </TestMemoryRouter>,
    );
    expect(await screen.findByText('@SUM(1+1)')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Експорт/ }));
    await waitFor(() => expect(blobs).toHaveLength(1));
    const csv = await blobs[0].text();
    const cells = csv
      .split('\n')
      .slice(1)
      .flatMap((line) => line.match(/("([^"]|"")*"|[^,]*)(,|$)/g) ?? [])
      .map((cell) => cell.replace(/,$/, '').replace(/^"(.*)"$/, '$1').replace(/""/g, '"'))
      .filter(Boolean);
    expect(cells.filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);
    expect(cells).toContain('\'=HYPERLINK("http://evil.example","Докладніше")');
    expect(cells).toContain("'@SUM(1+1)");
    expect(cells).toContain("'+Київ");
    expect(cells).toContain("'-1+cmd|' /C calc'!A0");
    // Ordinary text stays as it was.
    expect(cells).toContain('Львів');
  });
});
