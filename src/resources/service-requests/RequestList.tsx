import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import {
  Box,
  Button,
  Chip,
  FormControlLabel,
  LinearProgress,
  Link,
  MenuItem,
  Paper,
  Stack,
  Switch,
  TablePagination,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import { ColumnsButton, DataTable, ListContextProvider, ResourceContextProvider, useTranslate, type SortPayload } from 'react-admin';
import { REQUEST_STAGES, serviceRequestEntity, type RequestStage, type ServiceRequest, type ServiceRequestForm } from '../../../contract/serviceRequests';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { UkDateField } from '../../components/inputs/DateInputs';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { useComplexFilter, useComplexSelection } from '../../layout/complexSelection';
import { usePageHeader } from '../../layout/navigation';
import { formatDate, formatDateTime } from '../../lib/dates';
import { useRights } from '../../lib/useRights';
import { preferencesKey } from '../../lib/appStore';
import { useCurrentUser } from '../../useCurrentUser';
import { useLiveEvents } from '../../lib/live';
import { requestApi } from './api';
import { STAGE_COLORS, STAGE_ICONS } from './StageChip';
import { StageChip } from './StageChip';
import { totalLabel } from '../../dataProvider/shapes';
import { LoadError } from '../../components/LoadError';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { QueryExport } from '../generic/ListExport';
import { useQueryList } from '../generic/queryList';
import { SavedViews, type BrowserViews } from '../generic/SavedViews';
import { patchParams, useUrlListState, type ListStatePatch } from '../generic/urlListState';
import { RequestBulkActions } from './RequestBulkActions';

type SortField = 'created_at' | 'deadline' | 'stage';

/** What a list view is: the filters and the sort (a saved view keeps them as the address query). */
export interface RequestFilters {
  search: string;
  stages: RequestStage[];
  typeId: string;
  responsibleId: string;
  performerId: string;
  createdFrom: string;
  createdTo: string;
  overdue: boolean;
  sort: { field: SortField; order: 'ASC' | 'DESC' };
}

export const EMPTY_FILTERS: RequestFilters = {
  search: '',
  stages: [],
  typeId: '',
  responsibleId: '',
  performerId: '',
  createdFrom: '',
  createdTo: '',
  overdue: false,
  sort: { field: 'created_at', order: 'DESC' },
};

const SORTS: readonly SortField[] = ['created_at', 'deadline', 'stage'];
const DEFAULTS = { sort: EMPTY_FILTERS.sort, perPage: 25 };
/**
 * The columns the list shows until the user chooses (the column selector, kept per user): these
 * fit 1280 px beside the sidebar without a sideways scroll.
 */
export const HIDDEN_BY_DEFAULT = ['responsible', 'created_at'];
/** The store key of the user's column choice (src/lib/appStore.ts). */
export const columnsKey = (userId: number | string) => preferencesKey(userId, 'service-requests.columns');
/** A word longer than its cell wraps rather than widen the table; the table scrolls in its frame, never the page. */
const REQUEST_TABLE_SX = {
  '& .RaDataTable-tableWrapper': { overflowX: 'auto' },
  '& td.column-text, & td.column-address, & td.column-type, & td.column-responsible, & td.column-performer': { overflowWrap: 'break-word' },
};

/**
 * The filters in the address, as the API names them, so that reload, Back, a shared link and the
 * dashboard's links (`?stage=new&stage=executor`, `?overdue=1`) open the list with them.
 */
function filtersFromUrl(list: ReturnType<typeof useUrlListState>): RequestFilters {
  const field = SORTS.find((s) => s === list.sort.field) ?? EMPTY_FILTERS.sort.field;
  return {
    search: list.get('q'),
    stages: list.all('stage').filter((s): s is RequestStage => (REQUEST_STAGES as readonly string[]).includes(s)),
    typeId: list.get('type_id'),
    responsibleId: list.get('responsible_id'),
    performerId: list.get('performer_id'),
    createdFrom: list.get('created_from'),
    createdTo: list.get('created_to'),
    overdue: list.get('overdue') === '1',
    sort: { field, order: list.sort.order },
  };
}
const filtersToUrl = (f: RequestFilters): ListStatePatch => ({
  filter: {
    q: f.search,
    stage: f.stages,
    type_id: f.typeId,
    responsible_id: f.responsibleId,
    performer_id: f.performerId,
    created_from: f.createdFrom,
    created_to: f.createdTo,
    overdue: f.overdue ? '1' : undefined,
  },
  sort: f.sort,
});

/** Where this browser kept the saved views before they moved to the server (moved once, then removed). */
export const VIEWS_KEY = 'requests.views';
const BROWSER_VIEWS: BrowserViews = {
  key: VIEWS_KEY,
  read: (stored) =>
    (Array.isArray(stored) ? (stored as { name?: unknown; filters?: Partial<RequestFilters> }[]) : []).flatMap((v) =>
      v && typeof v.name === 'string' && v.filters && typeof v.filters === 'object'
        ? [{ name: v.name, query: patchParams(new URLSearchParams(), filtersToUrl({ ...EMPTY_FILTERS, ...v.filters })).toString() }]
        : [],
    ),
};
const DATE_FILTER_SX = { width: 190, flex: 'none' };

/** The API's query for the filters, with the header's complex and address selection. */
export function toApiFilter(f: RequestFilters, complex: Record<string, unknown>) {
  return {
    ...complex,
    q: f.search,
    ...(f.stages.length ? { stage: f.stages } : {}),
    ...(f.typeId ? { type_id: f.typeId } : {}),
    ...(f.responsibleId ? { responsible_id: f.responsibleId } : {}),
    ...(f.performerId ? { performer_id: f.performerId } : {}),
    ...(f.createdFrom ? { created_from: f.createdFrom } : {}),
    ...(f.createdTo ? { created_to: f.createdTo } : {}),
    ...(f.overdue ? { overdue: 1 } : {}),
  };
}

/** /Requests: stage chips, filters, the header's complex and address selection, saved views, live updates. */
export default function RequestList() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { user } = useCurrentUser();
  const complexFilter = useComplexFilter();
  const { addressesPending } = useComplexSelection();
  const { canCreate, canEdit } = useRights('service_requests');
  const list = useUrlListState(DEFAULTS);
  const filters = useMemo(() => filtersFromUrl(list), [list]);
  const { page, perPage } = list;
  // The latest filters and address writer, so that `change` stays the same function (the date fields are costly to render).
  const latest = useRef({ filters, update: list.update });
  useLayoutEffect(() => {
    latest.current = { filters, update: list.update };
  }, [filters, list.update]);
  const [form, setForm] = useState<ServiceRequestForm | null>(null);
  const [deleting, setDeleting] = useState<ServiceRequest | null>(null);
  usePageHeader(translate('resources.service_requests.title'));

  useEffect(() => {
    requestApi.form().then(setForm, () => setForm(null));
  }, []);

  // Builds on the previous change even before the list has rendered it (two filters clicked quickly).
  const change = useCallback((patch: Partial<RequestFilters>) => {
    const next = { ...latest.current.filters, ...patch };
    latest.current.filters = next;
    latest.current.update(filtersToUrl(next));
  }, []);
  // Stable, so that the date fields (costly to render) skip the list's other changes.
  const changeCreatedFrom = useCallback((v: string | null) => change({ createdFrom: v ?? '' }), [change]);
  const changeCreatedTo = useCallback((v: string | null) => change({ createdTo: v ?? '' }), [change]);

  const search = useDebouncedValue(filters.search);
  const filter = useMemo(() => toApiFilter({ ...filters, search }, complexFilter as Record<string, unknown>), [filters, search, complexFilter]);
  const setSort = useCallback(
    (s: SortPayload) => change({ sort: { field: SORTS.find((f) => f === s.field) ?? EMPTY_FILTERS.sort.field, order: s.order } }),
    [change],
  );
  const { update } = list;
  const setPage = useCallback((p: number) => update({ page: p }), [update]);
  const setPerPage = useCallback((n: number) => update({ perPage: n }), [update]);
  const listContext = useQueryList<ServiceRequest>({
    resource: 'service-requests',
    filter,
    sort: filters.sort,
    page,
    perPage,
    setSort,
    setPage,
    setPerPage,
    enabled: !addressesPending,
  });
  const { error, isPending, isPlaceholderData, refetch, meta } = listContext;
  const total = listContext.total ?? 0;
  const storeKey = columnsKey(user?.id ?? 'anyone');

  // A change anywhere reloads the page of the list; bursts are folded into one reload.
  const pendingReload = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useLiveEvents((type) => {
    if (type === 'notification') return;
    clearTimeout(pendingReload.current);
    pendingReload.current = setTimeout(refetch, 250);
  });
  useEffect(() => () => clearTimeout(pendingReload.current), []);

  const toggleStage = (stage: RequestStage) =>
    change({ stages: filters.stages.includes(stage) ? filters.stages.filter((s) => s !== stage) : [...filters.stages, stage] });
  const staffSelect = (key: 'responsibleId' | 'performerId', label: string) => (
    <TextField
      select
      size="small"
      label={translate(label)}
      value={filters[key]}
      onChange={(e) => change({ [key]: e.target.value })}
      sx={{ width: 200, flex: 'none' }}
    >
      <MenuItem value="">{translate('resources.service_requests.filters.anyone')}</MenuItem>
      {(form?.responsible ?? []).map((s) => (
        <MenuItem key={s.id} value={String(s.id)}>
          {s.name}
        </MenuItem>
      ))}
    </TextField>
  );
  const dirty = JSON.stringify(filters) !== JSON.stringify(EMPTY_FILTERS);

  return (
    // One grid column that may shrink below the table's width: the table scrolls, the page does not.
    <Box sx={{ p: { xs: 1, sm: 2 }, display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)' }}>
      <Stack
        direction="row"
        spacing={1}
        sx={{ mb: 1.5, flexWrap: 'wrap', rowGap: 1, alignItems: 'center' }}
        role="group"
        aria-label={translate('resources.service_requests.fields.stage')}
      >
        {REQUEST_STAGES.map((stage) => {
          const on = filters.stages.includes(stage);
          return (
            <Chip
              key={stage}
              icon={STAGE_ICONS[stage]}
              label={translate(`resources.service_requests.stages.${stage}`)}
              color={STAGE_COLORS[stage]}
              variant={on ? 'filled' : 'outlined'}
              aria-pressed={on}
              onClick={() => toggleStage(stage)}
            />
          );
        })}
        <Box sx={{ flex: 1 }} />
        <SavedViews list="requests" query={list.viewQuery} defaultSort={DEFAULTS.sort} canSave={dirty} onApply={list.applyView} fromBrowser={BROWSER_VIEWS} />
        <ColumnsButton storeKey={storeKey} />
        <QueryExport path={serviceRequestEntity.path} filter={filter} sort={filters.sort} />
        {canCreate && (
          <Button variant="contained" size="small" startIcon={<AddIcon />} component={RouterLink} to="/Requests/create" data-tour="add">
            {translate('resources.service_requests.add')}
          </Button>
        )}
      </Stack>
      <Stack direction="row" useFlexGap spacing={1.5} sx={{ mb: 2, flexWrap: 'wrap', alignItems: 'center', '& .MuiFormControl-root': { my: 0 } }}>
        <TextField
          data-tour="search"
          value={filters.search}
          onChange={(e) => change({ search: e.target.value })}
          placeholder={translate('resources.service_requests.filters.search')}
          size="small"
          slotProps={{
            input: { startAdornment: <SearchIcon fontSize="small" sx={{ mr: 1, color: 'text.secondary' }} /> },
            htmlInput: { 'aria-label': translate('resources.service_requests.filters.search') },
          }}
          sx={{ flex: '1 1 100%' }}
        />
        <TextField
          select
          size="small"
          label={translate('resources.service_requests.fields.type_id')}
          value={filters.typeId}
          onChange={(e) => change({ typeId: e.target.value })}
          sx={{ width: 200, flex: 'none' }}
        >
          <MenuItem value="">{translate('resources.service_requests.filters.all_types')}</MenuItem>
          {(form?.types ?? []).map((t) => (
            <MenuItem key={t.id} value={String(t.id)}>
              {t.name}
            </MenuItem>
          ))}
        </TextField>
        {staffSelect('responsibleId', 'resources.service_requests.fields.responsible_id')}
        {staffSelect('performerId', 'resources.service_requests.fields.performer_id')}
        <UkDateField
          label={translate('resources.service_requests.filters.created_from')}
          value={filters.createdFrom}
          onChange={changeCreatedFrom}
          sx={DATE_FILTER_SX}
        />
        <UkDateField
          label={translate('resources.service_requests.filters.created_to')}
          value={filters.createdTo}
          onChange={changeCreatedTo}
          sx={DATE_FILTER_SX}
        />
        <FormControlLabel
          control={<Switch checked={filters.overdue} onChange={(e) => change({ overdue: e.target.checked })} />}
          label={translate('resources.service_requests.filters.overdue')}
        />
        {dirty && (
          <Button size="small" onClick={() => change(EMPTY_FILTERS)}>
            {translate('resources.service_requests.filters.reset')}
          </Button>
        )}
      </Stack>
      {error ? <LoadError error={error} onRetry={() => void refetch()} sx={{ mb: 2 }} /> : null}
      <ResourceContextProvider value="service-requests">
        <ListContextProvider value={listContext}>
          <Paper variant="outlined" sx={{ position: 'relative' }}>
            {(isPending || isPlaceholderData) && <LinearProgress aria-label={translate('ra.page.loading')} />}
            <DataTable<ServiceRequest>
              aria-label={translate('resources.service_requests.title')}
              storeKey={storeKey}
              hiddenColumns={HIDDEN_BY_DEFAULT}
              rowClick={false}
              bulkActionButtons={canEdit ? <RequestBulkActions form={form} /> : false}
              empty={
                error ? null : (
                  <Typography sx={{ py: 4, textAlign: 'center', color: 'text.secondary' }}>{translate('resources.service_requests.empty')}</Typography>
                )
              }
              rowSx={() => ({ verticalAlign: 'top' })}
              sx={REQUEST_TABLE_SX}
            >
              <DataTable.Col
                source="number"
                label="resources.service_requests.fields.number"
                disableSort
                render={(r) => (
                  <Link component={RouterLink} to={`/Requests/${r.id}`} underline="hover" sx={{ fontWeight: 500 }}>
                    {r.number}
                  </Link>
                )}
              />
              <DataTable.Col source="stage" label="resources.service_requests.fields.stage" sortByOrder="ASC" render={(r) => <StageChip stage={r.stage} />} />
              <DataTable.Col source="type" label="resources.service_requests.fields.type_id" disableSort render={(r) => r.type ?? '—'} />
              <DataTable.Col
                source="address"
                label="resources.service_requests.fields.house_id"
                disableSort
                render={(r) => (
                  <>
                    <Typography variant="body2">
                      {r.address}
                      {r.realty_number ? `, кв. ${r.realty_number}` : ''}
                    </Typography>
                    {r.member_name && (
                      <Typography variant="caption" color="text.secondary">
                        {r.member_name}
                      </Typography>
                    )}
                  </>
                )}
              />
              <DataTable.Col
                source="text"
                label="resources.service_requests.fields.text"
                disableSort
                render={(r) => (
                  <Typography variant="body2" sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}>
                    {r.text}
                  </Typography>
                )}
              />
              <DataTable.Col
                source="responsible"
                label="resources.service_requests.fields.responsible_id"
                disableSort
                render={(r) => r.responsible?.name ?? '—'}
              />
              <DataTable.Col source="performer" label="resources.service_requests.fields.performer_id" disableSort render={(r) => r.performer?.name ?? '—'} />
              <DataTable.Col
                source="deadline"
                label="resources.service_requests.fields.deadline"
                sortByOrder="ASC"
                render={(r) =>
                  r.deadline ? (
                    <Tooltip title={formatDateTime(r.deadline)}>
                      <Box sx={{ whiteSpace: 'nowrap' }}>
                        <Typography variant="body2" color={r.overdue ? 'error' : undefined} sx={{ fontWeight: r.overdue ? 600 : undefined }}>
                          {formatDate(r.deadline)}
                        </Typography>
                        {r.overdue && (
                          <Typography variant="caption" color="error">
                            {translate('resources.service_requests.overdue')}
                          </Typography>
                        )}
                      </Box>
                    </Tooltip>
                  ) : (
                    '—'
                  )
                }
              />
              <DataTable.Col
                source="created_at"
                label="resources.service_requests.fields.created_at"
                sortByOrder="DESC"
                render={(r) => <Box sx={{ whiteSpace: 'nowrap' }}>{formatDate(r.created_at)}</Box>}
              />
              <DataTable.Col
                label=""
                disableSort
                sx={{ width: 48 }}
                render={(r) => (
                  <RowActionsMenu area="service_requests" onOpen={() => navigate(`/Requests/${r.id}`)} onDelete={() => setDeleting(r as ServiceRequest)} />
                )}
              />
            </DataTable>
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
      <ConfirmDelete
        resource="service-requests"
        record={deleting}
        name={deleting ? `№ ${deleting.number}` : ''}
        onClose={() => setDeleting(null)}
        onDeleted={refetch}
        successMessage="resources.service_requests.notifications.deleted"
      />
    </Box>
  );
}
