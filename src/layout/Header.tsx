import { forwardRef } from 'react';
import { Link } from 'react-router-dom';
import { Box, IconButton, ListItemIcon, ListItemText, MenuItem, Tooltip, Typography } from '@mui/material';
import ArrowBack from '@mui/icons-material/ArrowBack';
import LogoutIcon from '@mui/icons-material/Logout';
import PersonOutline from '@mui/icons-material/PersonOutline';
import Translate from '@mui/icons-material/Translate';
import { AppBar, Logout, UserMenu, useGetIdentity, useLocaleState, useLocales, useLogout, useTranslate, useUserMenu } from 'react-admin';
import { HeaderSelectors } from './complexSelection';
import { HelpMenu } from './HelpMenu';
import { NotificationsButton } from './NotificationsButton';
import { useNavigationState } from './navigation';

export function HeaderTitle() {
  const translate = useTranslate();
  const { title, backTo } = useNavigationState();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', flex: 1, minWidth: 0, gap: 0.5 }}>
      {backTo && (
        <IconButton component={Link} to={backTo} color="inherit" aria-label={translate('app.header.back')} size="small">
          <ArrowBack />
        </IconButton>
      )}
      <Typography variant="h6" component="h1" noWrap data-testid="header-title" sx={{ fontSize: 18, fontWeight: 500 }}>
        {title ?? translate('app.header.default_title')}
      </Typography>
    </Box>
  );
}

const PersonalDataItem = forwardRef<HTMLAnchorElement>(function PersonalDataItem(props, ref) {
  const translate = useTranslate();
  const { onClose } = useUserMenu() ?? {};
  return (
    <MenuItem component={Link} to="/User" ref={ref} onClick={onClose} {...props}>
      <ListItemIcon>
        <PersonOutline fontSize="small" />
      </ListItemIcon>
      <ListItemText>{translate('app.header.personal_data')}</ListItemText>
    </MenuItem>
  );
});

const LanguageItems = forwardRef<HTMLLIElement>(function LanguageItems(_props, ref) {
  const locales = useLocales();
  const [locale, setLocale] = useLocaleState();
  const { onClose } = useUserMenu() ?? {};
  return (
    <>
      {locales.map((l) => (
        <MenuItem
          key={l.locale}
          ref={l.locale === locales[0].locale ? ref : undefined}
          selected={l.locale === locale}
          onClick={() => {
            setLocale(l.locale);
            localStorage.setItem('locale', l.locale);
            onClose?.();
          }}
        >
          <ListItemIcon>
            <Translate fontSize="small" />
          </ListItemIcon>
          <ListItemText>{l.name}</ListItemText>
        </MenuItem>
      ))}
    </>
  );
});

function LogoutIconButton() {
  const translate = useTranslate();
  const logout = useLogout();
  return (
    <Tooltip title={translate('app.header.logout')}>
      <IconButton color="inherit" aria-label={translate('app.header.logout')} onClick={() => logout()}>
        <LogoutIcon />
      </IconButton>
    </Tooltip>
  );
}

/** Header: back arrow, title from the navigation state, complex/address selectors, the help menu, notifications and logout icons and the user menu. */
export function Header() {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  // The button shows the user's name: its accessible name starts with what it shows.
  const userMenuLabel = identity?.fullName ? `${identity.fullName} — ${translate('ra.auth.user_menu')}` : 'ra.auth.user_menu';
  return (
    <AppBar
      color="primary"
      alwaysOn
      toolbar={
        <>
          <HelpMenu />
          <NotificationsButton />
          <LogoutIconButton />
        </>
      }
      userMenu={
        <UserMenu label={userMenuLabel}>
          <PersonalDataItem />
          <LanguageItems />
          <Logout />
        </UserMenu>
      }
    >
      <HeaderTitle />
      <HeaderSelectors />
    </AppBar>
  );
}
