import { useState } from 'react';
import { Button, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { useGetList, useTranslate, type Identifier } from 'react-admin';
import type { Resident } from '../../../contract/members';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { ResourceFormDialog } from '../../components/ResourceFormDialog';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { unitLabel } from '../../lib/unitLabel';
import { formatArea } from '../realty/RealtyList';
import { ResidentFields } from './MemberFields';
import { useRights } from '../../lib/useRights';

/** The member's links to units (GET /residents?resident_id=<member>). */
function useMemberResidents(memberId: number) {
  return useGetList<Resident>('residents', {
    filter: { resident_id: memberId },
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'number', order: 'ASC' },
  });
}

function Empty({ text }: { text: string }) {
  return (
    <Typography variant="body2" color="text.secondary" sx={{ py: 2 }}>
      {text}
    </Typography>
  );
}

/** Units tab: where the member lives or what they own. */
export function MemberUnitsTab({ memberId }: { memberId: number }) {
  const translate = useTranslate();
  const { data = [], isPending } = useMemberResidents(memberId);
  if (!isPending && data.length === 0) return <Empty text={translate('resources.residents.empty')} />;
  return (
    <Table size="small">
      <TableHead>
        <TableRow>
          <TableCell>{translate('resources.residents.fields.address')}</TableCell>
          <TableCell>{translate('resources.residents.fields.type')}</TableCell>
          <TableCell>{translate('resources.residents.fields.number')}</TableCell>
          <TableCell>{translate('resources.residents.fields.area')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {data.map((r) => (
          <TableRow key={r.id}>
            <TableCell>{r.address}</TableCell>
            <TableCell>{translate(`resources.realty.types.${r.type}`)}</TableCell>
            <TableCell>{r.number}</TableCell>
            <TableCell>{formatArea(r.area)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** Roles tab: the member's role and ownership share in each unit, editable. */
export function MemberRolesTab({ memberId, onChanged }: { memberId: number; onChanged: () => void }) {
  const translate = useTranslate();
  const { data = [], isPending, refetch } = useMemberResidents(memberId);
  const [dialog, setDialog] = useState<Identifier | 'create' | null>(null);
  const [deleting, setDeleting] = useState<Resident | null>(null);
  const { canCreate, canEdit, canDelete } = useRights('members');
  const changed = () => {
    void refetch();
    onChanged();
  };
  return (
    <>
      {canCreate && (
        <Stack direction="row" sx={{ justifyContent: 'flex-end', mb: 1 }}>
          <Button size="small" variant="contained" startIcon={<AddIcon />} onClick={() => setDialog('create')}>
            {translate('resources.residents.create_title')}
          </Button>
        </Stack>
      )}
      {!isPending && data.length === 0 ? (
        <Empty text={translate('resources.residents.empty')} />
      ) : (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{translate('resources.residents.fields.realty_id')}</TableCell>
              <TableCell>{translate('resources.residents.fields.role_id')}</TableCell>
              <TableCell>{translate('resources.residents.fields.ownership_share')}</TableCell>
              <TableCell sx={{ width: 56 }} />
            </TableRow>
          </TableHead>
          <TableBody>
            {data.map((r) => (
              <TableRow key={r.id}>
                <TableCell>{unitLabel(r, translate)}</TableCell>
                <TableCell>{r.role}</TableCell>
                <TableCell>{r.ownership_share ?? '—'}</TableCell>
                <TableCell>
                  <RowActionsMenu onEdit={canEdit ? () => setDialog(r.id) : undefined} onDelete={canDelete ? () => setDeleting(r) : undefined} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <ResourceFormDialog<Resident>
        resource="residents"
        target={dialog}
        onClose={() => setDialog(null)}
        onSaved={changed}
        defaultValues={{ member_id: memberId } as Partial<Resident>}
        title={{ create: 'resources.residents.create_title', edit: 'resources.residents.edit_title' }}
        notifications={{ created: 'resources.residents.notifications.created', updated: 'resources.residents.notifications.updated' }}
      >
        <ResidentFields />
      </ResourceFormDialog>
      <ConfirmDelete
        resource="residents"
        record={deleting}
        name={deleting ? `№ ${deleting.number}` : ''}
        onClose={() => setDeleting(null)}
        onDeleted={changed}
        successMessage="resources.residents.notifications.deleted"
      />
    </>
  );
}
