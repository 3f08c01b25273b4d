import { useEffect, useState } from 'react';

/** Minimum time a page-level loading state is shown. */
export const PAGE_MIN_DELAY_MS = 200;

interface HoldState {
  prevLoading: boolean;
  holding: boolean;
  /** Bumped on every rising edge of `loading`; restarts the hold timer. */
  epoch: number;
}

/**
 * Keeps a loading flag true for at least `minMs` after it turned true, so a
 * fast load does not flash a spinner/skeleton for a few milliseconds.
 * Returns `loading || <still within minMs of the last rising edge>`.
 */
export const useMinimumDelay = (loading: boolean, minMs: number = PAGE_MIN_DELAY_MS): boolean => {
  const [state, setState] = useState<HoldState>(() => ({
    prevLoading: loading,
    holding: loading,
    epoch: 0,
  }));

  if (loading !== state.prevLoading) {
    setState(loading ? { prevLoading: true, holding: true, epoch: state.epoch + 1 } : { ...state, prevLoading: false });
  }

  const { holding, epoch } = state;
  useEffect(() => {
    if (!holding) return;
    const timer = setTimeout(() => setState((s) => (s.epoch === epoch ? { ...s, holding: false } : s)), Math.max(0, minMs));
    return () => clearTimeout(timer);
  }, [holding, epoch, minMs]);

  return loading || holding;
};
