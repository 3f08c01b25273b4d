import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Box, Button, Card, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { DataTable, List, SearchInput, TopToolbar, useTranslate, type Identifier } from 'react-admin';
import { ListPagination } from '../../components/ListPagination';
import { complexEntity } from '../../../contract/complexes';
import { AddButton } from '../../components/AddButton';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { formatDate } from '../../lib/dates';
import { usePageHeader } from '../../layout/navigation';
import type { Complex } from '../../types';
import { ListExport } from '../generic/ListExport';
import { useEntityLabels } from '../generic/labels';
import { ComplexFormDialog } from './ComplexDialogs';
import { useRights } from '../../lib/useRights';

const complexPath = (id: Identifier) => `/Complex/${id}`;

function Empty({ onAdd, canCreate }: { onAdd: () => void; canCreate: boolean }) {
  const translate = useTranslate();
  return (
    <Card sx={{ p: 4, textAlign: 'center', mt: 2 }}>
      <Typography sx={{ mb: 2 }}>{translate('resources.complexes.empty')}</Typography>
      {canCreate && (
        <Button variant="contained" startIcon={<AddIcon />} onClick={onAdd}>
          {translate('app.actions.add')}
        </Button>
      )}
    </Card>
  );
}

export default function ComplexList() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const labels = useEntityLabels(complexEntity);
  usePageHeader(translate('resources.complexes.title'));
  const [dialog, setDialog] = useState<Identifier | 'create' | null>(null);
  const [deleting, setDeleting] = useState<Complex | null>(null);
  const { canCreate } = useRights('complexes');

  return (
    <Box>
      <List<Complex>
        resource="complexes"
        title={false}
        perPage={10}
        pagination={<ListPagination rowsPerPageOptions={[10, 25, 50, 100]} />}
        sort={{ field: 'id', order: 'ASC' }}
        filters={[<SearchInput key="q" source="q" alwaysOn placeholder={translate('resources.complexes.filters.search')} sx={{ minWidth: 320 }} />]}
        exporter={false}
        empty={<Empty onAdd={() => setDialog('create')} canCreate={canCreate} />}
        actions={
          <TopToolbar>
            <ListExport path={complexEntity.path} />
            <AddButton area="complexes" onClick={() => setDialog('create')} />
          </TopToolbar>
        }
      >
        <DataTable<Complex> rowClick={(id) => complexPath(id)} bulkActionButtons={false}>
          <DataTable.Col source="name" label={labels.field('name')} />
          <DataTable.Col source="city" label={labels.field('city')} />
          <DataTable.Col source="address" label={labels.field('address')} />
          <DataTable.Col source="created_at" label={labels.field('created_at')} render={(r) => formatDate(r.created_at)} />
          <DataTable.Col
            label=""
            disableSort
            sx={{ width: 56 }}
            render={(r) => (
              <RowActionsMenu
                area="complexes"
                onOpen={() => navigate(complexPath(r.id))}
                onEdit={() => setDialog(r.id)}
                onDelete={() => setDeleting(r as Complex)}
              />
            )}
          />
        </DataTable>
      </List>
      <ComplexFormDialog target={dialog} onClose={() => setDialog(null)} />
      <ConfirmDelete
        resource="complexes"
        record={deleting}
        name={deleting?.name ?? ''}
        onClose={() => setDeleting(null)}
        successMessage="resources.complexes.notifications.deleted"
      />
    </Box>
  );
}
