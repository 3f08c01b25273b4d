import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Box, Button, Card, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { DataTable, List, SearchInput, SelectInput, TopToolbar, useTranslate } from 'react-admin';
import { ListPagination } from '../../components/ListPagination';
import { VOTING_STATES, type VotingSummary } from '../../../contract/voting';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { useComplexFilter } from '../../layout/complexSelection';
import { usePageHeader } from '../../layout/navigation';
import { formatDate } from '../../lib/dates';
import { useRights } from '../../lib/useRights';
import { ListExport } from '../generic/ListExport';
import { votingPath } from './api';
import { VotingStateChip } from './VotingStateChip';

/** /Voting: the general meetings of the houses chosen in the header, with the export of the current filter (contract/voting.ts declares the API). */
export default function VotingList() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const filter = useComplexFilter();
  const { canCreate, canDelete } = useRights('votings');
  const [deleting, setDeleting] = useState<VotingSummary | null>(null);
  usePageHeader(translate('resources.voting.title'));
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('resources.voting.filters.search')} sx={{ minWidth: 280 }} />,
    <SelectInput
      key="state"
      source="state"
      alwaysOn
      label="resources.voting.fields.state"
      emptyText="resources.voting.filters.all_states"
      choices={VOTING_STATES.map((s) => ({ id: s, name: `resources.voting.states.${s}` }))}
    />,
  ];
  return (
    <Box>
      <List<VotingSummary>
        resource="voting"
        title={false}
        filter={filter}
        filters={filters}
        perPage={10}
        pagination={<ListPagination rowsPerPageOptions={[10, 25, 50]} />}
        sort={{ field: 'meeting_date', order: 'DESC' }}
        exporter={false}
        empty={
          <Card sx={{ p: 4, textAlign: 'center', mt: 2 }}>
            <Typography sx={{ mb: 2 }}>{translate('resources.voting.empty')}</Typography>
            {canCreate && (
              <Button variant="contained" startIcon={<AddIcon />} onClick={() => navigate('/Voting/create')}>
                {translate('app.actions.add')}
              </Button>
            )}
          </Card>
        }
        actions={
          <TopToolbar sx={{ alignItems: 'center', gap: 1 }}>
            <ListExport path="/voting" filter={filter} />
            {canCreate && (
              <Button variant="contained" size="small" startIcon={<AddIcon />} onClick={() => navigate('/Voting/create')} data-tour="add">
                {translate('app.actions.add')}
              </Button>
            )}
          </TopToolbar>
        }
      >
        <DataTable<VotingSummary> rowClick={(id) => votingPath(id)} bulkActionButtons={false}>
          <DataTable.Col source="title" label="resources.voting.fields.title" />
          <DataTable.Col source="address" label="resources.voting.fields.address" disableSort />
          <DataTable.Col source="meeting_date" label="resources.voting.fields.meeting_date" render={(r) => `${formatDate(r.meeting_date)} ${r.meeting_time}`} />
          <DataTable.Col source="regime" label="resources.voting.fields.regime" disableSort render={(r) => translate(`resources.voting.regimes.${r.regime}`)} />
          <DataTable.Col source="state" label="resources.voting.fields.state" disableSort render={(r) => <VotingStateChip state={r.state} />} />
          <DataTable.Col
            source="voted_count"
            label="resources.voting.fields.participants"
            disableSort
            render={(r) => `${r.voted_count} / ${r.participants_count}`}
          />
          <DataTable.Col
            label=""
            disableSort
            sx={{ width: 56 }}
            render={(r) => (
              <RowActionsMenu
                onOpen={() => navigate(votingPath(r.id))}
                onDelete={canDelete && r.voted_count === 0 ? () => setDeleting(r as VotingSummary) : undefined}
              />
            )}
          />
        </DataTable>
      </List>
      <ConfirmDelete
        resource="voting"
        record={deleting}
        name={deleting?.title ?? ''}
        onClose={() => setDeleting(null)}
        successMessage="resources.voting.notifications.deleted"
      />
    </Box>
  );
}
