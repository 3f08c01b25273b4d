import { useEffect, useState } from 'react';

/** How long typing may pause before a search is sent. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * The value once it has stopped changing for `ms`: a search box shows every letter at once but
 * asks the API only when the typing pauses (seven letters typed quickly are one request, not seven).
 * An empty value (the box cleared) passes at once.
 */
export function useDebouncedValue<T>(value: T, ms = SEARCH_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), value === '' ? 0 : ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
