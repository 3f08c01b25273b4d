import { matchPath, Navigate, useLocation } from 'react-router-dom';
import { ErrorPage } from '../../layout/ErrorPage';
import { LEGACY_PAGES, legacyPath, legacyTarget } from './legacyPages';

/** A legacy page that now lives elsewhere: opens the current screen for the same thing. */
export default function LegacyRedirect() {
  const { pathname, search } = useLocation();
  for (const page of LEGACY_PAGES) {
    const match = matchPath({ path: legacyPath(page), caseSensitive: false, end: true }, pathname);
    const target = match && legacyTarget(page, match.params);
    if (target) return <Navigate to={`${target}${search}`} replace />;
  }
  return <ErrorPage status={404} message="" />;
}
