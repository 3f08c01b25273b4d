import { Navigate } from 'react-router-dom';
import { useCurrentUser } from '../useCurrentUser';
import { landingPath } from './landing';

/**
 * Home (/) and /dashboard_old/complex, where sign-in lands: each person goes where their work is
 * (`landingPath`).
 */
export default function Landing() {
  const { user } = useCurrentUser();
  if (!user) return null;
  return <Navigate to={landingPath(user)} replace />;
}
