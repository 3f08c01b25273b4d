import { useCallback, useLayoutEffect, useRef, type ReactElement } from 'react';
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
