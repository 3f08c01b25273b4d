import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Dialog, DialogContent, DialogTitle, IconButton } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { Confirm, useTranslate } from 'react-admin';
import { useFormState } from 'react-hook-form';
import { DIALOG_WIDTH, type DialogSize } from './dialogs';

interface FormDialogControl {
  /** A form inside says whether it holds unsaved changes. */
  setDirty: (dirty: boolean) => void;
  /** Close as the user asked (Esc, the cross, «Скасувати»): asks first when there are changes. */
  requestClose: () => void;
}

const FormDialogContext = createContext<FormDialogControl>({ setDirty: () => {}, requestClose: () => {} });

/** The enclosing dialog's close, which asks before discarding unsaved changes. */
export const useFormDialogClose = () => useContext(FormDialogContext).requestClose;

/** Tells the enclosing dialog whether a hand-made form holds unsaved changes. */
export function useReportDirty(dirty: boolean) {
  const { setDirty } = useContext(FormDialogContext);
  useEffect(() => {
    setDirty(dirty);
    return () => setDirty(false);
  }, [dirty, setDirty]);
}

/** Placed inside a react-admin form: reports the form's unsaved changes to the dialog. */
export function ReportFormDirty() {
  const { isDirty } = useFormState();
  useReportDirty(isDirty);
  return null;
}

/**
 * A modal of one of the product's widths, with a title and a close button. Closing it by Esc, a
 * click outside or the cross while its form holds unsaved changes asks «Відкинути зміни?» first.
 */
export function FormDialog({
  open,
  onClose,
  title,
  size = 'medium',
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  size?: DialogSize;
  children: ReactNode;
}) {
  const translate = useTranslate();
  const [dirty, setDirty] = useState(false);
  const [asking, setAsking] = useState(false);
  // The form reports `false` again when it unmounts, so a closed dialog holds no changes.
  const requestClose = useCallback(() => (dirty ? setAsking(true) : onClose()), [dirty, onClose]);
  const control = useMemo(() => ({ setDirty, requestClose }), [requestClose]);
  return (
    <FormDialogContext.Provider value={control}>
      <Dialog
        open={open}
        onClose={requestClose}
        aria-labelledby="form-dialog-title"
        slotProps={{ paper: { sx: { width: DIALOG_WIDTH[size], maxWidth: 'calc(100% - 32px)' } } }}
      >
        <DialogTitle id="form-dialog-title" sx={{ pr: 6 }}>
          {title}
          <IconButton aria-label={translate('ra.action.close')} onClick={requestClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
            <CloseIcon />
          </IconButton>
        </DialogTitle>
        <DialogContent sx={{ '& .RaSimpleForm-root, & form > .MuiCardContent-root': { p: 0 } }}>{children}</DialogContent>
      </Dialog>
      <Confirm
        isOpen={asking && open}
        title={translate('app.actions.discard_title')}
        content={translate('app.actions.discard_text')}
        confirm={translate('app.actions.discard')}
        cancel={translate('app.actions.keep_editing')}
        confirmColor="warning"
        onClose={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          onClose();
        }}
      />
    </FormDialogContext.Provider>
  );
}
