import { useCallback, useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { Box, Button, Chip, Link, MenuItem, Paper, Stack, Table, TableBody, TablePagination, TextField, LinearProgress, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import PersonOffOutlined from '@mui/icons-material/PersonOffOutlined';
import HowToRegOutlined from '@mui/icons-material/HowToRegOutlined';
import { DataTable, ListContextProvider, ResourceContextProvider, useTranslate, type Identifier, type SortPayload } from 'react-admin';
import { MEMBER_STATUSES, memberEntity, type Member, type MemberStatus } from '../../../contract/members';
import { BulkSet } from '../../components/bulk';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { ResourceFormDialog } from '../../components/ResourceFormDialog';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { useComplexFilter, useComplexSelection } from '../../layout/complexSelection';
import { usePageHeader } from '../../layout/navigation';
import { TableSkeletonRows } from '../../components/TableSkeletonRows';
import { ImportDialog } from './ImportDialog';
import { MemberFields } from './MemberFields';
import { totalLabel } from '../../dataProvider/shapes';
import { LoadError } from '../../components/LoadError';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { QueryExport } from '../generic/ListExport';
import { useQueryList } from '../generic/queryList';
import { useUrlListState } from '../generic/urlListState';
import { useRights } from '../../lib/useRights';

type SortField = 'name' | 'created_at';
const DEFAULTS = { sort: { field: 'name', order: 'ASC' as const }, perPage: 25 };
const byName = (m: Member) => m.name;

/** The members list's bulk actions: the status of the selected members, undoable. */
function MemberBulkActions() {
  return (
    <>
      <BulkSet<Member>
        label="resources.members.bulk.activate"
        icon={<HowToRegOutlined />}
        data={{ status: 'active' }}
        successMessage="resources.members.bulk.changed"
        name={byName}
      />
      <BulkSet<Member>
        label="resources.members.bulk.deactivate"
        icon={<PersonOffOutlined />}
        data={{ status: 'inactive' }}
        successMessage="resources.members.bulk.changed"
        name={byName}
      />
    </>
  );
}

/**
 * /Members: the header's complex and address selection, search, status filter, sort and pages
 * (in the address: reload and Back keep them), the export of exactly this list, import.
 */
export default function MemberList() {
  const translate = useTranslate();
  const navigate = useNavigate();
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
  const { canCreate, canEdit, canDelete } = useRights('members');
  usePageHeader(translate('resources.members.title'));

  const query = useDebouncedValue(search);
  const filter = useMemo(() => ({ ...complexFilter, ...(status ? { status } : {}), q: query }), [complexFilter, status, query]);
  const { update } = list;
  const setSort = useCallback((s: SortPayload) => update({ sort: { field: s.field === 'created_at' ? 'created_at' : 'name', order: s.order } }), [update]);
  const setPage = useCallback((p: number) => update({ page: p }), [update]);
  const setPerPage = useCallback((n: number) => update({ perPage: n }), [update]);
  const listContext = useQueryList<Member>({
    resource: 'members',
    filter,
    sort,
    page,
    perPage,
    setSort,
    setPage,
    setPerPage,
    // Wait for the selected complex's addresses, so that the first answer already has them.
    enabled: !addressesPending,
  });
  const { error, isPending, isPlaceholderData, refetch, meta } = listContext;
  const total = listContext.total ?? 0;

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
      <ResourceContextProvider value="members">
        <ListContextProvider value={listContext}>
          <Paper variant="outlined" sx={{ position: 'relative' }}>
            {(isPending || isPlaceholderData) && <LinearProgress aria-label={translate('ra.page.loading')} />}
            {isPending ? (
              // The first page's height while it loads: the rows arriving do not push the pagination down.
              <Table size="small" aria-hidden>
                <TableBody>
                  <TableSkeletonRows rows={perPage} columns={7} />
                </TableBody>
              </Table>
            ) : (
              <DataTable<Member>
                aria-label={translate('resources.members.title')}
                rowClick={false}
                bulkActionButtons={canEdit ? <MemberBulkActions /> : false}
                empty={
                  error ? null : <Typography sx={{ py: 4, textAlign: 'center', color: 'text.secondary' }}>{translate('resources.members.empty')}</Typography>
                }
                sx={{ '& .RaDataTable-tableWrapper': { overflowX: 'auto' } }}
              >
                <DataTable.Col
                  source="name"
                  label="resources.members.fields.name"
                  render={(m) => (
                    <Link component={RouterLink} to={`/Members/${m.id}`} underline="hover">
                      {m.name}
                    </Link>
                  )}
                />
                <DataTable.Col
                  source="phone"
                  label="resources.members.fields.phone"
                  disableSort
                  render={(m) => <Box sx={{ whiteSpace: 'nowrap' }}>{m.phone ?? '—'}</Box>}
                />
                <DataTable.Col source="email" label="resources.members.fields.email" disableSort render={(m) => m.email ?? '—'} />
                <DataTable.Col
                  source="units"
                  label="resources.members.fields.units"
                  disableSort
                  render={(m) => (
                    <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', rowGap: 0.5 }}>
                      {(m as Member).units.map((u) => (
                        <Chip
                          key={u.resident_id}
                          size="small"
                          variant="outlined"
                          title={`${u.address} — ${u.role}`}
                          label={`${translate(`resources.realty.types.${u.type}`)} № ${u.number}`}
                        />
                      ))}
                    </Stack>
                  )}
                />
                <DataTable.Col
                  source="status"
                  label="resources.members.fields.status"
                  disableSort
                  render={(m) => (
                    <Chip size="small" color={m.status === 'active' ? 'success' : 'default'} label={translate(`resources.members.statuses.${m.status}`)} />
                  )}
                />
                <DataTable.Col
                  source="created_at"
                  label="resources.members.fields.created_at"
                  sortByOrder="DESC"
                  render={(m) => <Box sx={{ whiteSpace: 'nowrap' }}>{new Date(m.created_at).toLocaleDateString('uk-UA')}</Box>}
                />
                <DataTable.Col
                  label=""
                  disableSort
                  sx={{ width: 48 }}
                  render={(m) => (
                    <RowActionsMenu
                      onOpen={() => navigate(`/Members/${m.id}`)}
                      onEdit={canEdit ? () => setDialog(m.id) : undefined}
                      onDelete={canDelete ? () => setDeleting(m as Member) : undefined}
                    />
                  )}
                />
              </DataTable>
            )}
            <TablePagination
              component="div"
              count={total}
              page={Math.max(0, page - 1)}
              rowsPerPage={perPage}
              rowsPerPageOptions={[10, 25, 50, 100]}
              onPageChange={(_, p) => setPage(p + 1)}
              onRowsPerPageChange={(e) => setPerPage(Number(e.target.value))}
              labelRowsPerPage={translate('ra.navigation.page_rows_per_page')}
              labelDisplayedRows={({ from, to, count }) =>
                translate('ra.navigation.page_range_info', { offsetBegin: from, offsetEnd: to, total: totalLabel(count, meta) })
              }
            />
          </Paper>
        </ListContextProvider>
      </ResourceContextProvider>
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
