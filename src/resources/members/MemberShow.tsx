import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { Box, Button, Chip, Paper, Stack, Tab, Tabs, Typography } from '@mui/material';
import EditIcon from '@mui/icons-material/EditOutlined';
import { useGetOne, useTranslate } from 'react-admin';
import type { Member } from '../../../contract/members';
import { ResourceFormDialog } from '../../components/ResourceFormDialog';
import { ErrorPage } from '../../layout/ErrorPage';
import { usePageHeader } from '../../layout/navigation';
import { MemberBillsTab } from './MemberBillsTab';
import { MemberFields } from './MemberFields';
import { MemberRolesTab, MemberUnitsTab } from './MemberUnitsTabs';
import { MemberVehiclesTab } from './MemberVehiclesTab';
import { LoadError } from '../../components/LoadError';
import { useRights } from '../../lib/useRights';

const TABS = ['units', 'roles', 'vehicles', 'bills'] as const;

/** /Members/{id}: the member's details with their units, roles, vehicles and bills. */
export default function MemberShow() {
  const translate = useTranslate();
  const { id } = useParams();
  const memberId = Number(id);
  const { data: member, error, isPending, refetch } = useGetOne<Member>('members', { id: memberId }, { enabled: Number.isInteger(memberId) && memberId > 0 });
  const [tab, setTab] = useState<(typeof TABS)[number]>('units');
  const [editing, setEditing] = useState(false);
  const { canEdit } = useRights('members');
  usePageHeader(member?.name ?? translate('resources.members.title'), '/Members');

  if (!Number.isInteger(memberId) || memberId <= 0 || (error as { status?: number } | null)?.status === 404) return <ErrorPage status={404} message="" />;
  if (error) return <LoadError error={error} onRetry={() => void refetch()} />;
  if (isPending || !member) return null;

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-start' } }}>
          <Box>
            <Typography variant="h6" component="h1">
              {member.name}
            </Typography>
            <Stack direction="row" spacing={3} sx={{ mt: 1, flexWrap: 'wrap', rowGap: 1 }}>
              <Typography variant="body2">
                <Box component="span" sx={{ color: 'text.secondary' }}>
                  {translate('resources.members.fields.phone')}:{' '}
                </Box>
                {member.phone ?? '—'}
              </Typography>
              <Typography variant="body2">
                <Box component="span" sx={{ color: 'text.secondary' }}>
                  {translate('resources.members.fields.email')}:{' '}
                </Box>
                {member.email ?? '—'}
              </Typography>
              <Chip size="small" color={member.status === 'active' ? 'success' : 'default'} label={translate(`resources.members.statuses.${member.status}`)} />
            </Stack>
            {member.note && (
              <Typography variant="body2" sx={{ mt: 1, whiteSpace: 'pre-wrap' }}>
                {member.note}
              </Typography>
            )}
          </Box>
          {canEdit && (
            <Button variant="outlined" size="small" startIcon={<EditIcon />} onClick={() => setEditing(true)}>
              {translate('app.actions.edit')}
            </Button>
          )}
        </Stack>
      </Paper>
      <Paper variant="outlined">
        <Tabs value={tab} onChange={(_, v) => setTab(v)} variant="scrollable" sx={{ borderBottom: 1, borderColor: 'divider' }}>
          {TABS.map((t) => (
            <Tab key={t} value={t} label={translate(`resources.members.tabs.${t}`)} />
          ))}
        </Tabs>
        <Box sx={{ p: 2 }}>
          {tab === 'units' && <MemberUnitsTab memberId={member.id} />}
          {tab === 'roles' && <MemberRolesTab memberId={member.id} onChanged={refetch} />}
          {tab === 'vehicles' && <MemberVehiclesTab memberId={member.id} />}
          {tab === 'bills' && <MemberBillsTab memberId={member.id} />}
        </Box>
      </Paper>
      <ResourceFormDialog<Member>
        resource="members"
        target={editing ? member.id : null}
        onClose={() => setEditing(false)}
        onSaved={() => void refetch()}
        title={{ create: 'resources.members.create_title', edit: 'resources.members.edit_title' }}
        notifications={{ created: 'resources.members.notifications.created', updated: 'resources.members.notifications.updated' }}
      >
        <MemberFields />
      </ResourceFormDialog>
    </Box>
  );
}
