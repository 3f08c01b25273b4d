import { useState, type MouseEvent } from 'react';
import { IconButton, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import MoreVert from '@mui/icons-material/MoreVert';
import OpenInNew from '@mui/icons-material/VisibilityOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { useTranslate } from 'react-admin';
import type { Area } from '../../contract/permissions';
import { useRights } from '../lib/useRights';

export interface RowActions {
  /** Permission area of the list: edit and delete show only when the user's role allows them. */
  area?: Area;
  onOpen?: () => void;
  onEdit?: () => void;
  onDelete?: () => void;
  /** Further actions of this list (label is an i18n key), shown before delete. */
  extra?: { label: string; onClick: () => void }[];
}

/** The row action dropdown of every list: open, edit, delete (each only when allowed). */
export function RowActionsMenu({ area, onOpen, onEdit: edit, onDelete: remove, extra = [] }: RowActions) {
  const translate = useTranslate();
  const { canEdit, canDelete } = useRights(area);
  const onEdit = !area || canEdit ? edit : undefined;
  const onDelete = !area || canDelete ? remove : undefined;
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const run = (fn?: () => void) => () => {
    close();
    fn?.();
  };
  const stop = (e: MouseEvent) => e.stopPropagation();
  // Nothing this user may do with the row: no empty dropdown.
  if (!onOpen && !onEdit && !onDelete && extra.length === 0) return null;
  return (
    <span onClick={stop}>
      <IconButton
        aria-label={translate('app.actions.row_actions')}
        aria-haspopup="menu"
        size="small"
        onClick={(e) => setAnchor(e.currentTarget)}
        data-tour="row-actions"
      >
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
