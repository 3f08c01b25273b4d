import { useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import {
  Box,
  Button,
  Chip,
  Link,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TableSortLabel,
  TextField,
  LinearProgress,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import { useCanAccess, useDataProvider, useTranslate, type Identifier } from 'react-admin';
import { MEMBER_STATUSES, memberEntity, type Member, type MemberStatus } from '../../../contract/members';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { ResourceFormDialog } from '../../components/ResourceFormDialog';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { useComplexFilter, useComplexSelection } from '../../layout/complexSelection';
import { usePageHeader } from '../../layout/navigation';
import { useLatestFetch } from '../../lib/useLatestFetch';
import { TableSkeletonRows } from '../../components/TableSkeletonRows';
import { ImportDialog } from './ImportDialog';
import { MemberFields } from './MemberFields';
import { totalLabel } from '../../dataProvider/shapes';
import { LoadError } from '../../components/LoadError';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { QueryExport } from '../generic/ListExport';
import { useUrlListState } from '../generic/urlListState';

type SortField = 'name' | 'created_at';
const DEFAULTS = { sort: { field: 'name', order: 'ASC' as const }, perPage: 25 };

/**
 * /Members: the header's complex and address selection, search, status filter, sort and pages
 * (in the address: reload and Back keep them), the export of exactly this list, import.
 */
export default function MemberList() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const dataProvider = useDataProvider();
  const complexFilter = useComplexFilter();
  const { addressesPending } = useComplexSelection();
  const list = useUrlListState(DEFAULTS);
  const search = list.get('q');
  const status = (MEMBER_STATUSES as readonly string[]).includes(list.get('status')) ? (list.get('status') as MemberStatus) : '';
  const sort = { field: (list.sort.field === 'created_at' ? 'created_at' : 'name') as SortField, order: list.sort.order };
  const { page, perPage } = list;
  const [dialog, setDialog] = useState<Identifier | 'create' | null>(null);
  const [deleting, setDeleting] = useState<Member | null>(null);
  const [importing, setImporting] = useState(false);
  const { canAccess: canCreate } = useCanAccess({ resource: 'members', action: 'create' });
  const { canAccess: canEdit } = useCanAccess({ resource: 'members', action: 'edit' });
  const { canAccess: canDelete } = useCanAccess({ resource: 'members', action: 'delete' });
  usePageHeader(translate('resources.members.title'));

  const query = useDebouncedValue(search);
  const filter = useMemo(() => ({ ...complexFilter, ...(status ? { status } : {}), q: query }), [complexFilter, status, query]);
  const params = { filter, sort, pagination: { page, perPage } };
  const { data, error, isPending, refetch } = useLatestFetch(
    JSON.stringify(params),
    () => dataProvider.getList<Member>('members', params),
    // Wait for the selected complex's addresses, so that the first answer already has them.
    !addressesPending,
  );
  const rows = data?.data ?? [];
  const total = data?.total ?? 0;

  const onSort = (field: SortField) => list.update({ sort: { field, order: sort.field === field && sort.order === 'ASC' ? 'DESC' : 'ASC' } });
  const sortLabel = (field: SortField, key: string) => (
    <TableSortLabel active={sort.field === field} direction={sort.order === 'ASC' ? 'asc' : 'desc'} onClick={() => onSort(field)}>
      {translate(key)}
    </TableSortLabel>
  );

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { md: 'center' } }}>
        <TextField
          data-tour="search"
          value={search}
          onChange={(e) => list.update({ filter: { q: e.target.value } })}
          placeholder={translate('resources.members.filters.search')}
          size="small"
          slotProps={{
            input: { startAdornment: <SearchIcon fontSize="small" sx={{ mr: 1, color: 'text.secondary' }} /> },
            htmlInput: { 'aria-label': translate('resources.members.filters.search') },
          }}
          sx={{ flex: 1, minWidth: 260 }}
        />
        <TextField
          select
          size="small"
          label={translate('resources.members.filters.status')}
          value={status}
          onChange={(e) => list.update({ filter: { status: e.target.value } })}
          sx={{ width: { md: 200 }, flex: 'none' }}
        >
          <MenuItem value="">{translate('resources.members.filters.all_statuses')}</MenuItem>
          {MEMBER_STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {translate(`resources.members.statuses.${s}`)}
            </MenuItem>
          ))}
        </TextField>
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1, flex: 'none', '& .MuiButton-root': { whiteSpace: 'nowrap' } }}>
          <QueryExport path={memberEntity.path} filter={{ ...complexFilter, ...(status ? { status } : {}), q: search }} sort={sort} />
          {canCreate && (
            <Button variant="outlined" size="small" onClick={() => setImporting(true)}>
              {translate('resources.members.import.button')}
            </Button>
          )}
          {canCreate && (
            <Button variant="contained" size="small" startIcon={<AddIcon />} onClick={() => setDialog('create')} data-tour="add">
              {translate('app.actions.add')}
            </Button>
          )}
        </Stack>
      </Stack>
      {error ? <LoadError error={error} onRetry={() => void refetch()} sx={{ mb: 2 }} /> : null}
      <Paper variant="outlined">
        {isPending && <LinearProgress aria-label={translate('ra.page.loading')} />}
        <TableContainer>
          <Table size="small" aria-label={translate('resources.members.title')}>
            <TableHead>
              <TableRow>
                <TableCell>{sortLabel('name', 'resources.members.fields.name')}</TableCell>
                <TableCell>{translate('resources.members.fields.phone')}</TableCell>
                <TableCell>{translate('resources.members.fields.email')}</TableCell>
                <TableCell>{translate('resources.members.fields.units')}</TableCell>
                <TableCell>{translate('resources.members.fields.status')}</TableCell>
                <TableCell>{sortLabel('created_at', 'resources.members.fields.created_at')}</TableCell>
                <TableCell sx={{ width: 56 }} />
              </TableRow>
            </TableHead>
            <TableBody>
              {isPending && rows.length === 0 && <TableSkeletonRows rows={perPage} columns={7} />}
              {rows.map((m) => (
                <TableRow key={m.id} hover>
                  <TableCell>
                    <Link component={RouterLink} to={`/Members/${m.id}`} underline="hover">
                      {m.name}
                    </Link>
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{m.phone ?? '—'}</TableCell>
                  <TableCell>{m.email ?? '—'}</TableCell>
                  <TableCell>
                    <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', rowGap: 0.5 }}>
                      {m.units.map((u) => (
                        <Chip
                          key={u.resident_id}
                          size="small"
                          variant="outlined"
                          title={`${u.address} — ${u.role}`}
                          label={`${translate(`resources.realty.types.${u.type}`)} № ${u.number}`}
                        />
                      ))}
                    </Stack>
                  </TableCell>
                  <TableCell>
                    <Chip size="small" color={m.status === 'active' ? 'success' : 'default'} label={translate(`resources.members.statuses.${m.status}`)} />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{new Date(m.created_at).toLocaleDateString('uk-UA')}</TableCell>
                  <TableCell>
                    <RowActionsMenu
                      onOpen={() => navigate(`/Members/${m.id}`)}
                      onEdit={canEdit ? () => setDialog(m.id) : undefined}
                      onDelete={canDelete ? () => setDeleting(m) : undefined}
                    />
                  </TableCell>
                </TableRow>
              ))}
              {!isPending && !error && rows.length === 0 && (
                <TableRow>
                  <TableCell colSpan={7} sx={{ py: 4, textAlign: 'center', color: 'text.secondary' }}>
                    {translate('resources.members.empty')}
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <TablePagination
          component="div"
          count={total}
          page={Math.max(0, page - 1)}
          rowsPerPage={perPage}
          rowsPerPageOptions={[10, 25, 50, 100]}
          onPageChange={(_, p) => list.update({ page: p + 1 })}
          onRowsPerPageChange={(e) => list.update({ perPage: Number(e.target.value) })}
          labelRowsPerPage={translate('ra.navigation.page_rows_per_page')}
          labelDisplayedRows={({ from, to, count }) =>
            translate('ra.navigation.page_range_info', { offsetBegin: from, offsetEnd: to, total: totalLabel(count, data?.meta) })
          }
        />
      </Paper>
      <ResourceFormDialog<Member>
        resource="members"
        target={dialog}
        onClose={() => setDialog(null)}
        onSaved={refetch}
        defaultValues={{ status: 'active' } as Partial<Member>}
        title={{ create: 'resources.members.create_title', edit: 'resources.members.edit_title' }}
        notifications={{ created: 'resources.members.notifications.created', updated: 'resources.members.notifications.updated' }}
      >
        <MemberFields creating={dialog === 'create'} />
      </ResourceFormDialog>
      <ConfirmDelete
        resource="members"
        record={deleting}
        name={deleting?.name ?? ''}
        onClose={() => setDeleting(null)}
        onDeleted={refetch}
        successMessage="resources.members.notifications.deleted"
      />
      <ImportDialog open={importing} onClose={() => setImporting(false)} onImported={refetch} />
    </Box>
  );
}
