import { Confirm, useDelete, useNotify, useTranslate } from 'react-admin';
import type { RaRecord } from 'react-admin';

/** Confirmation dialog that deletes a record through the dataProvider. */
export function ConfirmDelete({
  resource,
  record,
  name,
  onClose,
  onDeleted,
  successMessage,
}: {
  resource: string;
  record: RaRecord | null;
  name: string;
  onClose: () => void;
  onDeleted?: () => void;
  successMessage: string;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const [deleteOne, { isPending }] = useDelete();
  return (
    <Confirm
      isOpen={Boolean(record)}
      loading={isPending}
      title={translate('app.actions.delete_confirm_title', { name })}
      content={translate('app.actions.delete_confirm_text')}
      confirm={translate('app.actions.delete')}
      cancel={translate('app.actions.cancel')}
      confirmColor="warning"
      onClose={onClose}
      onConfirm={() =>
        record &&
        deleteOne(
          resource,
          { id: record.id, previousData: record },
          {
            onSuccess: () => {
              notify(successMessage, { type: 'success' });
              onClose();
              onDeleted?.();
            },
            onError: (err) => {
              notify((err as Error).message, { type: 'error' });
              onClose();
            },
          },
        )
      }
    />
  );
}
