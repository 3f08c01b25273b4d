import { useCallback, useMemo } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import { useDataProvider, useGetList, useRecordSelection, type FilterPayload, type ListControllerResult, type RaRecord, type SortPayload } from 'react-admin';
import { BULK_MAX } from '../../../contract/bulk';

export interface QueryListParams {
  resource: string;
  /** The API's filter (the screen's own filters and the header's selection). */
  filter: FilterPayload;
  sort: SortPayload;
  page: number;
  perPage: number;
  setSort: (sort: SortPayload) => void;
  setPage: (page: number) => void;
  setPerPage: (perPage: number) => void;
  /** False while what the filter needs is not known yet (the header's addresses). */
  enabled?: boolean;
}

const noop = () => undefined;

/**
 * A list screen that keeps its filters, sort and page itself (in the address: useUrlListState)
 * as react-admin's list context: its rows come from react-admin's `useGetList` (react-query's
 * cache: an older answer never replaces a newer one, and a bulk change shows at once), and its
 * selection is react-admin's, so `DataTable`, its column selector and the bulk actions work on
 * it as on a `<List>`. «Select all» takes up to BULK_MAX rows of the filter, as a bulk change does.
 */
export function useQueryList<R extends RaRecord = RaRecord>(p: QueryListParams): ListControllerResult<R> & { refetch: () => void } {
  const { resource, filter, sort, page, perPage, setSort, setPage, setPerPage, enabled = true } = p;
  const dataProvider = useDataProvider();
  const query = useGetList<R>(
    resource,
    { filter, sort, pagination: { page, perPage } },
    // No retry by itself: the screen says what went wrong and offers «Спробувати ще раз».
    { enabled, placeholderData: keepPreviousData, retry: false },
  );
  const { refetch: refetchQuery } = query;
  const refetch = useCallback(() => void refetchQuery(), [refetchQuery]);
  const [selectedIds, selection] = useRecordSelection<R>({ resource });
  const onSelectAll = useCallback(
    async ({ limit = BULK_MAX }: { limit?: number } = {}) => {
      const all = await dataProvider.getList<R>(resource, { filter, sort, pagination: { page: 1, perPage: Math.min(limit, BULK_MAX) } });
      selection.select(all.data.map((r) => r.id));
    },
    [dataProvider, resource, filter, sort, selection],
  );
  return useMemo(
    () =>
      ({
        resource,
        sort,
        setSort,
        page,
        perPage,
        setPage,
        setPerPage,
        filterValues: filter,
        displayedFilters: {},
        setFilters: noop,
        showFilter: noop,
        hideFilter: noop,
        data: query.data,
        total: query.total,
        meta: query.meta,
        error: query.error,
        isPending: query.isPending,
        isLoading: query.isLoading,
        isFetching: query.isFetching,
        isPaused: query.isPaused,
        isPlaceholderData: query.isPlaceholderData,
        refetch,
        hasNextPage: query.total !== undefined ? page * perPage < query.total : false,
        hasPreviousPage: page > 1,
        selectedIds,
        onSelect: selection.select,
        onToggleItem: selection.toggle,
        onUnselectItems: selection.clearSelection,
        onSelectAll: (options?: { limit?: number }) => void onSelectAll(options),
        exporter: false,
      }) as ListControllerResult<R> & { refetch: () => void },
    [resource, sort, setSort, page, perPage, setPage, setPerPage, filter, query, refetch, selectedIds, selection, onSelectAll],
  );
}
