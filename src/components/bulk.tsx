import { useCallback, useLayoutEffect, useRef, type ReactElement } from 'react';
import PublishOutlined from '@mui/icons-material/PublishOutlined';
import UnpublishedOutlined from '@mui/icons-material/UnpublishedOutlined';
import { BulkDeleteButton, BulkUpdateButton, useListContext, useNotify, useRefresh, useTranslate, type Identifier, type RaRecord } from 'react-admin';
import { BulkRefusalError } from '../dataProvider/bulk';

/** How a row is named in the list of rows a bulk action left as they were (a request's «№ 12», a member's name). */
export type RowName<R extends RaRecord = RaRecord> = (record: R) => string;

export interface BulkProblem {
  id: Identifier;
  /** Why, in the reader's words (an i18n key or the API's Ukrainian message). */
  message: string;
  messageArgs?: Record<string, unknown>;
}

/**
 * Tells which selected rows a bulk action left as they were and why, one line each, in a toast
 * that stays until it is closed: `done` rows have changed, `problems` have not.
 */
export function useBulkProblems<R extends RaRecord = RaRecord>(name: RowName<R>, kind: 'update' | 'delete' = 'update') {
  const notify = useNotify();
  const translate = useTranslate();
  const { data } = useListContext<R>();
  // The rows as the list shows them when the answer comes (it may come after the undo delay).
  const rows = useRef(data);
  useLayoutEffect(() => {
    rows.current = data;
  });
  return useCallback(
    (problems: BulkProblem[], total: number, type: 'error' | 'warning' = 'error') => {
      const named = (id: Identifier) => {
        // Ids of the answer are numbers; a selection may hold strings.
        const row = rows.current?.find((r) => String(r.id) === String(id));
        return row ? name(row) : translate('app.bulk.row', { id });
      };
      const lines = problems.map((p) => `${named(p.id)}: ${translate(p.message, { _: p.message, ...p.messageArgs })}`);
      notify(kind === 'delete' ? 'app.bulk.not_deleted' : 'app.bulk.not_changed', {
        type,
        autoHideDuration: null,
        messageArgs: { smart_count: problems.length, total, text: lines.join('\n') },
      });
    },
    [kind, name, notify, translate],
  );
}

/**
 * The `onError` of a bulk mutation: the rows the API refused, each with its reason (a
 * BulkRefusalError), or the error as it is; then the list reloads, showing what did change.
 */
export function useBulkFailure<R extends RaRecord = RaRecord>(name: RowName<R>, kind: 'update' | 'delete' = 'update') {
  const notify = useNotify();
  const refresh = useRefresh();
  const tell = useBulkProblems(name, kind);
  return useCallback(
    (error: unknown) => {
      if (error instanceof BulkRefusalError) tell(error.refused, error.done.length + error.refused.length);
      else notify(error instanceof Error && error.message ? error.message : 'ra.notification.http_error', { type: 'error' });
      refresh();
    },
    [notify, refresh, tell],
  );
}

export interface BulkSetProps<R extends RaRecord = RaRecord> {
  /** i18n key of the button. */
  label: string;
  icon?: ReactElement;
  /** What every selected row takes (the fields of the resource's `bulkInput`). */
  data: Partial<R>;
  /** i18n key of the toast, with `smart_count` = the number of rows. */
  successMessage: string;
  name: RowName<R>;
}

/**
 * react-admin's bulk update, undoable: the selected rows show the change at once, the toast's
 * «Скасувати» takes it back before anything is sent, and rows the API refuses say why.
 */
export function BulkSet<R extends RaRecord = RaRecord>({ label, icon, data, successMessage, name }: BulkSetProps<R>) {
  const onError = useBulkFailure(name);
  return <BulkUpdateButton label={label} icon={icon} data={data} mutationMode="undoable" successMessage={successMessage} mutationOptions={{ onError }} />;
}

/** react-admin's bulk delete, undoable (no question first: «Скасувати» in the toast); rows that cannot go say why. */
export function BulkDelete<R extends RaRecord = RaRecord>({ name }: { name: RowName<R> }) {
  const onError = useBulkFailure(name, 'delete');
  return <BulkDeleteButton mutationMode="undoable" successMessage="app.bulk.deleted" mutationOptions={{ onError }} />;
}

export interface PublishChange<R extends RaRecord = RaRecord> {
  /** What a published record has (`{ status: 'published' }`, `{ published: 1 }`) and what a hidden one has. */
  on: Partial<R>;
  off: Partial<R>;
  /** i18n keys of the «take back» button and its toast (default: «Зняти з публікації»). */
  offLabel?: string;
  offMessage?: string;
}

/**
 * A content list's bulk actions, as the user's rights allow: publish and take back (records with
 * a publish state) and delete, each undoable. A list with none for the user passes `false` to
 * `bulkActionButtons` instead (`hasBulkActions`), so that it shows no row checkboxes.
 */
export function ContentBulkActions<R extends RaRecord = RaRecord>({
  name,
  publish,
  canEdit,
  canDelete,
}: {
  name: RowName<R>;
  publish?: PublishChange<R>;
  /** The user's rights (useRights). */
  canEdit: boolean;
  canDelete: boolean;
}) {
  return (
    <>
      {publish && canEdit && (
        <>
          <BulkSet<R> label="app.bulk.publish" icon={<PublishOutlined />} data={publish.on} successMessage="app.bulk.published" name={name} />
          <BulkSet<R>
            label={publish.offLabel ?? 'app.bulk.unpublish'}
            icon={<UnpublishedOutlined />}
            data={publish.off}
            successMessage={publish.offMessage ?? 'app.bulk.unpublished'}
            name={name}
          />
        </>
      )}
      {canDelete && <BulkDelete<R> name={name} />}
    </>
  );
}

/** Whether `ContentBulkActions` has anything for this user. */
export const hasBulkActions = (p: { publish?: unknown; canEdit: boolean; canDelete: boolean }) => (!!p.publish && p.canEdit) || p.canDelete;
