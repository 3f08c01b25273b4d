import { useAuthProvider, useGetIdentity, type Identifier } from 'react-admin';
import { ResourceFormDialog } from '../../components/ResourceFormDialog';
import type { Complex } from '../../types';
import { ComplexFields } from './ComplexForm';

export const COMPLEX_ADDED_EVENT = 'complexAdded';

/** The user's list of complexes (in GET /user) changes with every create or edit. */
function useReloadUser() {
  const authProvider = useAuthProvider() as { refreshUser?: () => Promise<unknown> } | undefined;
  const { refetch } = useGetIdentity();
  return async () => {
    await authProvider?.refreshUser?.();
    refetch();
  };
}

/** Create (target 'create') or edit (target id) a complex in a dialog. */
export function ComplexFormDialog({ target, onClose }: { target: Identifier | 'create' | null; onClose: () => void }) {
  const reloadUser = useReloadUser();
  return (
    <ResourceFormDialog<Complex>
      resource="complexes"
      target={target}
      onClose={onClose}
      title={{ create: 'resources.complexes.create_title', edit: 'resources.complexes.edit_title' }}
      notifications={{ created: 'resources.complexes.notifications.created', updated: 'resources.complexes.notifications.updated' }}
      onSaved={async (record, created) => {
        await reloadUser();
        if (created) window.dispatchEvent(new CustomEvent(COMPLEX_ADDED_EVENT, { detail: record }));
      }}
    >
      <ComplexFields />
    </ResourceFormDialog>
  );
}
