import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

export interface LatestFetch<T> {
  data: T | undefined;
  error: unknown;
  /** No answer yet for the current parameters. */
  isPending: boolean;
  refetch: () => void;
}

/**
 * Runs `fetcher` whenever `key` changes and records the fetch's timestamp (`lastFetchTs`); an
 * answer is applied only if its timestamp is still the latest, so a slow answer to an older
 * search never replaces the rows of a newer one (docs/architecture.md, "Interface conventions").
 */
export function useLatestFetch<T>(key: string, fetcher: () => Promise<T>, enabled = true): LatestFetch<T> {
  const lastFetchTs = useRef(0);
  const fetcherRef = useRef(fetcher);
  useLayoutEffect(() => {
    fetcherRef.current = fetcher;
  });
  const [reload, setReload] = useState(0);
  const [state, setState] = useState<{ data: T | undefined; error: unknown; key: string | null }>({ data: undefined, error: undefined, key: null });

  useEffect(() => {
    if (!enabled) return;
    // Strictly increasing even within one millisecond.
    const ts = Math.max(Date.now(), lastFetchTs.current + 1);
    lastFetchTs.current = ts;
    fetcherRef.current().then(
      (data) => {
        if (ts === lastFetchTs.current) setState({ data, error: undefined, key });
      },
      (error: unknown) => {
        if (ts === lastFetchTs.current) setState((prev) => ({ data: prev.data, error, key }));
      },
    );
  }, [key, reload, enabled]);

  const refetch = useCallback(() => setReload((n) => n + 1), []);
  return { data: state.data, error: state.error, isPending: state.key !== key, refetch };
}
