import type { TablePaginationProps } from '@mui/material';
import { Pagination, useListContext, useTranslate, type PaginationProps } from 'react-admin';
import { totalLabel } from '../dataProvider/shapes';

/**
 * react-admin's pagination with the list's total as the API gave it: «≈ 1 234 567» when it was
 * estimated (very many rows match, docs/decisions.md "List totals"), the exact number otherwise.
 */
export function ListPagination(props: PaginationProps) {
  const { meta } = useListContext();
  const translate = useTranslate();
  const labelDisplayedRows: TablePaginationProps['labelDisplayedRows'] = ({ from, to, count }) =>
    translate('ra.navigation.page_range_info', { offsetBegin: from, offsetEnd: to, total: totalLabel(count, meta) });
  // Passed on to MUI's TablePagination, after react-admin's own label.
  return <Pagination {...props} {...({ labelDisplayedRows } as PaginationProps)} />;
}
