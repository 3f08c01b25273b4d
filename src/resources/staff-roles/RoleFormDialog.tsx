import { ReferenceInput, SelectInput, TextInput, required, type Identifier } from 'react-admin';
import type { Role } from '../../../contract/staff';
import { ResourceFormDialog } from '../../components/ResourceFormDialog';
import { useCurrentUser } from '../../useCurrentUser';
import { PermissionMatrixInput } from './PermissionMatrix';

/** A role: name, department and the permission matrix. */
export function RoleFormDialog({ target, onClose, onSaved }: { target: Identifier | 'create' | null; onClose: () => void; onSaved: () => void }) {
  const { user } = useCurrentUser();
  return (
    <ResourceFormDialog<Role>
      resource="staff-roles"
      target={target}
      onClose={onClose}
      onSaved={onSaved}
      size="large"
      defaultValues={{ departure_id: null, permissions: {} }}
      title={{ create: 'resources.staff-roles.create_title', edit: 'resources.staff-roles.edit_title' }}
      notifications={{ created: 'resources.staff-roles.notifications.created', updated: 'resources.staff-roles.notifications.updated' }}
    >
      <TextInput source="name" label="resources.staff-roles.fields.name" validate={required()} fullWidth />
      <ReferenceInput source="departure_id" reference="staff-departures">
        <SelectInput optionText="name" label="resources.staff-roles.fields.departure_id" emptyText="resources.staff-roles.no_departure" fullWidth />
      </ReferenceInput>
      <PermissionMatrixInput source="permissions" limit={user?.is_admin ? undefined : user?.rules} />
    </ResourceFormDialog>
  );
}
