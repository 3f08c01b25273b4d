import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Box, Button, Card, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import {
  DataTable,
  downloadCSV,
  ExportButton,
  List,
  Pagination,
  SearchInput,
  TopToolbar,
  useTranslate,
  type Exporter,
  type Identifier,
} from 'react-admin';
import jsonExport from 'jsonexport/dist';
import { neutraliseCsvCell } from '../../../contract/csv';
import { AddButton } from '../../components/AddButton';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { formatDate } from '../../lib/dates';
import { usePageHeader } from '../../layout/navigation';
import type { Complex } from '../../types';
import { ComplexFormDialog } from './ComplexDialogs';
import { useCan } from '../../lib/useCan';

const complexPath = (id: Identifier) => `/Complex/${id}`;

function useExporter(): Exporter<Complex> {
  const translate = useTranslate();
  const f = (k: string) => translate(`resources.complexes.fields.${k}`);
  return (records) =>
    jsonExport(
      records.map((r) => ({
        [f('id')]: r.id,
        // Names and addresses are typed by users: no cell may open as a formula in a spreadsheet.
        [f('name')]: neutraliseCsvCell(r.name),
        [f('city')]: neutraliseCsvCell(r.city),
        [f('address')]: neutraliseCsvCell(r.address),
        [f('created_at')]: formatDate(r.created_at),
      })),
      (err: Error | null, csv: string) => !err && downloadCSV(csv, 'complexes'),
    );
}

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
  const exporter = useExporter();
  usePageHeader(translate('resources.complexes.title'));
  const [dialog, setDialog] = useState<Identifier | 'create' | null>(null);
  const [deleting, setDeleting] = useState<Complex | null>(null);
  const canCreate = useCan('complexes', 'create');

  return (
    <Box>
      <List<Complex>
        resource="complexes"
        title={false}
        perPage={10}
        pagination={<Pagination rowsPerPageOptions={[10, 25, 50, 100]} />}
        sort={{ field: 'id', order: 'ASC' }}
        filters={[<SearchInput key="q" source="q" alwaysOn placeholder={translate('resources.complexes.filters.search')} sx={{ minWidth: 320 }} />]}
        exporter={exporter}
        empty={<Empty onAdd={() => setDialog('create')} canCreate={Boolean(canCreate)} />}
        actions={
          <TopToolbar>
            <AddButton area="complexes" onClick={() => setDialog('create')} />
            <ExportButton maxResults={1000} />
          </TopToolbar>
        }
      >
        <DataTable<Complex> rowClick={(id) => complexPath(id)} bulkActionButtons={false}>
          <DataTable.Col source="name" />
          <DataTable.Col source="city" />
          <DataTable.Col source="address" />
          <DataTable.Col source="created_at" render={(r) => formatDate(r.created_at)} />
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
