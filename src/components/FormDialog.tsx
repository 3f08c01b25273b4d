import type { ReactNode } from 'react';
import { Dialog, DialogContent, DialogTitle, IconButton } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { useTranslate } from 'react-admin';
import { DIALOG_WIDTH, type DialogSize } from './dialogs';

/** A modal of one of the product's widths, with a title and a close button. */
export function FormDialog({ open, onClose, title, size = 'medium', children }: { open: boolean; onClose: () => void; title: string; size?: DialogSize; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby="form-dialog-title"
      slotProps={{ paper: { sx: { width: DIALOG_WIDTH[size], maxWidth: 'calc(100% - 32px)' } } }}
    >
      <DialogTitle id="form-dialog-title" sx={{ pr: 6 }}>
        {title}
        <IconButton aria-label={translate('ra.action.close')} onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent sx={{ '& .RaSimpleForm-root, & form > .MuiCardContent-root': { p: 0 } }}>{children}</DialogContent>
    </Dialog>
  );
}
