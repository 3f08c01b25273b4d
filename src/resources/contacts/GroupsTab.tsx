import { useState } from 'react';
import { Button } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { DataTable, List, maxLength, Pagination, required, TextInput, TopToolbar, useCanAccess, useTranslate, type Identifier } from 'react-admin';
import type { ContactGroup } from '../../../contract/contacts';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { ResourceFormDialog } from '../../components/ResourceFormDialog';
import { RowActionsMenu } from '../../components/RowActionsMenu';

/** Groups of the organization's contacts (Сантехніки, Електрики, ...). */
export function GroupsTab() {
  const translate = useTranslate();
  const [dialog, setDialog] = useState<Identifier | 'create' | null>(null);
  const [deleting, setDeleting] = useState<ContactGroup | null>(null);
  const { canAccess: canCreate } = useCanAccess({ resource: 'contacts', action: 'create' });
  const { canAccess: canEdit } = useCanAccess({ resource: 'contacts', action: 'edit' });
  const { canAccess: canDelete } = useCanAccess({ resource: 'contacts', action: 'delete' });
  return (
    <>
      <List<ContactGroup>
        resource="contacts_groups"
        title={false}
        perPage={25}
        pagination={<Pagination rowsPerPageOptions={[25, 50, 100]} />}
        sort={{ field: 'name', order: 'ASC' }}
        exporter={false}
        disableSyncWithLocation
        actions={
          <TopToolbar>
            {canCreate && (
              <Button variant="contained" size="small" startIcon={<AddIcon />} onClick={() => setDialog('create')}>
                {translate('resources.contacts_groups.add')}
              </Button>
            )}
          </TopToolbar>
        }
      >
        <DataTable<ContactGroup> rowClick={false} bulkActionButtons={false}>
          <DataTable.Col source="name" />
          <DataTable.Col source="contacts_count" disableSort />
          <DataTable.Col
            label=""
            disableSort
            sx={{ width: 56 }}
            render={(r) => <RowActionsMenu onEdit={canEdit ? () => setDialog(r.id) : undefined} onDelete={canDelete ? () => setDeleting(r as ContactGroup) : undefined} />}
          />
        </DataTable>
      </List>
      <ResourceFormDialog<ContactGroup>
        resource="contacts_groups"
        target={dialog}
        onClose={() => setDialog(null)}
        size="small"
        title={{ create: 'resources.contacts_groups.create_title', edit: 'resources.contacts_groups.edit_title' }}
        notifications={{ created: 'resources.contacts_groups.notifications.created', updated: 'resources.contacts_groups.notifications.updated' }}
      >
        <TextInput source="name" validate={[required(), maxLength(100)]} fullWidth />
      </ResourceFormDialog>
      <ConfirmDelete resource="contacts_groups" record={deleting} name={deleting?.name ?? ''} onClose={() => setDeleting(null)} successMessage="resources.contacts_groups.notifications.deleted" />
    </>
  );
}
