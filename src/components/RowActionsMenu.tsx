import { useState, type MouseEvent } from 'react';
import { IconButton, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import MoreVert from '@mui/icons-material/MoreVert';
import OpenInNew from '@mui/icons-material/VisibilityOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { useTranslate } from 'react-admin';

export interface RowActions {
  onOpen?: () => void;
  onEdit?: () => void;
  onDelete?: () => void;
  /** Further actions of this list (label is an i18n key), shown before delete. */
  extra?: { label: string; onClick: () => void }[];
}

/** The row action dropdown of every list: open, edit, delete (each only when allowed). */
export function RowActionsMenu({ onOpen, onEdit, onDelete, extra = [] }: RowActions) {
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const run = (fn?: () => void) => () => {
    close();
    fn?.();
  };
  const stop = (e: MouseEvent) => e.stopPropagation();
  return (
    <span onClick={stop}>
      <IconButton aria-label={translate('app.actions.row_actions')} aria-haspopup="menu" size="small" onClick={(e) => setAnchor(e.currentTarget)}>
        <MoreVert fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={close}>
        {onOpen && (
          <MenuItem onClick={run(onOpen)}>
            <ListItemIcon>
              <OpenInNew fontSize="small" />
            </ListItemIcon>
            <ListItemText>{translate('app.actions.open')}</ListItemText>
          </MenuItem>
        )}
        {onEdit && (
          <MenuItem onClick={run(onEdit)}>
            <ListItemIcon>
              <EditOutlined fontSize="small" />
            </ListItemIcon>
            <ListItemText>{translate('app.actions.edit')}</ListItemText>
          </MenuItem>
        )}
        {extra.map((a) => (
          <MenuItem key={a.label} onClick={run(a.onClick)}>
            <ListItemText inset>{translate(a.label)}</ListItemText>
          </MenuItem>
        ))}
        {onDelete && (
          <MenuItem onClick={run(onDelete)} sx={{ color: 'error.main' }}>
            <ListItemIcon sx={{ color: 'error.main' }}>
              <DeleteOutline fontSize="small" />
            </ListItemIcon>
            <ListItemText>{translate('app.actions.delete')}</ListItemText>
          </MenuItem>
        )}
      </Menu>
    </span>
  );
}
