import { Navigate } from 'react-router-dom';
import { Alert } from '@mui/material';
import { useTranslate } from 'react-admin';
import { canAccess, type Area } from '../../contract/permissions';
import { EDITION } from '../edition';
import { menuFor, visibleMenu } from '../layout/menuItems';
import { useCurrentUser } from '../useCurrentUser';

/** Home (/) opens the user's home area: the first key of their rules that has a screen. */
export default function HomeRedirect() {
  const translate = useTranslate();
  const { user } = useCurrentUser();
  if (!user) return null;
  const links = visibleMenu(menuFor(EDITION), { tutorialCompleted: true, can: (a) => canAccess(user.rules, a) }).flatMap((e) =>
    e.kind === 'group' ? e.items : [e],
  );
  const firstArea = Object.keys(user.rules)[0] as Area | undefined;
  const target = links.find((l) => l.area === firstArea) ?? links[0];
  if (!target) return <Alert severity="info">{translate('app.errors.forbidden')}</Alert>;
  return <Navigate to={target.path} replace />;
}
