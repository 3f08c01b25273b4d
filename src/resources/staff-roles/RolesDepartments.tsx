import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Box, Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { DataTable, ListContextProvider, useGetList, useList, useTranslate, type Identifier } from 'react-admin';
import { AREAS, type Rules } from '../../../contract/permissions';
import { excessRules, type Role } from '../../../contract/staff';
import { AddButton } from '../../components/AddButton';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { RowActionsMenu } from '../../components/RowActionsMenu';
import { usePageHeader } from '../../layout/navigation';
import { useCurrentUser } from '../../useCurrentUser';
import { ListExport } from '../generic/ListExport';
import { DepartmentsPanel } from './DepartmentsPanel';
import { RoleFormDialog } from './RoleFormDialog';

/** What a role may do, one chip per area it sees (full rights in bold colour). */
function RightsSummary({ role }: { role: Role }) {
  const translate = useTranslate();
  const areas = AREAS.filter((a) => role.permissions[a]?.length);
  if (areas.length === 0) return <Typography color="text.secondary">{translate('app.permissions.none')}</Typography>;
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {areas.map((a) => {
        const actions = role.permissions[a]!;
        const label = `${translate(`app.areas.${a}`)}: ${actions.map((x) => translate(`app.permissions.${x}`).toLowerCase()).join(', ')}`;
        return <Chip key={a} size="small" variant={actions.length === 4 ? 'filled' : 'outlined'} label={label} />;
      })}
    </Stack>
  );
}

/** /Roles-departments: departments and staff roles on one screen, with the permission matrix editor. */
export default function RolesDepartments() {
  const translate = useTranslate();
  usePageHeader(translate('resources.staff-roles.title'));
  const { data = [], isPending } = useGetList<Role>('staff-roles');
  const queryClient = useQueryClient();
  // Roles show their department's name and departments count their roles: a change to either reloads both.
  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: ['staff-roles'] });
    void queryClient.invalidateQueries({ queryKey: ['staff-departures'] });
  };
  const list = useList<Role>({ data, isPending, perPage: 1000 });
  const [dialog, setDialog] = useState<Identifier | 'create' | null>(null);
  const [deleting, setDeleting] = useState<Role | null>(null);
  const { user } = useCurrentUser();
  // A role with rights beyond the user's own is the admin's to change (the API refuses it too).
  const manageable = (role: Role) => Boolean(user?.is_admin || (user && excessRules(role.permissions as Rules, user.rules).length === 0));

  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '320px 1fr' }, alignItems: 'start' }}>
      <DepartmentsPanel onChanged={reload} />
      <Card component="section" aria-labelledby="roles-title">
        <CardContent>
          <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
            <Typography id="roles-title" variant="h6" component="h2">
              {translate('resources.staff-roles.roles')}
            </Typography>
            <ListContextProvider value={list}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <ListExport path="/staff_role" />
                <AddButton area="staff_roles" onClick={() => setDialog('create')} />
              </Stack>
            </ListContextProvider>
          </Stack>
          <ListContextProvider value={list}>
            <DataTable<Role>
              resource="staff-roles"
              bulkActionButtons={false}
              rowClick={false}
              empty={<Typography color="text.secondary">{translate('resources.staff-roles.empty')}</Typography>}
            >
              <DataTable.Col source="name" label="resources.staff-roles.fields.name" disableSort />
              <DataTable.Col source="departure" label="resources.staff-roles.fields.departure" disableSort render={(r) => r.departure ?? '—'} />
              <DataTable.Col source="staff_count" label="resources.staff-roles.fields.staff_count" disableSort />
              <DataTable.Col
                source="permissions"
                label="resources.staff-roles.fields.permissions"
                disableSort
                render={(r) => <RightsSummary role={r as Role} />}
              />
              <DataTable.Col
                label=""
                disableSort
                sx={{ width: 56 }}
                render={(r) =>
                  manageable(r as Role) && <RowActionsMenu area="staff_roles" onEdit={() => setDialog(r.id)} onDelete={() => setDeleting(r as Role)} />
                }
              />
            </DataTable>
          </ListContextProvider>
        </CardContent>
      </Card>
      <RoleFormDialog target={dialog} onClose={() => setDialog(null)} onSaved={reload} />
      <ConfirmDelete
        resource="staff-roles"
        record={deleting}
        name={deleting?.name ?? ''}
        onClose={() => setDeleting(null)}
        onDeleted={reload}
        successMessage="resources.staff-roles.notifications.deleted"
      />
    </Box>
  );
}
