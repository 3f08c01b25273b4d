import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Box } from '@mui/material';
import { DataTable, List, SearchInput, SelectInput, TopToolbar, useTranslate, type Identifier } from 'react-admin';
import { ListPagination } from '../../components/ListPagination';
import type { Staff } from '../../../contract/staff';
import { AddButton } from '../../components/AddButton';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { usePageHeader } from '../../layout/navigation';
import { formatDate } from '../../lib/dates';
import { useCurrentUser } from '../../useCurrentUser';
import { ListExport } from '../generic/ListExport';
import { StaffComplexes } from './StaffComplexes';
import { StaffFormDialog } from './StaffFormDialog';
import { useStaffForm } from './useStaffForm';

const staffPath = (id: Identifier) => `/Staff/${id}`;

/** /Staff: the people who sign in, with their role, department and complexes, and the export of the current filter. */
export default function StaffList() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const form = useStaffForm();
  const { user } = useCurrentUser();
  usePageHeader(translate('resources.staff.title'));
  const [dialog, setDialog] = useState<Identifier | 'create' | null>(null);
  const [deleting, setDeleting] = useState<Staff | null>(null);

  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('resources.staff.filters.search')} sx={{ minWidth: 320 }} />,
    <SelectInput key="role" source="role_id" alwaysOn label="resources.staff.filters.role" choices={form.roles} emptyText="resources.staff.filters.all" />,
    <SelectInput
      key="departure"
      source="departure_id"
      alwaysOn
      label="resources.staff.filters.departure"
      choices={form.departures}
      emptyText="resources.staff.filters.all"
    />,
  ];

  return (
    <Box>
      <List<Staff>
        resource="staff"
        title={false}
        perPage={10}
        pagination={<ListPagination rowsPerPageOptions={[10, 25, 50, 100]} />}
        sort={{ field: 'name', order: 'ASC' }}
        filters={filters}
        exporter={false}
        actions={
          <TopToolbar sx={{ gap: 1, alignItems: 'center' }}>
            <ListExport path="/staff" />
            <AddButton area="staff" onClick={() => setDialog('create')} />
          </TopToolbar>
        }
      >
        <DataTable<Staff> rowClick={(id) => staffPath(id)} bulkActionButtons={false}>
          <DataTable.Col source="name" label="resources.staff.fields.name" />
          <DataTable.Col source="email" label="resources.staff.fields.email" />
          <DataTable.Col source="phone" label="resources.staff.fields.phone" disableSort render={(r) => r.phone ?? '—'} />
          <DataTable.Col
            source="role"
            label="resources.staff.fields.role"
            disableSort
            render={(r) => (r.is_admin ? translate('resources.staff.admin') : (r.role ?? translate('resources.staff.no_role')))}
          />
          <DataTable.Col source="departure" label="resources.staff.fields.departure" disableSort render={(r) => r.departure ?? '—'} />
          <DataTable.Col source="complexes" label="resources.staff.fields.complexes" disableSort render={(r) => <StaffComplexes staff={r as Staff} />} />
          <DataTable.Col source="created_at" label="resources.staff.fields.created_at" render={(r) => formatDate(r.created_at)} />
          <DataTable.Col
            label=""
            disableSort
            sx={{ width: 56 }}
            render={(r) => (
              <RowActionsMenu
                area="staff"
                onOpen={() => navigate(staffPath(r.id))}
                onEdit={r.can_manage ? () => setDialog(r.id) : undefined}
                onDelete={r.can_manage && r.id !== user?.id ? () => setDeleting(r as Staff) : undefined}
              />
            )}
          />
        </DataTable>
      </List>
      <StaffFormDialog target={dialog} onClose={() => setDialog(null)} />
      <ConfirmDelete
        resource="staff"
        record={deleting}
        name={deleting?.name ?? ''}
        onClose={() => setDeleting(null)}
        successMessage="resources.staff.notifications.deleted"
      />
    </Box>
  );
}
