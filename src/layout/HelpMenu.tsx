import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Divider, IconButton, ListItemIcon, ListItemText, Menu, MenuItem, Tooltip } from '@mui/material';
import HelpOutline from '@mui/icons-material/HelpOutline';
import RocketLaunchOutlined from '@mui/icons-material/RocketLaunchOutlined';
import SupportAgentOutlined from '@mui/icons-material/SupportAgentOutlined';
import TourOutlined from '@mui/icons-material/TourOutlined';
import { useTranslate } from 'react-admin';
import { replayTour, tourFor } from '../customPages/tours/ScreenTour';
import { useCurrentUser } from '../useCurrentUser';

/**
 * The header's help («?») menu: the current screen's guided tour again from its first step (when
 * the screen has one), «З чого почати?» for admins (also once it has left the sidebar) and the
 * support chat in the personal settings.
 */
export function HelpMenu() {
  const translate = useTranslate();
  const { pathname } = useLocation();
  const { user } = useCurrentUser();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const tour = tourFor(pathname);
  const close = () => setAnchor(null);
  const label = translate('app.help.button');
  return (
    <>
      <Tooltip title={label}>
        <IconButton color="inherit" aria-label={label} aria-haspopup="menu" aria-expanded={Boolean(anchor)} onClick={(e) => setAnchor(e.currentTarget)}>
          <HelpOutline />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={close}>
        <MenuItem
          disabled={!tour}
          onClick={() => {
            close();
            if (tour) replayTour(tour.key);
          }}
        >
          <ListItemIcon>
            <TourOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText primary={translate('app.help.tour')} secondary={tour ? undefined : translate('app.help.no_tour')} />
        </MenuItem>
        <Divider />
        {user?.is_admin && (
          <MenuItem component={Link} to="/Setup" onClick={close}>
            <ListItemIcon>
              <RocketLaunchOutlined fontSize="small" />
            </ListItemIcon>
            <ListItemText primary={translate('app.help.setup')} />
          </MenuItem>
        )}
        <MenuItem component={Link} to="/User" onClick={close}>
          <ListItemIcon>
            <SupportAgentOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText primary={translate('app.help.support')} />
        </MenuItem>
      </Menu>
    </>
  );
}
