import { Link as RouterLink } from 'react-router-dom';
import { Box, Card, List, ListItemButton, ListItemText, Typography } from '@mui/material';
import ChevronRight from '@mui/icons-material/ChevronRight';
import { useTranslate } from 'react-admin';
import { canAccess } from '../../../contract/permissions';
import { usePageHeader } from '../../layout/navigation';
import { useCurrentUser } from '../../useCurrentUser';
import { LEGACY_PAGES, legacyPath, legacyScreen } from './legacyPages';

/**
 * /dashboard_old: the legacy area's list page. Each entry opens the page of the old address
 * (which leads to the current screen); pages without a screen yet, or that the user's role may
 * not view, are left out.
 */
export default function LegacyIndex() {
  const translate = useTranslate();
  const { user } = useCurrentUser();
  usePageHeader(translate('app.legacy.title'));
  if (!user) return null;
  const pages = LEGACY_PAGES.filter((p) => !p.path.includes(':')).flatMap((p) => {
    const route = legacyScreen(p);
    if (!route || (route.area && !canAccess(user.rules, route.area))) return [];
    return [{ ...p, route }];
  });
  return (
    <Box sx={{ maxWidth: 720 }}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {translate('app.legacy.hint')}
      </Typography>
      <Card>
        <List disablePadding>
          {pages.map((p) => (
            <ListItemButton key={p.path} component={RouterLink} to={legacyPath(p)} divider>
              <ListItemText primary={translate(p.label)} secondary={legacyPath(p)} />
              <ChevronRight color="action" />
            </ListItemButton>
          ))}
        </List>
      </Card>
    </Box>
  );
}
