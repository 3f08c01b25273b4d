import { useState, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Box, Button, Card, CardContent, Divider, Stack, Typography } from '@mui/material';
import EditOutlined from '@mui/icons-material/EditOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import ForwardToInboxOutlined from '@mui/icons-material/ForwardToInboxOutlined';
import { useGetOne, useNotify, useTranslate } from 'react-admin';
import type { Staff } from '../../../contract/staff';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { apiFetch } from '../../dataProvider/http';
import { ErrorPage } from '../../layout/ErrorPage';
import { usePageHeader } from '../../layout/navigation';
import { formatDateTime } from '../../lib/dates';
import { useRights } from '../../lib/useRights';
import { useMinimumDelay } from '../../lib/useMinimumDelay';
import { useCurrentUser } from '../../useCurrentUser';
import { StaffComplexes } from './StaffComplexes';
import { StaffFormDialog } from './StaffFormDialog';

/**
 * /Staff/{id}: one staff member. Nobody deletes themselves, and a colleague with a stronger role
 * is the admin's to change, so those buttons are left out there. The invitation can be sent
 * again while it is pending; a password link to someone who has a password is an admin's to send.
 */
export default function StaffShow() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { id = '' } = useParams();
  const { user } = useCurrentUser();
  const staffId = Number(id);
  const valid = Number.isInteger(staffId) && staffId > 0;
  const { data, isPending, error } = useGetOne<Staff>('staff', { id: staffId }, { retry: false, enabled: valid });
  const loading = useMinimumDelay(isPending);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const { canEdit, canDelete } = useRights('staff');
  const notify = useNotify();
  const [inviting, setInviting] = useState(false);
  usePageHeader(data?.name ?? translate('resources.staff.title'), '/Staff');

  if (!valid) return <ErrorPage status={404} message="" />;
  if (error) {
    const status = (error as { status?: number }).status ?? 500;
    return <ErrorPage status={status} message={(error as Error).message} />;
  }
  if (loading || !data) return null;

  const invite = async () => {
    setInviting(true);
    try {
      await apiFetch(`/staff/${data.id}/invite`, { method: 'POST' });
      notify(data.invitation_pending ? 'resources.staff.notifications.invited' : 'resources.staff.notifications.password_link_sent', {
        type: 'success',
        messageArgs: { email: data.email },
      });
    } catch (err) {
      notify((err as Error).message, { type: 'error' });
    } finally {
      setInviting(false);
    }
  };
  const self = data.id === user?.id;
  const f = (k: string) => translate(`resources.staff.fields.${k}`);
  const rows: [string, ReactNode][] = [
    [f('name'), data.name],
    [f('email'), data.email],
    [f('phone'), data.phone ?? '—'],
    [f('role'), data.is_admin ? translate('resources.staff.admin') : (data.role ?? translate('resources.staff.no_role'))],
    [f('departure'), data.departure ?? '—'],
    [f('complexes'), <StaffComplexes key="c" staff={data} />],
    [f('created_at'), formatDateTime(data.created_at)],
  ];
  return (
    <Box sx={{ maxWidth: 960 }}>
      <Stack direction="row" spacing={1} sx={{ mb: 2, justifyContent: 'flex-end' }}>
        {canEdit && data.can_manage && !self && (data.invitation_pending || user?.is_admin) && (
          <Button variant="outlined" startIcon={<ForwardToInboxOutlined />} disabled={inviting} onClick={() => void invite()}>
            {translate(data.invitation_pending ? 'resources.staff.resend_invite' : 'resources.staff.send_password_link')}
          </Button>
        )}
        {canEdit && data.can_manage && (
          <Button variant="outlined" startIcon={<EditOutlined />} onClick={() => setEditing(true)}>
            {translate('app.actions.edit')}
          </Button>
        )}
        {canDelete && data.can_manage && !self && (
          <Button variant="outlined" color="error" startIcon={<DeleteOutline />} onClick={() => setDeleting(true)}>
            {translate('app.actions.delete')}
          </Button>
        )}
      </Stack>
      <Card>
        <CardContent>
          <Stack divider={<Divider flexItem />} spacing={1.5}>
            {rows.map(([label, value]) => (
              <Stack key={label} direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0.5, sm: 2 }}>
                <Typography color="text.secondary" sx={{ width: { sm: 220 }, flexShrink: 0 }}>
                  {label}
                </Typography>
                <Box sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{value}</Box>
              </Stack>
            ))}
          </Stack>
        </CardContent>
      </Card>
      <StaffFormDialog target={editing ? data.id : null} onClose={() => setEditing(false)} />
      <ConfirmDelete
        resource="staff"
        record={deleting ? data : null}
        name={data.name}
        onClose={() => setDeleting(false)}
        onDeleted={() => navigate('/Staff')}
        successMessage="resources.staff.notifications.deleted"
      />
    </Box>
  );
}
