import { CreateBase, EditBase, useAuthProvider, useGetIdentity, useNotify, useTranslate, type Identifier } from 'react-admin';
import { FormDialog } from '../../components/FormDialog';
import type { Complex } from '../../types';
import { ComplexForm } from './ComplexForm';

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

export function ComplexCreateDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const reloadUser = useReloadUser();
  return (
    <FormDialog open={open} onClose={onClose} title={translate('resources.complexes.create_title')}>
      <CreateBase<Complex>
        resource="complexes"
        redirect={false}
        mutationOptions={{
          onSuccess: async (record) => {
            notify('resources.complexes.notifications.created', { type: 'success', messageArgs: { text: record.name } });
            onClose();
            await reloadUser();
            window.dispatchEvent(new CustomEvent(COMPLEX_ADDED_EVENT, { detail: record }));
          },
        }}
      >
        <ComplexForm onCancel={onClose} />
      </CreateBase>
    </FormDialog>
  );
}

export function ComplexEditDialog({ id, onClose }: { id: Identifier | null; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const reloadUser = useReloadUser();
  return (
    <FormDialog open={id !== null} onClose={onClose} title={translate('resources.complexes.edit_title')}>
      {id !== null && (
        <EditBase<Complex>
          resource="complexes"
          id={id}
          redirect={false}
          mutationMode="pessimistic"
          mutationOptions={{
            onSuccess: async () => {
              notify('resources.complexes.notifications.updated', { type: 'success' });
              onClose();
              await reloadUser();
            },
          }}
        >
          <ComplexForm onCancel={onClose} />
        </EditBase>
      )}
    </FormDialog>
  );
}
