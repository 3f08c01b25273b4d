import { useMemo, useState } from 'react';
import { Button } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { DataTable, List, maxLength, Pagination, required, SelectInput, TextInput, TopToolbar, useCanAccess, useTranslate, type Identifier } from 'react-admin';
import { SECTION_TYPES, type ContactSection } from '../../../contract/contacts';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { ResourceFormDialog } from '../../components/ResourceFormDialog';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { useCurrentUser } from '../../useCurrentUser';

export const sectionTypeChoices = SECTION_TYPES.map((t) => ({ id: t, name: `resources.contacts_section.types.${t}` }));

/** Sections: blocks of contacts on a complex's page, each of a type. */
export function SectionsTab() {
  const translate = useTranslate();
  const { user } = useCurrentUser();
  const [dialog, setDialog] = useState<Identifier | 'create' | null>(null);
  const [deleting, setDeleting] = useState<ContactSection | null>(null);
  const { canAccess: canCreate } = useCanAccess({ resource: 'contacts', action: 'create' });
  const { canAccess: canEdit } = useCanAccess({ resource: 'contacts', action: 'edit' });
  const { canAccess: canDelete } = useCanAccess({ resource: 'contacts', action: 'delete' });
  const complexChoices = useMemo(() => (user?.complexes ?? []).map((c) => ({ id: Number(c.id), name: c.name })), [user?.complexes]);
  return (
    <>
      <List<ContactSection>
        resource="contacts_section"
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
                {translate('resources.contacts_section.add')}
              </Button>
            )}
          </TopToolbar>
        }
      >
        <DataTable<ContactSection> rowClick={false} bulkActionButtons={false}>
          <DataTable.Col source="name" />
          <DataTable.Col source="complex_id" disableSort render={(r) => r.complex} />
          <DataTable.Col source="type" render={(r) => translate(`resources.contacts_section.types.${r.type}`)} />
          <DataTable.Col source="description" disableSort render={(r) => r.description || '—'} />
          <DataTable.Col source="contacts_count" disableSort />
          <DataTable.Col
            label=""
            disableSort
            sx={{ width: 56 }}
            render={(r) => <RowActionsMenu onEdit={canEdit ? () => setDialog(r.id) : undefined} onDelete={canDelete ? () => setDeleting(r as ContactSection) : undefined} />}
          />
        </DataTable>
      </List>
      <ResourceFormDialog<ContactSection>
        resource="contacts_section"
        target={dialog}
        onClose={() => setDialog(null)}
        defaultValues={{ type: 'management', complex_id: complexChoices[0]?.id } as Partial<ContactSection>}
        title={{ create: 'resources.contacts_section.create_title', edit: 'resources.contacts_section.edit_title' }}
        notifications={{ created: 'resources.contacts_section.notifications.created', updated: 'resources.contacts_section.notifications.updated' }}
      >
        <SelectInput source="complex_id" choices={complexChoices} validate={required()} fullWidth />
        <TextInput source="name" validate={[required(), maxLength(150)]} fullWidth />
        <SelectInput source="type" choices={sectionTypeChoices} validate={required()} fullWidth />
        <TextInput source="description" validate={maxLength(2000)} multiline minRows={2} fullWidth />
      </ResourceFormDialog>
      <ConfirmDelete resource="contacts_section" record={deleting} name={deleting?.name ?? ''} onClose={() => setDeleting(null)} successMessage="resources.contacts_section.notifications.deleted" />
    </>
  );
}
