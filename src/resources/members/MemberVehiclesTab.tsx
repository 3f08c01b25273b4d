import { useState } from 'react';
import { Button, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { useGetList, useTranslate, type Identifier } from 'react-admin';
import type { Vehicle } from '../../../contract/members';
import { vehicleEntity } from '../../../contract/vehicles';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { ExportButtons } from '../../components/ExportButtons';
import { ResourceFormDialog } from '../../components/ResourceFormDialog';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { useEntityLabels } from '../generic/labels';
import { VehicleFields } from './MemberFields';
import { useRights } from '../../lib/useRights';

/**
 * Vehicles tab: the member's cars with their parking places, and the export of exactly them.
 * It stays a tab of the member (not the generic list): the member is its filter, from the address.
 */
export function MemberVehiclesTab({ memberId }: { memberId: number }) {
  const translate = useTranslate();
  const labels = useEntityLabels(vehicleEntity);
  const {
    data = [],
    isPending,
    refetch,
  } = useGetList<Vehicle>('vehicles', { filter: { member_id: memberId }, pagination: { page: 1, perPage: 100 }, sort: { field: 'plate', order: 'ASC' } });
  const [dialog, setDialog] = useState<Identifier | 'create' | null>(null);
  const [deleting, setDeleting] = useState<Vehicle | null>(null);
  const { canCreate, canEdit, canDelete } = useRights('members');
  return (
    <>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', alignItems: 'center', mb: 1 }}>
        {data.length > 0 && <ExportButtons path={`${vehicleEntity.path}/export`} filter={{ member_id: memberId, sort: 'plate', order: 'asc' }} />}
        {canCreate && (
          <Button size="small" variant="contained" startIcon={<AddIcon />} onClick={() => setDialog('create')}>
            {translate('app.actions.add')}
          </Button>
        )}
      </Stack>
      {!isPending && data.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ py: 2 }}>
          {translate('resources.vehicles.empty')}
        </Typography>
      ) : (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{labels.field('plate')}</TableCell>
              <TableCell>{labels.field('brand')}</TableCell>
              <TableCell>{labels.field('color')}</TableCell>
              <TableCell>{labels.field('parking')}</TableCell>
              <TableCell sx={{ width: 56 }} />
            </TableRow>
          </TableHead>
          <TableBody>
            {data.map((v) => (
              <TableRow key={v.id}>
                <TableCell sx={{ fontFamily: 'monospace', fontWeight: 600 }}>{v.plate}</TableCell>
                <TableCell>{[v.brand, v.model].filter(Boolean).join(' ') || '—'}</TableCell>
                <TableCell>{v.color || '—'}</TableCell>
                <TableCell>{v.parking ?? '—'}</TableCell>
                <TableCell>
                  <RowActionsMenu onEdit={canEdit ? () => setDialog(v.id) : undefined} onDelete={canDelete ? () => setDeleting(v) : undefined} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <ResourceFormDialog<Vehicle>
        resource="vehicles"
        target={dialog}
        onClose={() => setDialog(null)}
        onSaved={() => void refetch()}
        defaultValues={{ member_id: memberId } as Partial<Vehicle>}
        title={{ create: 'resources.vehicles.create_title', edit: 'resources.vehicles.edit_title' }}
        notifications={{ created: 'resources.vehicles.notifications.created', updated: 'resources.vehicles.notifications.updated' }}
      >
        <VehicleFields entity={vehicleEntity} />
      </ResourceFormDialog>
      <ConfirmDelete
        resource="vehicles"
        record={deleting}
        name={deleting?.plate ?? ''}
        onClose={() => setDeleting(null)}
        onDeleted={() => void refetch()}
        successMessage="resources.vehicles.notifications.deleted"
      />
    </>
  );
}
