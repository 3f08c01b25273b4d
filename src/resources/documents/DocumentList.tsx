import { useState } from 'react';
import { Box, Button, Card, Chip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { DataTable, List, ReferenceInput, SearchInput, SelectInput, TopToolbar, useNotify, useTranslate, type Identifier } from 'react-admin';
import { ListPagination } from '../../components/ListPagination';
import type { DocumentRecord } from '../../../contract/documents';
import { ContentBulkActions } from '../../components/bulk';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { downloadAuthorised } from '../../components/content/media';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { usePageHeader } from '../../layout/navigation';
import { formatDate } from '../../lib/dates';
import { DocumentDialog } from './DocumentDialog';
import { formatFileSize } from './fileSize';
import { ListExport } from '../generic/ListExport';
import { useRights } from '../../lib/useRights';

/** «ЖК «Липовий гай»; 2 будинки; 1 квартира». */
export function scopeText(r: DocumentRecord, translate: (k: string, o?: object) => string): string {
  const parts = [...r.complexes.map((c) => c.name)];
  if (r.houses.length) parts.push(r.houses.length === 1 ? r.houses[0].address : translate('app.audience.houses_count', { smart_count: r.houses.length }));
  if (r.apartments.length) parts.push(translate('resources.documents.apartments_count', { smart_count: r.apartments.length }));
  return parts.join('; ');
}

/** /Documents: files for residents with whom they concern; upload, change, download, delete. */
export default function DocumentList() {
  const translate = useTranslate();
  const notify = useNotify();
  const [dialog, setDialog] = useState<Identifier | 'create' | null>(null);
  const [deleting, setDeleting] = useState<DocumentRecord | null>(null);
  const { canCreate, canEdit, canDelete } = useRights('documents');
  usePageHeader(translate('resources.documents.title'));
  const download = (r: DocumentRecord) =>
    downloadAuthorised(r.file_url, r.file_name).catch(() => notify('resources.documents.errors.download', { type: 'error' }));

  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('resources.documents.filters.search')} sx={{ minWidth: 280 }} />,
    <ReferenceInput key="complex" source="complex_id" reference="complexes" alwaysOn perPage={100} sort={{ field: 'name', order: 'ASC' }}>
      <SelectInput optionText="name" label="resources.documents.filters.complex" emptyText="resources.documents.filters.all_complexes" />
    </ReferenceInput>,
  ];
  return (
    <Box>
      <List<DocumentRecord>
        resource="documents"
        title={false}
        filters={filters}
        perPage={10}
        pagination={<ListPagination rowsPerPageOptions={[10, 25, 50]} />}
        sort={{ field: 'created_at', order: 'DESC' }}
        exporter={false}
        empty={
          <Card sx={{ p: 4, textAlign: 'center', mt: 2 }}>
            <Typography sx={{ mb: 2 }}>{translate('resources.documents.empty')}</Typography>
            {canCreate && (
              <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog('create')}>
                {translate('app.actions.add')}
              </Button>
            )}
          </Card>
        }
        actions={
          <TopToolbar sx={{ alignItems: 'center', gap: 1 }}>
            <ListExport path="/documents" />
            {canCreate && (
              <Button variant="contained" size="small" startIcon={<AddIcon />} onClick={() => setDialog('create')}>
                {translate('app.actions.add')}
              </Button>
            )}
          </TopToolbar>
        }
      >
        <DataTable<DocumentRecord>
          rowClick={false}
          bulkActionButtons={canDelete ? <ContentBulkActions<DocumentRecord> name={(r) => r.name} canEdit={false} canDelete /> : false}
        >
          <DataTable.Col source="name" />
          <DataTable.Col source="file_name" disableSort render={(r) => `${r.file_name} (${formatFileSize(r.size)})`} />
          <DataTable.Col source="complexIds" disableSort label="app.audience.label" render={(r) => scopeText(r as DocumentRecord, translate)} />
          <DataTable.Col
            source="is_public"
            label="resources.documents.fields.visibility"
            disableSort
            render={(r) => (
              <Chip
                size="small"
                variant={r.is_public ? 'filled' : 'outlined'}
                color={r.is_public ? 'success' : 'default'}
                label={translate(r.is_public ? 'resources.documents.public' : 'resources.documents.staff_only')}
              />
            )}
          />
          <DataTable.Col source="created_at" render={(r) => formatDate(r.created_at)} />
          <DataTable.Col
            label=""
            disableSort
            sx={{ width: 56 }}
            render={(r) => (
              <RowActionsMenu
                onEdit={canEdit ? () => setDialog(r.id) : undefined}
                onDelete={canDelete ? () => setDeleting(r as DocumentRecord) : undefined}
                extra={[{ label: 'resources.documents.download', onClick: () => void download(r as DocumentRecord) }]}
              />
            )}
          />
        </DataTable>
      </List>
      <DocumentDialog target={dialog} onClose={() => setDialog(null)} />
      <ConfirmDelete
        resource="documents"
        record={deleting}
        name={deleting?.name ?? ''}
        onClose={() => setDeleting(null)}
        successMessage="resources.documents.notifications.deleted"
      />
    </Box>
  );
}
