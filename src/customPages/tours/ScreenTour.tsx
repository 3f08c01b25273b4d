import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router-dom';
import type { TourStep } from './Tour';

// The tour library loads only when a tour is about to show.
const Tour = lazy(() => import('./Tour').then((m) => ({ default: m.Tour })));
const seen = (key: string) => localStorage.getItem(`tour.${key}`) === 'done';

/**
 * Guided tours of the main screens, one per screen, shown once per user's browser. Targets are
 * what every list screen has: the header complex/address selection, the search box, the add
 * button, the table and a row's actions; a step whose target is missing is skipped.
 */
const LIST_STEPS = (screen: string): TourStep[] => [
  { target: '[data-testid="header-selectors"]', title: 'app.tour.steps.selection_title', content: 'app.tour.steps.selection' },
  { target: 'main input[name="q"]', title: 'app.tour.steps.search_title', content: `app.tour.steps.search_${screen}` },
  { target: 'main table', title: 'app.tour.steps.table_title', content: `app.tour.steps.table_${screen}` },
  { target: 'main [aria-label="Дії з записом"], main [aria-label="Record actions"]', title: 'app.tour.steps.actions_title', content: 'app.tour.steps.actions' },
  { target: '[data-testid="add-button"]', title: 'app.tour.steps.add_title', content: `app.tour.steps.add_${screen}` },
];

export const SCREEN_TOURS: { key: string; path: RegExp; steps: TourStep[] }[] = [
  { key: 'requests', path: /^\/requests\/?$/i, steps: LIST_STEPS('requests') },
  { key: 'members', path: /^\/members\/?$/i, steps: LIST_STEPS('members') },
  { key: 'news', path: /^\/news\/?$/i, steps: LIST_STEPS('news') },
  { key: 'voting', path: /^\/voting\/?$/i, steps: LIST_STEPS('voting') },
];

export function ScreenTour() {
  const { pathname } = useLocation();
  const tour = SCREEN_TOURS.find((t) => t.path.test(pathname));
  if (!tour || seen(tour.key)) return null;
  return (
    <Suspense fallback={null}>
      <Tour key={tour.key} tourKey={tour.key} steps={tour.steps} understood />
    </Suspense>
  );
}
