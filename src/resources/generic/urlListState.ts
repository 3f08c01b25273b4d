import { useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';

export interface ListSort {
  field: string;
  order: 'ASC' | 'DESC';
}

/** What a change of the list's state may set: a filter value (empty or an empty list removes it), the sort, the page, the page size. */
export interface ListStatePatch {
  filter?: Record<string, string | string[] | undefined>;
  sort?: ListSort;
  page?: number;
  perPage?: number;
}

const RESERVED = new Set(['sort', 'order', 'page', 'perPage']);

/** The address query after a change of the list's state (a copy; a filter change goes back to page 1). */
export function patchParams(params: URLSearchParams, patch: ListStatePatch): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [k, v] of Object.entries(patch.filter ?? {})) {
    next.delete(k);
    for (const one of Array.isArray(v) ? v : v ? [v] : []) next.append(k, one);
  }
  if (patch.sort) {
    next.set('sort', patch.sort.field);
    next.set('order', patch.sort.order);
  }
  if (patch.perPage) next.set('perPage', String(patch.perPage));
  const page = patch.page ?? (patch.filter || patch.sort || patch.perPage ? 1 : undefined);
  if (page === 1) next.delete('page');
  else if (page) next.set('page', String(page));
  return next;
}

/**
 * A custom list screen's filters, sort and page in the address, as the generic lists keep theirs,
 * so that reload, Back and a shared link keep them: `?q=ліфт&stage=new&stage=done&sort=deadline
 * &order=ASC&page=2&perPage=50` (a repeated key is a list). A filter change goes back to page 1.
 * The address is replaced, not pushed: Back leaves the list instead of undoing each keystroke.
 */
export function useUrlListState(defaults: { sort: ListSort; perPage: number }) {
  const [params, setParams] = useSearchParams();
  const key = params.toString();
  const state = useMemo(() => {
    const read = new URLSearchParams(key);
    const filter: Record<string, string[]> = {};
    for (const [k, v] of read) if (!RESERVED.has(k)) (filter[k] ??= []).push(v);
    const order = read.get('order');
    return {
      /** Every value of a key (a list filter). */
      all: (k: string) => filter[k] ?? [],
      /** The value of a key, '' when absent. */
      get: (k: string) => filter[k]?.[0] ?? '',
      sort: { field: read.get('sort') || defaults.sort.field, order: order === 'ASC' || order === 'DESC' ? order : defaults.sort.order } as ListSort,
      page: Math.max(1, Math.floor(Number(read.get('page'))) || 1),
      perPage: Math.min(100, Math.max(1, Math.floor(Number(read.get('perPage'))) || defaults.perPage)),
    };
  }, [key, defaults.sort.field, defaults.sort.order, defaults.perPage]);

  // Two changes before the list renders again (two filters clicked in quick succession, or a click
  // while the address is being written): the router hands both the address of the last render, so
  // the second would drop the first. Each change builds on the one written before it until then.
  const written = useRef<URLSearchParams | null>(null);
  useLayoutEffect(() => {
    written.current = null;
  }, [key]);
  const update = useCallback(
    (patch: ListStatePatch) =>
      setParams(
        (prev) => {
          const next = patchParams(written.current ?? prev, patch);
          written.current = next;
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  /** The filters and sort as a saved view keeps them: the address query without the page and page size, the sort spelt out. */
  const viewQuery = useMemo(() => toViewQuery(key, defaults.sort), [key, defaults.sort]);
  /** Opens the list with a saved view's filters and sort, on the first page, at the page size chosen. */
  const applyView = useCallback(
    (query: string) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(toViewQuery(query));
          const perPage = prev.get('perPage');
          if (perPage) next.set('perPage', perPage);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return useMemo(() => ({ ...state, update, viewQuery, applyView }), [state, update, viewQuery, applyView]);
}

/**
 * An address query without the page and the page size, its keys in order and the default sort
 * spelt out when it has none: equal views give equal strings.
 */
export function toViewQuery(query: string, defaultSort?: ListSort): string {
  const params = new URLSearchParams(query.replace(/^\?/, ''));
  params.delete('page');
  params.delete('perPage');
  if (defaultSort && !params.has('sort')) params.set('sort', defaultSort.field);
  if (defaultSort && !params.has('order')) params.set('order', defaultSort.order);
  params.sort();
  return params.toString();
}
