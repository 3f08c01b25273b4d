import type { ReactNode } from 'react';
import { Button } from '@mui/material';
import { CreateBase, EditBase, SaveButton, SimpleForm, Toolbar, useNotify, useTranslate, type Identifier, type RaRecord } from 'react-admin';
import { FormDialog, ReportFormDirty, useFormDialogClose } from './FormDialog';
import { KEEP_TYPED_VALUES } from './forms';
import type { DialogSize } from './dialogs';

export interface ResourceFormDialogProps<T extends RaRecord> {
  resource: string;
  /** Open state: `null` closed, `'create'` a new record, an id to edit that record. */
  target: Identifier | 'create' | null;
  onClose: () => void;
  /** i18n keys (or words already translated) of the dialog's title */
  title: { create: string; edit: string };
  /** i18n keys (or words already translated) of the success toasts */
  notifications: { created: string; updated: string };
  onSaved?: (record: T, created: boolean) => void | Promise<void>;
  defaultValues?: Partial<T>;
  size?: DialogSize;
  children: ReactNode;
}

/**
 * Create or edit one record of a resource in a dialog: react-admin's CreateBase/EditBase with a
 * SimpleForm; the server's 422 messages show under the fields.
 */
export function ResourceFormDialog<T extends RaRecord>({
  resource,
  target,
  onClose,
  title,
  notifications,
  onSaved,
  defaultValues,
  size,
  children,
}: ResourceFormDialogProps<T>) {
  const translate = useTranslate();
  const notify = useNotify();
  const creating = target === 'create';
  const form = (
    <SimpleForm
      defaultValues={defaultValues}
      resetOptions={KEEP_TYPED_VALUES}
      toolbar={
        <Toolbar sx={{ justifyContent: 'flex-end', gap: 1, px: 0, bgcolor: 'transparent' }}>
          <CancelButton />
          <SaveButton label="app.actions.save" />
        </Toolbar>
      }
    >
      <ReportFormDirty />
      {children}
    </SimpleForm>
  );
  const done = (created: boolean) => async (record: T) => {
    const message = created ? notifications.created : notifications.updated;
    notify(message, { type: 'success', messageArgs: { _: message } });
    onClose();
    await onSaved?.(record, created);
  };
  return (
    <FormDialog
      open={target !== null}
      onClose={onClose}
      title={translate(creating ? title.create : title.edit, { _: creating ? title.create : title.edit })}
      size={size}
    >
      {creating && (
        <CreateBase<T> resource={resource} redirect={false} mutationOptions={{ onSuccess: done(true) }}>
          {form}
        </CreateBase>
      )}
      {target !== null && !creating && (
        <EditBase<T> resource={resource} id={target} redirect={false} mutationMode="pessimistic" mutationOptions={{ onSuccess: done(false) }}>
          {form}
        </EditBase>
      )}
    </FormDialog>
  );
}

/** «Скасувати»: closes the dialog, asking first when the form holds unsaved changes. */
function CancelButton() {
  const translate = useTranslate();
  const close = useFormDialogClose();
  return <Button onClick={close}>{translate('app.actions.cancel')}</Button>;
}
