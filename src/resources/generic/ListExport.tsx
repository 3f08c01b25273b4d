import { useListContext } from 'react-admin';
import { ExportButtons } from '../../components/ExportButtons';
import { listQuery } from '../../dataProvider';

/**
 * The export of exactly what the list shows now: its search, filters and sort, through the
 * server; `filter` is the list's permanent filter (e.g. the complex chosen in the header).
 */
export function ListExport({ path, filter }: { path: string; filter?: object }) {
  const { filterValues, sort } = useListContext();
  const { page: _page, per_page: _perPage, ...query } = listQuery({ filter: { ...filterValues, ...filter }, sort });
  return <ExportButtons path={`${path}/export`} filter={query} />;
}
