import { useState } from 'react';
import { Box, Button, Card, Link, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { AutocompleteInput, DataTable, List, maxLength, Pagination, ReferenceInput, required, SearchInput, SelectInput, TextInput, TopToolbar, useCanAccess, useTranslate, type Identifier } from 'react-admin';
import type { Camera } from '../../../contract/cameras';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { ResourceFormDialog } from '../../components/ResourceFormDialog';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { usePageHeader } from '../../layout/navigation';

/** /dashboard_old/Security-cameras: the houses' security cameras (the legacy area's own screen). */
export default function CameraList() {
  const translate = useTranslate();
  const [dialog, setDialog] = useState<Identifier | 'create' | null>(null);
  const [deleting, setDeleting] = useState<Camera | null>(null);
  const { canAccess: canCreate } = useCanAccess({ resource: 'cameras', action: 'create' });
  const { canAccess: canEdit } = useCanAccess({ resource: 'cameras', action: 'edit' });
  const { canAccess: canDelete } = useCanAccess({ resource: 'cameras', action: 'delete' });
  usePageHeader(translate('resources.cameras.title'));
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('resources.cameras.filters.search')} sx={{ minWidth: 260 }} />,
    <ReferenceInput key="house" source="house_id" reference="houses" alwaysOn perPage={200} sort={{ field: 'address', order: 'ASC' }}>
      <SelectInput optionText="address" label="resources.cameras.fields.house_id" emptyText="resources.cameras.filters.all_houses" />
    </ReferenceInput>,
  ];
  const url = (href: string | null) =>
    href ? (
      <Link href={href} target="_blank" rel="noopener noreferrer" onClick={(e) => e.stopPropagation()} sx={{ wordBreak: 'break-all' }}>
        {href}
      </Link>
    ) : (
      '—'
    );
  return (
    <Box>
      <List<Camera>
        resource="cameras"
        title={false}
        filters={filters}
        perPage={10}
        pagination={<Pagination rowsPerPageOptions={[10, 25, 50]} />}
        sort={{ field: 'name', order: 'ASC' }}
        exporter={false}
        empty={
          <Card sx={{ p: 4, textAlign: 'center', mt: 2 }}>
            <Typography sx={{ mb: 2 }}>{translate('resources.cameras.empty')}</Typography>
            {canCreate && (
              <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog('create')}>
                {translate('app.actions.add')}
              </Button>
            )}
          </Card>
        }
        actions={
          <TopToolbar>
            {canCreate && (
              <Button variant="contained" size="small" startIcon={<AddIcon />} onClick={() => setDialog('create')}>
                {translate('app.actions.add')}
              </Button>
            )}
          </TopToolbar>
        }
      >
        <DataTable<Camera> rowClick={false} bulkActionButtons={false}>
          <DataTable.Col source="name" />
          <DataTable.Col source="address" disableSort />
          <DataTable.Col source="place" disableSort render={(r) => r.place || '—'} />
          <DataTable.Col source="stream_url" disableSort render={(r) => url(r.stream_url)} />
          <DataTable.Col source="snapshot_url" disableSort render={(r) => url(r.snapshot_url)} />
          <DataTable.Col
            label=""
            disableSort
            sx={{ width: 56 }}
            render={(r) => <RowActionsMenu onEdit={canEdit ? () => setDialog(r.id) : undefined} onDelete={canDelete ? () => setDeleting(r as Camera) : undefined} />}
          />
        </DataTable>
      </List>
      <ResourceFormDialog<Camera>
        resource="cameras"
        target={dialog}
        onClose={() => setDialog(null)}
        title={{ create: 'resources.cameras.create_title', edit: 'resources.cameras.edit_title' }}
        notifications={{ created: 'resources.cameras.notifications.created', updated: 'resources.cameras.notifications.updated' }}
      >
        <ReferenceInput source="house_id" reference="houses" perPage={200} sort={{ field: 'address', order: 'ASC' }}>
          <AutocompleteInput optionText="address" filterToQuery={(q) => ({ q })} validate={required()} fullWidth />
        </ReferenceInput>
        <TextInput source="name" validate={[required(), maxLength(150)]} fullWidth />
        <TextInput source="place" validate={maxLength(300)} fullWidth />
        <TextInput source="stream_url" helperText="resources.cameras.stream_hint" fullWidth />
        <TextInput source="snapshot_url" helperText="resources.cameras.snapshot_hint" fullWidth />
      </ResourceFormDialog>
      <ConfirmDelete resource="cameras" record={deleting} name={deleting?.name ?? ''} onClose={() => setDeleting(null)} successMessage="resources.cameras.notifications.deleted" />
    </Box>
  );
}
