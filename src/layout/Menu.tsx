import { useMemo, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Collapse, List, ListItemButton, ListItemIcon, ListItemText, Tooltip } from '@mui/material';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import RocketLaunchOutlined from '@mui/icons-material/RocketLaunchOutlined';
import SpaceDashboardOutlined from '@mui/icons-material/SpaceDashboardOutlined';
import BuildOutlined from '@mui/icons-material/BuildOutlined';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import ApartmentOutlined from '@mui/icons-material/ApartmentOutlined';
import PeopleOutlined from '@mui/icons-material/PeopleOutlined';
import DescriptionOutlined from '@mui/icons-material/DescriptionOutlined';
import ContactPhoneOutlined from '@mui/icons-material/ContactPhoneOutlined';
import BadgeOutlined from '@mui/icons-material/BadgeOutlined';
import { useSidebarState, useTranslate, type MenuProps } from 'react-admin';
import { canAccess } from '../../contract/permissions';
import { EDITION } from '../edition';
import { findRoute } from '../routes';
import { useCurrentUser } from '../useCurrentUser';
import { groupOf, isActive, menuFor, visibleMenu, type MenuEntry, type MenuLink } from './menuItems';
import { prefetchAllowed } from './network';

const ICONS: Record<string, typeof BuildOutlined> = {
  setup: RocketLaunchOutlined,
  dashboard: SpaceDashboardOutlined,
  requests: BuildOutlined,
  community: ForumOutlined,
  realty: ApartmentOutlined,
  members: PeopleOutlined,
  documents: DescriptionOutlined,
  contacts: ContactPhoneOutlined,
  staff: BadgeOutlined,
};

/** Loads a screen's code ahead of the click, unless the connection is slow, saving data or offline. */
function prefetch(path: string) {
  if (prefetchAllowed())
    void findRoute(path)
      ?.load()
      .catch(() => undefined);
}

/** `routeExists` is for tests: which screens exist decides which items show. */
export function Menu({ routeExists }: MenuProps & { routeExists?: (path: string) => boolean }) {
  const translate = useTranslate();
  const { pathname } = useLocation();
  const [sidebarOpen, setSidebarOpen] = useSidebarState();
  const { user } = useCurrentUser();
  const entries = useMemo(
    () => (user ? visibleMenu(menuFor(EDITION), { tutorialCompleted: user.tutorial_completed, can: (area) => canAccess(user.rules, area), routeExists }) : []),
    [user, routeExists],
  );
  // The group the user toggled, until they navigate; then the group holding the new page opens.
  const [toggled, setToggled] = useState<{ group: string | null; path: string } | null>(null);
  const openGroup = toggled && toggled.path === pathname ? toggled.group : (groupOf(entries, pathname) ?? toggled?.group ?? null);
  const setOpenGroup = (group: string | null) => setToggled({ group, path: pathname });

  const renderLink = (item: MenuLink, nested: boolean, icon?: string) => {
    const Icon = icon ? ICONS[icon] : undefined;
    const label = translate(item.label);
    const button = (
      <ListItemButton
        component={Link}
        to={item.path}
        selected={isActive(item.path, pathname)}
        onMouseEnter={() => prefetch(item.path)}
        onFocus={() => prefetch(item.path)}
        sx={{ pl: nested && sidebarOpen ? 7 : 2, minHeight: 44 }}
      >
        {Icon && (
          <ListItemIcon sx={{ minWidth: 40 }}>
            <Icon fontSize="small" />
          </ListItemIcon>
        )}
        {(sidebarOpen || !Icon) && <ListItemText primary={label} slotProps={{ primary: { noWrap: true, fontSize: 14 } }} />}
      </ListItemButton>
    );
    // Each link is an item of its list (a list holds only items: screen readers count them).
    return (
      <li key={item.path} style={{ listStyle: 'none' }}>
        {sidebarOpen || !Icon ? (
          button
        ) : (
          <Tooltip title={label} placement="right">
            {button}
          </Tooltip>
        )}
      </li>
    );
  };

  const renderEntry = (entry: MenuEntry) => {
    if (entry.kind === 'link') return renderLink(entry, false, entry.icon);
    const Icon = ICONS[entry.icon];
    const open = openGroup === entry.label;
    const label = translate(entry.label);
    const active = entry.items.some((i) => isActive(i.path, pathname));
    return (
      <li key={entry.label} style={{ listStyle: 'none' }}>
        <Tooltip title={sidebarOpen ? '' : label} placement="right">
          <ListItemButton
            aria-expanded={open}
            onClick={() => {
              // One group open at a time; a collapsed sidebar opens to show the group.
              if (!sidebarOpen) setSidebarOpen(true);
              setOpenGroup(open && sidebarOpen ? null : entry.label);
            }}
            sx={{ minHeight: 44, color: active ? 'primary.main' : undefined }}
          >
            <ListItemIcon sx={{ minWidth: 40, color: active ? 'primary.main' : undefined }}>
              <Icon fontSize="small" />
            </ListItemIcon>
            {sidebarOpen && <ListItemText primary={label} slotProps={{ primary: { noWrap: true, fontSize: 14, fontWeight: 500 } }} />}
            {sidebarOpen && (open ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />)}
          </ListItemButton>
        </Tooltip>
        <Collapse in={open && sidebarOpen} timeout="auto" unmountOnExit>
          <List component="ul" disablePadding>
            {entry.items.map((i) => renderLink(i, true))}
          </List>
        </Collapse>
      </li>
    );
  };

  return (
    <nav aria-label={translate('app.menu.navigation')}>
      <List component="ul" sx={{ pt: 1 }}>
        {entries.map(renderEntry)}
      </List>
    </nav>
  );
}
