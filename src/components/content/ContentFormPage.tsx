import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { Box, Button, Card } from '@mui/material';
import { CreateBase, EditBase, SaveButton, SimpleForm, Toolbar, useNotify, useTranslate, type RaRecord } from 'react-admin';
import { ErrorPage } from '../../layout/ErrorPage';
import { usePageHeader } from '../../layout/navigation';
import { KEEP_TYPED_VALUES } from '../forms';

function FormToolbar() {
  const translate = useTranslate();
  const navigate = useNavigate();
  return (
    <Toolbar sx={{ justifyContent: 'flex-end', gap: 1 }}>
      <Button onClick={() => navigate(-1)}>{translate('app.actions.cancel')}</Button>
      <SaveButton label="app.actions.save" />
    </Toolbar>
  );
}

export interface ContentFormPageProps<T extends RaRecord> {
  resource: string;
  /** Edit this record; without it the page creates one. */
  id?: string;
  /** i18n keys of the header title and of the success toasts. */
  titles: { create: string; edit: string };
  notifications: { created: string; updated: string };
  backTo: string;
  /** Where to go after saving. */
  afterSave: (record: T) => string;
  createDefaults?: Partial<T>;
  children: ReactNode;
}

/** A create/edit page of a content resource: one card with a form; 422 messages show under the fields. */
export function ContentFormPage<T extends RaRecord>({
  resource,
  id,
  titles,
  notifications,
  backTo,
  afterSave,
  createDefaults,
  children,
}: ContentFormPageProps<T>) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const notify = useNotify();
  usePageHeader(translate(id ? titles.edit : titles.create), backTo);
  const saved = (message: string) => (record: T) => {
    notify(message, { type: 'success' });
    navigate(afterSave(record));
  };
  if (id !== undefined && !/^\d+$/.test(id)) return <ErrorPage status={404} message="" />;
  const form = (
    <Card sx={{ maxWidth: 960 }}>
      <SimpleForm toolbar={<FormToolbar />} defaultValues={id ? undefined : createDefaults} resetOptions={KEEP_TYPED_VALUES}>
        {children}
      </SimpleForm>
    </Card>
  );
  return (
    <Box>
      {id ? (
        <EditBase<T>
          resource={resource}
          id={Number(id)}
          redirect={false}
          mutationMode="pessimistic"
          mutationOptions={{ onSuccess: saved(notifications.updated) }}
        >
          {form}
        </EditBase>
      ) : (
        <CreateBase<T> resource={resource} redirect={false} mutationOptions={{ onSuccess: saved(notifications.created) }}>
          {form}
        </CreateBase>
      )}
    </Box>
  );
}
