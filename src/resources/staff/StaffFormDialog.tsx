import type { Identifier } from 'react-admin';
import type { Staff } from '../../../contract/staff';
import { ResourceFormDialog } from '../../components/ResourceFormDialog';
import { StaffFields } from './StaffFields';

/** Create (with an e-mail invitation) or edit a staff member in a dialog. */
export function StaffFormDialog({ target, onClose }: { target: Identifier | 'create' | null; onClose: () => void }) {
  return (
    <ResourceFormDialog<Staff>
      resource="staff"
      target={target}
      onClose={onClose}
      defaultValues={{ is_admin: false, complex_ids: [], phone: null }}
      title={{ create: 'resources.staff.create_title', edit: 'resources.staff.edit_title' }}
      notifications={{ created: 'resources.staff.notifications.created', updated: 'resources.staff.notifications.updated' }}
    >
      <StaffFields creating={target === 'create'} />
    </ResourceFormDialog>
  );
}
