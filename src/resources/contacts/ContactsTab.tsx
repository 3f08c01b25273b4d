import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Link } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { DataTable, List, Pagination, ReferenceInput, SearchInput, SelectInput, TopToolbar, useCanAccess, useTranslate, type Identifier } from 'react-admin';
import type { Contact, ContactSection } from '../../../contract/contacts';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { RowActionsMenu } from '../../components/RowActionsMenu';

export const contactPath = (id: Identifier) => `/Contacts/${id}`;
export const sectionLabel = (s: ContactSection) => `${s.name} — ${s.complex}`;

/** The contacts list: search by name, phone or e-mail; filters by section and group. */
export function ContactsTab() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState<Contact | null>(null);
  const { canAccess: canCreate } = useCanAccess({ resource: 'contacts', action: 'create' });
  const { canAccess: canDelete } = useCanAccess({ resource: 'contacts', action: 'delete' });
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('resources.contacts.filters.search')} sx={{ minWidth: 280 }} />,
    <ReferenceInput key="section" source="section_id" reference="contacts_section" alwaysOn perPage={200} sort={{ field: 'name', order: 'ASC' }}>
      <SelectInput optionText={sectionLabel} label="resources.contacts.fields.section_id" emptyText="resources.contacts.filters.all_sections" />
    </ReferenceInput>,
    <ReferenceInput key="group" source="group_id" reference="contacts_groups" alwaysOn perPage={200} sort={{ field: 'name', order: 'ASC' }}>
      <SelectInput optionText="name" label="resources.contacts.fields.group_id" emptyText="resources.contacts.filters.all_groups" />
    </ReferenceInput>,
  ];
  return (
    <>
      <List<Contact>
        resource="contacts"
        title={false}
        filters={filters}
        perPage={10}
        pagination={<Pagination rowsPerPageOptions={[10, 25, 50]} />}
        sort={{ field: 'name', order: 'ASC' }}
        exporter={false}
        actions={
          <TopToolbar>
            {canCreate && (
              <Button variant="contained" size="small" startIcon={<AddIcon />} onClick={() => navigate('/Contacts/create')}>
                {translate('app.actions.add')}
              </Button>
            )}
          </TopToolbar>
        }
      >
        <DataTable<Contact> rowClick={(id) => contactPath(id)} bulkActionButtons={false}>
          <DataTable.Col source="name" />
          <DataTable.Col
            source="phone"
            disableSort
            render={(r) =>
              r.phone ? (
                <Link href={`tel:${r.phone}`} onClick={(e) => e.stopPropagation()}>
                  {r.phone_display}
                </Link>
              ) : (
                '—'
              )
            }
          />
          <DataTable.Col source="email" disableSort render={(r) => r.email ?? '—'} />
          <DataTable.Col source="section_id" disableSort render={(r) => `${r.section} — ${r.complex}`} />
          <DataTable.Col source="group_id" disableSort render={(r) => r.group ?? '—'} />
          <DataTable.Col
            label=""
            disableSort
            sx={{ width: 56 }}
            render={(r) => <RowActionsMenu onOpen={() => navigate(contactPath(r.id))} onDelete={canDelete ? () => setDeleting(r as Contact) : undefined} />}
          />
        </DataTable>
      </List>
      <ConfirmDelete resource="contacts" record={deleting} name={deleting?.name ?? ''} onClose={() => setDeleting(null)} successMessage="resources.contacts.notifications.deleted" />
    </>
  );
}
