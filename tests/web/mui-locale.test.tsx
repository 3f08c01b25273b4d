import { render, screen } from '@testing-library/react';
import TablePagination from '@mui/material/TablePagination';
import { AdminContext } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { i18nProvider } from '../../src/i18n';
import { theme } from '../../src/theme';

describe("MUI's own words", () => {
  it('are Ukrainian in a table pagination that sets no labels, whatever the browser', () => {
    render(
      <AdminContext theme={theme} i18nProvider={i18nProvider}>
        <TablePagination component="div" count={42} page={0} rowsPerPage={10} rowsPerPageOptions={[10, 25]} onPageChange={() => {}} />
      </AdminContext>,
    );
    expect(screen.getByText('Рядків на сторінці:')).toBeTruthy();
    expect(screen.queryByText(/Rows per page/)).toBeNull();
    expect(screen.getByText(/1–10 з 42/)).toBeTruthy();
  });
});
