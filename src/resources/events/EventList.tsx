import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Box, Button, Card, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { DataTable, List, SearchInput, SelectInput, TopToolbar, useTranslate, type Identifier } from 'react-admin';
import { ListPagination } from '../../components/ListPagination';
import { EVENT_STATES, type CommunityEvent, type EventState } from '../../../contract/events';
import { ContentBulkActions } from '../../components/bulk';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { StateChip } from '../../components/content/StateChip';
import { useComplexFilter } from '../../layout/complexSelection';
import { usePageHeader } from '../../layout/navigation';
import { formatDate, formatDateTime } from '../../lib/dates';
import { audienceText } from '../articles/ArticleList';
import { ListExport } from '../generic/ListExport';
import { useRights } from '../../lib/useRights';

export const eventPath = (id: Identifier) => `/Events/${id}`;
const TONES: Record<EventState, 'info' | 'success' | 'default'> = { upcoming: 'info', ongoing: 'success', past: 'default' };

export function EventStateChip({ state }: { state: EventState }) {
  return <StateChip label={`resources.events.states.${state}`} tone={TONES[state]} />;
}

/** «DD.MM.YYYY HH:mm – HH:mm» on one day, otherwise both moments. */
export function eventTime(r: Pick<CommunityEvent, 'starts_at' | 'ends_at'>): string {
  if (!r.ends_at) return formatDateTime(r.starts_at);
  const sameDay = formatDate(r.starts_at) === formatDate(r.ends_at);
  return `${formatDateTime(r.starts_at)} – ${sameDay ? formatDate(r.ends_at, 'HH:mm') : formatDateTime(r.ends_at)}`;
}

/**
 * /Events: the poster of the complex (and addresses) chosen in the header, with the export of the
 * current filter (contract/events.ts declares the API; the list, the page form and the show page
 * stay their own: a state chip, the time span, the picture, the audience).
 */
export default function EventList() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const filter = useComplexFilter();
  const [deleting, setDeleting] = useState<CommunityEvent | null>(null);
  const { canCreate, canEdit, canDelete } = useRights('events');
  usePageHeader(translate('resources.events.title'));
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('resources.events.filters.search')} sx={{ minWidth: 280 }} />,
    <SelectInput
      key="state"
      source="state"
      alwaysOn
      label="resources.events.fields.state"
      emptyText="resources.events.filters.all_states"
      choices={EVENT_STATES.map((s) => ({ id: s, name: `resources.events.states.${s}` }))}
    />,
  ];
  return (
    <Box>
      <List<CommunityEvent>
        resource="events"
        title={false}
        filter={filter}
        filters={filters}
        perPage={10}
        pagination={<ListPagination rowsPerPageOptions={[10, 25, 50]} />}
        sort={{ field: 'starts_at', order: 'DESC' }}
        exporter={false}
        empty={
          <Card sx={{ p: 4, textAlign: 'center', mt: 2 }}>
            <Typography>{translate('resources.events.empty')}</Typography>
          </Card>
        }
        actions={
          <TopToolbar sx={{ alignItems: 'center', gap: 1 }}>
            <ListExport path="/events" filter={filter} />
            {canCreate && (
              <Button variant="contained" size="small" startIcon={<AddIcon />} onClick={() => navigate('/Events/create')}>
                {translate('app.actions.add')}
              </Button>
            )}
          </TopToolbar>
        }
      >
        <DataTable<CommunityEvent>
          rowClick={(id) => eventPath(id)}
          bulkActionButtons={canDelete ? <ContentBulkActions<CommunityEvent> name={(r) => r.title} canEdit={false} canDelete /> : false}
        >
          <DataTable.Col source="title" />
          <DataTable.Col source="state" disableSort render={(r) => <EventStateChip state={r.state} />} />
          <DataTable.Col source="starts_at" label="resources.events.fields.when" render={(r) => eventTime(r as CommunityEvent)} />
          <DataTable.Col source="place" />
          <DataTable.Col source="complex_ids" disableSort label="app.audience.label" render={(r) => audienceText(r as CommunityEvent, translate)} />
          <DataTable.Col
            label=""
            disableSort
            sx={{ width: 56 }}
            render={(r) => (
              <RowActionsMenu
                onOpen={() => navigate(eventPath(r.id))}
                onEdit={canEdit ? () => navigate(`/Events/edit/${r.id}`) : undefined}
                onDelete={canDelete ? () => setDeleting(r as CommunityEvent) : undefined}
              />
            )}
          />
        </DataTable>
      </List>
      <ConfirmDelete
        resource="events"
        record={deleting}
        name={deleting?.title ?? ''}
        onClose={() => setDeleting(null)}
        successMessage="resources.events.notifications.deleted"
      />
    </Box>
  );
}
