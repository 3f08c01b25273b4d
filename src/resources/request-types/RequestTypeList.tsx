import { useState } from 'react';
import { Box } from '@mui/material';
import { DataTable, List, SearchInput, TopToolbar, useTranslate, type Identifier, type RaRecord } from 'react-admin';
import { ListPagination } from '../../components/ListPagination';
import { listFields } from '../../../contract/entity';
import { requestTypeEntity, type RequestType } from '../../../contract/staff';
import { AddButton } from '../../components/AddButton';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { ResourceFormDialog } from '../../components/ResourceFormDialog';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { usePageHeader } from '../../layout/navigation';
import { Cell } from '../generic/EntityList';
import { ListExport } from '../generic/ListExport';
import { useEntityLabels } from '../generic/labels';
import { RequestTypeFields } from './RequestTypeFields';

const entity = requestTypeEntity;

/**
 * /Type-requests: kinds of service request with the roles and default staff that handle them.
 * Columns, labels and the export of the current filter come from the declaration
 * (contract/staff.ts); the form stays the screen's own (roles and staff from the form's choices).
 */
export default function RequestTypeList() {
  const translate = useTranslate();
  const labels = useEntityLabels(entity);
  usePageHeader(translate('resources.service-request-types.title'));
  const [dialog, setDialog] = useState<Identifier | 'create' | null>(null);
  const [deleting, setDeleting] = useState<RequestType | null>(null);

  return (
    <Box>
      <List<RequestType>
        resource="service-request-types"
        title={false}
        perPage={10}
        pagination={<ListPagination rowsPerPageOptions={[10, 25, 50, 100]} />}
        sort={{ field: 'name', order: 'ASC' }}
        filters={[<SearchInput key="q" source="q" alwaysOn placeholder={translate('resources.service-request-types.filters.search')} sx={{ minWidth: 320 }} />]}
        exporter={false}
        actions={
          <TopToolbar sx={{ alignItems: 'center', gap: 1 }}>
            <ListExport path={entity.path} />
            <AddButton area="service_request_types" onClick={() => setDialog('create')} />
          </TopToolbar>
        }
      >
        <DataTable<RequestType> bulkActionButtons={false} rowClick={false}>
          {listFields(entity).map(([source, field]) => (
            <DataTable.Col
              key={source}
              source={source}
              label={labels.field(source)}
              disableSort={!field.sortable}
              render={(r: RaRecord) => <Cell entity={entity} source={source} field={field} record={r} />}
            />
          ))}
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
