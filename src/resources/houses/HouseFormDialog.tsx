import type { Identifier } from 'react-admin';
import type { House } from '../../../contract/houses';
import { ResourceFormDialog } from '../../components/ResourceFormDialog';
import { HouseFields } from './HouseFields';

/** Create a house in a complex (target 'create') or edit one (target id). */
export function HouseFormDialog({ target, complexId, onClose }: { target: Identifier | 'create' | null; complexId?: number; onClose: () => void }) {
  return (
    <ResourceFormDialog<House>
      resource="houses"
      target={target}
      onClose={onClose}
      size="large"
      defaultValues={{ complex_id: complexId ?? null } as Partial<House>}
      title={{ create: 'resources.houses.create_title', edit: 'resources.houses.edit_title' }}
      notifications={{ created: 'resources.houses.notifications.created', updated: 'resources.houses.notifications.updated' }}
    >
      <HouseFields />
    </ResourceFormDialog>
  );
}
