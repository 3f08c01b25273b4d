import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { useUrlListState } from '../../src/resources/generic/urlListState';

const DEFAULTS = { sort: { field: 'created_at', order: 'DESC' as const }, perPage: 25 };

function renderList(url: string) {
  const wrapper = ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={[url]}>{children}</MemoryRouter>;
  return renderHook(() => ({ list: useUrlListState(DEFAULTS), location: useLocation() }), { wrapper });
}

describe('a list’s state in the address', () => {
  it('keeps both of two changes made before the list renders again (two filters clicked quickly)', () => {
    const { result } = renderList('/Requests?q=ліфт&page=3');
    act(() => {
      result.current.list.update({ filter: { stage: ['executor'] } });
      result.current.list.update({ filter: { overdue: '1' } });
    });
    const params = new URLSearchParams(result.current.location.search);
    expect(params.getAll('stage')).toEqual(['executor']);
    expect(params.get('overdue')).toBe('1');
    expect(params.get('q')).toBe('ліфт');
    // A filter change goes back to the first page.
    expect(params.get('page')).toBeNull();
    expect(result.current.list.all('stage')).toEqual(['executor']);
  });

  it('after a render, a change builds on the address as it is then', () => {
    const { result } = renderList('/Requests');
    act(() => result.current.list.update({ filter: { stage: ['new', 'done'] } }));
    act(() => result.current.list.update({ filter: { stage: undefined }, sort: { field: 'deadline', order: 'ASC' } }));
    expect(result.current.location.search).toBe('?sort=deadline&order=ASC');
    act(() => result.current.list.update({ page: 2 }));
    expect(result.current.list.page).toBe(2);
    expect(result.current.list.sort).toEqual({ field: 'deadline', order: 'ASC' });
  });
});
