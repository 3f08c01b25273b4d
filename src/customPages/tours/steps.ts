import { useEffect, useRef, useState } from 'react';

export interface TourStep {
  /** CSS selector of the element the step points at (a list of selectors: the first shown match) */
  target: string;
  /** i18n key or text */
  title?: string;
  /** i18n key or text */
  content: string;
}

/** localStorage key of a tour's progress (docs/architecture.md, "Interface conventions": tour progress is kept in local storage). */
export const tourStorageKey = (tourKey: string) => `tour.${tourKey}`;
export const tourDone = (tourKey: string) => localStorage.getItem(tourStorageKey(tourKey)) === 'done';
export const markTourDone = (tourKey: string) => localStorage.setItem(tourStorageKey(tourKey), 'done');

/**
 * Whether an element can be pointed at: rendered (not inside `display: none`) and not beside the
 * screen (a table's last column scrolled out of a phone's width). Where the browser cannot tell
 * (test DOMs without layout), it can.
 */
function rendered(el: HTMLElement): boolean {
  if (typeof el.checkVisibility !== 'function') return true;
  if (!el.checkVisibility()) return false;
  const rect = el.getBoundingClientRect();
  return rect.right > 0 && rect.left < window.innerWidth;
}

/** The first element matching `selector` that is rendered on the page (a hidden one cannot be pointed at). */
export function shownElement(selector: string): HTMLElement | null {
  for (const el of document.querySelectorAll<HTMLElement>(selector)) {
    if (rendered(el)) return el;
  }
  return null;
}

export interface SettleOptions {
  /** The page counts as settled once nothing in it has changed for this long (ms). */
  quietMs?: number;
  /** Start at the latest after this long (ms), settled or not. */
  maxMs?: number;
}

const POLL_MS = 100;

/** A page still loading shows one of these: placeholder rows, a spinner or bar that runs (no value), the top loading bar. */
const LOADING = 'main .MuiSkeleton-root, main [role="progressbar"]:not([aria-valuenow]), .app-loading-bar-loading';

/**
 * The steps a tour shows, decided once when it starts: at once when every target is on the page;
 * otherwise when the page has settled (no data loading and no change in it for `quietMs`: the list
 * has come, empty or not) or at `maxMs`, keeping the steps whose target is there then. So the
 * counter runs 1/N…N/N over what the screen really has (no selector in the header on a screen
 * without it, no row actions in an empty list) instead of jumping over missing steps. Loading is
 * `busy` (react-query's fetches) or what the page shows while it loads (LOADING). `null` while
 * waiting (or when `steps` is null).
 */
export function useSettledSteps(steps: TourStep[] | null, busy: boolean, { quietMs = 800, maxMs = 10_000 }: SettleOptions = {}): TourStep[] | null {
  const [present, setPresent] = useState<TourStep[] | null>(null);
  const busyRef = useRef(busy);
  useEffect(() => {
    busyRef.current = busy;
  }, [busy]);
  useEffect(() => {
    if (!steps) return;
    const started = Date.now();
    let changed = started;
    const observer = new MutationObserver(() => {
      changed = Date.now();
    });
    observer.observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
    const check = () => {
      const now = Date.now();
      if (busyRef.current || document.querySelector(LOADING)) changed = now;
      const found = steps.filter((s) => shownElement(s.target));
      if (found.length === steps.length || now - changed >= quietMs || now - started >= maxMs) {
        stop();
        setPresent(found);
      }
    };
    const timer = setInterval(check, POLL_MS);
    const stop = () => {
      clearInterval(timer);
      observer.disconnect();
    };
    check();
    return stop;
  }, [steps, quietMs, maxMs]);
  return present;
}
