import { useListContext, type SortPayload } from 'react-admin';
import { ExportButtons } from '../../components/ExportButtons';
import { listQuery } from '../../dataProvider';

/**
 * The export of exactly what the list shows now: its search, filters and sort, through the
 * server; `filter` is the list's permanent filter (e.g. the complex chosen in the header).
 */
export function ListExport({ path, filter }: { path: string; filter?: object }) {
  const { filterValues, sort } = useListContext();
  return <QueryExport path={path} filter={{ ...filterValues, ...filter }} sort={sort} />;
}

/** The same for a list screen of its own (a workflow screen), given its filter values (react-admin's: `q` is the search) and sort. */
export function QueryExport({ path, filter, sort }: { path: string; filter: object; sort: SortPayload }) {
  const { page: _page, per_page: _perPage, ...query } = listQuery({ filter, sort });
  return <ExportButtons path={`${path}/export`} filter={query} />;
}
