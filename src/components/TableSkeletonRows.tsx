import { Skeleton, TableCell, TableRow } from '@mui/material';

/**
 * Placeholder rows while a table's first page loads: they hold the page's height, so the rows
 * arriving do not push the pagination and the footer down (a layout shift). `rowHeight` is a
 * loaded row's height (a small table with chips: 43 px).
 */
export function TableSkeletonRows({ rows, columns, rowHeight = 43 }: { rows: number; columns: number; rowHeight?: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, r) => (
        <TableRow key={r} aria-hidden sx={{ height: rowHeight }}>
          {Array.from({ length: columns }, (_, c) => (
            <TableCell key={c}>
              <Skeleton variant="text" />
            </TableCell>
          ))}
        </TableRow>
      ))}
    </>
  );
}
