import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Box, Button, Card, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { DataTable, List, SearchInput, SelectInput, TopToolbar, useTranslate } from 'react-admin';
import { ListPagination } from '../../components/ListPagination';
import { INTERVIEW_STATUSES, type InterviewSummary } from '../../../contract/interview';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { usePageHeader } from '../../layout/navigation';
import { formatDate } from '../../lib/dates';
import { useRights } from '../../lib/useRights';
import { ListExport } from '../generic/ListExport';
import { interviewPath } from './api';
import { InterviewStatusChip } from './InterviewStatusChip';

/**
 * /Interview: the organization's surveys (the header shows no complex selection here, so none
 * narrows them), with the export of the current filter (contract/interview.ts declares the API).
 */
export default function InterviewList() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { canCreate, canDelete } = useRights('interviews');
  const [deleting, setDeleting] = useState<InterviewSummary | null>(null);
  usePageHeader(translate('resources.interview.title'));
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('resources.interview.filters.search')} sx={{ minWidth: 280 }} />,
    <SelectInput
      key="status"
      source="status"
      alwaysOn
      label="resources.interview.fields.status"
      emptyText="resources.interview.filters.all_statuses"
      choices={INTERVIEW_STATUSES.map((s) => ({ id: s, name: `resources.interview.statuses.${s}` }))}
    />,
  ];
  const addButton = (size: 'small' | 'medium') => (
    <Button variant="contained" size={size} startIcon={<AddIcon />} onClick={() => navigate('/Interview/create')}>
      {translate('app.actions.add')}
    </Button>
  );
  return (
    <Box>
      <List<InterviewSummary>
        resource="interview"
        title={false}
        filters={filters}
        perPage={10}
        pagination={<ListPagination rowsPerPageOptions={[10, 25, 50]} />}
        sort={{ field: 'start_at', order: 'DESC' }}
        exporter={false}
        empty={
          <Card sx={{ p: 4, textAlign: 'center', mt: 2 }}>
            <Typography sx={{ mb: 2 }}>{translate('resources.interview.empty')}</Typography>
            {canCreate && addButton('medium')}
          </Card>
        }
        actions={
          <TopToolbar sx={{ alignItems: 'center', gap: 1 }}>
            <ListExport path="/interview" />
            {canCreate && addButton('small')}
          </TopToolbar>
        }
      >
        <DataTable<InterviewSummary> rowClick={(id) => interviewPath(id)} bulkActionButtons={false}>
          <DataTable.Col source="title" label="resources.interview.fields.title" />
          <DataTable.Col source="start_at" label="resources.interview.fields.period" render={(r) => `${formatDate(r.start_at)} – ${formatDate(r.end_at)}`} />
          <DataTable.Col
            label="resources.interview.fields.audience"
            disableSort
            render={(r: InterviewSummary) => (r.houses.length ? r.houses.map((h) => h.address).join('; ') : r.complexes.map((c) => c.name).join(', '))}
          />
          <DataTable.Col source="status" label="resources.interview.fields.status" disableSort render={(r) => <InterviewStatusChip status={r.status} />} />
          <DataTable.Col source="responses_count" label="resources.interview.fields.responses" disableSort />
          <DataTable.Col
            label=""
            disableSort
            sx={{ width: 56 }}
            render={(r) => (
              <RowActionsMenu
                onOpen={() => navigate(interviewPath(r.id))}
                onDelete={canDelete && r.responses_count === 0 ? () => setDeleting(r as InterviewSummary) : undefined}
              />
            )}
          />
        </DataTable>
      </List>
      <ConfirmDelete
        resource="interview"
        record={deleting}
        name={deleting?.title ?? ''}
        onClose={() => setDeleting(null)}
        successMessage="resources.interview.notifications.deleted"
      />
    </Box>
  );
}
