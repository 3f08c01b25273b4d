import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { tourDone, tourStorageKey, type TourStep } from './steps';

// The tour library loads only when a tour is about to show.
const Tour = lazy(() => import('./Tour').then((m) => ({ default: m.Tour })));

/**
 * Guided tours of the main screens, one per screen, shown once per user's browser and again on
 * demand from the header's help menu. Targets are what every list screen has: the header
 * complex/address selection, the search box, the table, a row's actions and the add button; the
 * screens mark theirs with `data-tour` (the generic lists' search box is `input[name="q"]`). A
 * step whose target is not on the screen when the tour starts is left out of it (steps.ts).
 */
const LIST_STEPS = (screen: string): TourStep[] => [
  { target: '[data-testid="header-selectors"]', title: 'app.tour.steps.selection_title', content: 'app.tour.steps.selection' },
  { target: 'main [data-tour="search"], main input[name="q"]', title: 'app.tour.steps.search_title', content: `app.tour.steps.search_${screen}` },
  { target: 'main table', title: 'app.tour.steps.table_title', content: `app.tour.steps.table_${screen}` },
  { target: 'main [data-tour="row-actions"]', title: 'app.tour.steps.actions_title', content: 'app.tour.steps.actions' },
  { target: 'main [data-tour="add"], main [data-testid="add-button"]', title: 'app.tour.steps.add_title', content: `app.tour.steps.add_${screen}` },
];

export const SCREEN_TOURS: { key: string; path: RegExp; steps: TourStep[] }[] = [
  { key: 'requests', path: /^\/requests\/?$/i, steps: LIST_STEPS('requests') },
  { key: 'members', path: /^\/members\/?$/i, steps: LIST_STEPS('members') },
  { key: 'news', path: /^\/news\/?$/i, steps: LIST_STEPS('news') },
  { key: 'voting', path: /^\/voting\/?$/i, steps: LIST_STEPS('voting') },
];

/** The tour of the screen at `pathname`, if it has one. */
export const tourFor = (pathname: string) => SCREEN_TOURS.find((t) => t.path.test(pathname));

/** Fired on `window` with the tour's key in `detail` to show a seen tour again. */
const REPLAY_EVENT = 'tour:replay';

/** Shows the tour of the current screen again from its first step (the help menu). */
export function replayTour(key: string) {
  localStorage.removeItem(tourStorageKey(key));
  window.dispatchEvent(new CustomEvent(REPLAY_EVENT, { detail: key }));
}

export function ScreenTour() {
  const { pathname } = useLocation();
  const tour = tourFor(pathname);
  // Each replay mounts a new tour.
  const [replays, setReplays] = useState(0);
  useEffect(() => {
    const onReplay = () => setReplays((n) => n + 1);
    window.addEventListener(REPLAY_EVENT, onReplay);
    return () => window.removeEventListener(REPLAY_EVENT, onReplay);
  }, []);
  if (!tour || tourDone(tour.key)) return null;
  return (
    <Suspense fallback={null}>
      <Tour key={`${tour.key}-${replays}`} tourKey={tour.key} steps={tour.steps} understood />
    </Suspense>
  );
}
