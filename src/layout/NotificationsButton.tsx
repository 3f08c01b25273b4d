import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Badge, Box, Button, IconButton, List, ListItemButton, ListItemText, Popover, Tooltip, Typography } from '@mui/material';
import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import { useTranslate } from 'react-admin';
import type { NotificationItem } from '../../contract/serviceRequests';
import { formatDateTime } from '../lib/dates';
import { useLiveEvents } from '../lib/live';
import { notificationApi } from './notificationsApi';

/** A slow safety net for the live stream: the count is also re-read every few minutes. */
const REFRESH_MS = 180_000;

/** The header's notifications icon: the unread count on a badge, the latest notifications in a popover. */
export function NotificationsButton() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [unread, setUnread] = useState(0);
  const [items, setItems] = useState<NotificationItem[] | null>(null);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);

  const refresh = useCallback(() => {
    notificationApi.unread().then(setUnread, () => {});
  }, []);
  const loadList = useCallback(() => {
    notificationApi.list().then(
      (r) => {
        setItems(r.data);
        setUnread(r.unread_count);
      },
      () => setItems([]),
    );
  }, []);
  useEffect(() => {
    refresh();
    const timer = setInterval(refresh, REFRESH_MS);
    return () => clearInterval(timer);
  }, [refresh]);
  useLiveEvents((type, data) => {
    if (type !== 'notification' && data.request_id !== null) return;
    if (anchor) loadList();
    else refresh();
  });

  const open = (item: NotificationItem) => {
    setAnchor(null);
    if (!item.read) void notificationApi.read(item.id).then(refresh, () => {});
    if (item.request_id) navigate(`/Requests/${item.request_id}`);
  };

  return (
    <>
      <Tooltip title={translate('app.notifications.open')}>
        <IconButton
          color="inherit"
          aria-label={`${translate('app.notifications.open')}${unread ? `. ${translate('app.notifications.unread', { count: unread })}` : ''}`}
          onClick={(e) => {
            setAnchor(e.currentTarget);
            loadList();
          }}
        >
          <Badge badgeContent={unread} color="error" max={99} data-testid="notifications-badge">
            <NotificationsOutlined />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: 360, maxWidth: 'calc(100vw - 16px)', maxHeight: 480 } } }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', px: 2, py: 1, borderBottom: 1, borderColor: 'divider' }}>
          <Typography variant="subtitle1" sx={{ flex: 1 }}>
            {translate('app.notifications.open')}
          </Typography>
          {unread > 0 && (
            <Button size="small" onClick={() => void notificationApi.readAll().then(loadList, () => {})}>
              {translate('app.notifications.read_all')}
            </Button>
          )}
        </Box>
        {items && items.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
            {translate('app.notifications.empty')}
          </Typography>
        )}
        <List dense disablePadding aria-label={translate('app.notifications.open')}>
          {(items ?? []).map((n) => (
            <ListItemButton key={n.id} onClick={() => open(n)} sx={{ bgcolor: n.read ? undefined : 'action.hover', alignItems: 'flex-start' }}>
              <ListItemText
                primary={n.text}
                secondary={formatDateTime(n.created_at)}
                slotProps={{ primary: { sx: { fontWeight: n.read ? 400 : 600, fontSize: 14 } } }}
              />
            </ListItemButton>
          ))}
        </List>
      </Popover>
    </>
  );
}
