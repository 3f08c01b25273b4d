import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Box, Button, Card, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { DataTable, List, SearchInput, SelectInput, TopToolbar, useTranslate, type Identifier } from 'react-admin';
import { ListPagination } from '../../components/ListPagination';
import { ANNOUNCEMENT_STATES, type Announcement, type AnnouncementState } from '../../../contract/announcements';
import { ContentBulkActions } from '../../components/bulk';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { StateChip } from '../../components/content/StateChip';
import { useComplexFilter } from '../../layout/complexSelection';
import { usePageHeader } from '../../layout/navigation';
import { formatDate } from '../../lib/dates';
import { audienceText } from '../articles/ArticleList';
import { ListExport } from '../generic/ListExport';
import { useRights } from '../../lib/useRights';

export const announcementPath = (id: Identifier) => `/Announcements/${id}`;
const TONES: Record<AnnouncementState, 'info' | 'success' | 'default'> = { upcoming: 'info', active: 'success', expired: 'default' };

export function AnnouncementStateChip({ state }: { state: AnnouncementState }) {
  return <StateChip label={`resources.announcements.states.${state}`} tone={TONES[state]} />;
}

/** DD.MM.YYYY – DD.MM.YYYY, or «з DD.MM.YYYY» when open-ended. */
export function validityText(r: Pick<Announcement, 'valid_from' | 'valid_until'>, translate: (k: string, o?: object) => string) {
  return r.valid_until
    ? `${formatDate(r.valid_from)} – ${formatDate(r.valid_until)}`
    : translate('resources.announcements.open_ended', { date: formatDate(r.valid_from) });
}

/**
 * /Announcements: the announcements of the complex (and addresses) chosen in the header, with the
 * export of the current filter (contract/announcements.ts declares the API; the list and the page
 * form stay their own: a state chip, the validity period, the audience).
 */
export default function AnnouncementList() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const filter = useComplexFilter();
  const [deleting, setDeleting] = useState<Announcement | null>(null);
  const { canCreate, canDelete } = useRights('announcements');
  usePageHeader(translate('resources.announcements.title'));
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('resources.announcements.filters.search')} sx={{ minWidth: 280 }} />,
    <SelectInput
      key="state"
      source="state"
      alwaysOn
      label="resources.announcements.fields.state"
      emptyText="resources.announcements.filters.all_states"
      choices={ANNOUNCEMENT_STATES.map((s) => ({ id: s, name: `resources.announcements.states.${s}` }))}
    />,
  ];
  return (
    <Box>
      <List<Announcement>
        resource="announcements"
        title={false}
        filter={filter}
        filters={filters}
        perPage={10}
        pagination={<ListPagination rowsPerPageOptions={[10, 25, 50]} />}
        sort={{ field: 'valid_from', order: 'DESC' }}
        exporter={false}
        empty={
          <Card sx={{ p: 4, textAlign: 'center', mt: 2 }}>
            <Typography>{translate('resources.announcements.empty')}</Typography>
          </Card>
        }
        actions={
          <TopToolbar sx={{ alignItems: 'center', gap: 1 }}>
            <ListExport path="/announcements" filter={filter} />
            {canCreate && (
              <Button variant="contained" size="small" startIcon={<AddIcon />} onClick={() => navigate('/Announcements/create')}>
                {translate('app.actions.add')}
              </Button>
            )}
          </TopToolbar>
        }
      >
        <DataTable<Announcement>
          rowClick={(id) => announcementPath(id)}
          bulkActionButtons={canDelete ? <ContentBulkActions<Announcement> name={(r) => r.title} canEdit={false} canDelete /> : false}
        >
          <DataTable.Col source="title" />
          <DataTable.Col source="state" disableSort render={(r) => <AnnouncementStateChip state={r.state} />} />
          <DataTable.Col source="valid_from" label="resources.announcements.fields.validity" render={(r) => validityText(r as Announcement, translate)} />
          <DataTable.Col source="complex_ids" disableSort label="app.audience.label" render={(r) => audienceText(r as Announcement, translate)} />
          <DataTable.Col
            label=""
            disableSort
            sx={{ width: 56 }}
            render={(r) => (
              <RowActionsMenu onOpen={() => navigate(announcementPath(r.id))} onDelete={canDelete ? () => setDeleting(r as Announcement) : undefined} />
            )}
          />
        </DataTable>
      </List>
      <ConfirmDelete
        resource="announcements"
        record={deleting}
        name={deleting?.title ?? ''}
        onClose={() => setDeleting(null)}
        successMessage="resources.announcements.notifications.deleted"
      />
    </Box>
  );
}
