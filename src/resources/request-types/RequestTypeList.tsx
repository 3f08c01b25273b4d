import { useState } from 'react';
import { Box, Chip, Stack } from '@mui/material';
import { DataTable, List, Pagination, SearchInput, TopToolbar, useTranslate, type Identifier } from 'react-admin';
import type { RequestType } from '../../../contract/staff';
import { AddButton } from '../../components/AddButton';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { ResourceFormDialog } from '../../components/ResourceFormDialog';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { usePageHeader } from '../../layout/navigation';
import { RequestTypeFields } from './RequestTypeFields';

const Chips = ({ items }: { items: { id: number; name: string }[] }) =>
  items.length === 0 ? (
    <>—</>
  ) : (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {items.map((i) => (
        <Chip key={i.id} size="small" label={i.name} />
      ))}
    </Stack>
  );

/** /Type-requests: kinds of service request with the roles and default staff that handle them. */
export default function RequestTypeList() {
  const translate = useTranslate();
  usePageHeader(translate('resources.service-request-types.title'));
  const [dialog, setDialog] = useState<Identifier | 'create' | null>(null);
  const [deleting, setDeleting] = useState<RequestType | null>(null);

  return (
    <Box>
      <List<RequestType>
        resource="service-request-types"
        title={false}
        perPage={10}
        pagination={<Pagination rowsPerPageOptions={[10, 25, 50, 100]} />}
        sort={{ field: 'name', order: 'ASC' }}
        filters={[<SearchInput key="q" source="q" alwaysOn placeholder={translate('resources.service-request-types.filters.search')} sx={{ minWidth: 320 }} />]}
        exporter={false}
        actions={
          <TopToolbar>
            <AddButton area="service_request_types" onClick={() => setDialog('create')} />
          </TopToolbar>
        }
      >
        <DataTable<RequestType> bulkActionButtons={false} rowClick={false}>
          <DataTable.Col source="name" label="resources.service-request-types.fields.name" />
          <DataTable.Col source="description" label="resources.service-request-types.fields.description" disableSort render={(r) => r.description || '—'} />
          <DataTable.Col source="roles" label="resources.service-request-types.fields.roles" disableSort render={(r) => <Chips items={(r as RequestType).roles} />} />
          <DataTable.Col source="staff" label="resources.service-request-types.fields.staff" disableSort render={(r) => <Chips items={(r as RequestType).staff} />} />
          <DataTable.Col
            label=""
            disableSort
            sx={{ width: 56 }}
            render={(r) => <RowActionsMenu area="service_request_types" onEdit={() => setDialog(r.id)} onDelete={() => setDeleting(r as RequestType)} />}
          />
        </DataTable>
      </List>
      <ResourceFormDialog<RequestType>
        resource="service-request-types"
        target={dialog}
        onClose={() => setDialog(null)}
        defaultValues={{ description: '', role_ids: [], staff_ids: [] }}
        title={{ create: 'resources.service-request-types.create_title', edit: 'resources.service-request-types.edit_title' }}
        notifications={{ created: 'resources.service-request-types.notifications.created', updated: 'resources.service-request-types.notifications.updated' }}
      >
        <RequestTypeFields />
      </ResourceFormDialog>
      <ConfirmDelete
        resource="service-request-types"
        record={deleting}
        name={deleting?.name ?? ''}
        onClose={() => setDeleting(null)}
        successMessage="resources.service-request-types.notifications.deleted"
      />
    </Box>
  );
}
