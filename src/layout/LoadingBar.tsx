import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import { isCancelledError, useQueryClient } from '@tanstack/react-query';
import { useLoading, useTranslate } from 'react-admin';

/** The bar shows up only if loading lasts longer than this. */
export const LOADING_THROTTLE_MS = 200;
/** Time over which the progress creeps towards LOADING_MAX_PROGRESS. */
export const LOADING_DURATION_MS = 5000;
/** The bar hides this long after loading finished. */
export const LOADING_HIDE_DELAY_MS = 500;

export const LOADING_START_PROGRESS = 10;
export const LOADING_MAX_PROGRESS = 90;
/** Progress update period while loading. */
export const LOADING_TICK_MS = 100;

/**
 * Progress (percent) after `elapsedMs` of visible loading: starts at 10 %,
 * eases out towards 90 % reached at LOADING_DURATION_MS, then stays there.
 */
export const loadingProgress = (elapsedMs: number): number => {
  const t = Math.min(1, Math.max(0, elapsedMs / LOADING_DURATION_MS));
  const eased = 1 - (1 - t) * (1 - t);
  return LOADING_START_PROGRESS + (LOADING_MAX_PROGRESS - LOADING_START_PROGRESS) * eased;
};

/**
 * idle → (loading) pending → (200 ms) running → (!loading) done → (500 ms) idle
 * pending → (!loading) idle: fast loads never show the bar.
 * done → (loading) running: a new load while the bar is still shown.
 */
type Phase = 'idle' | 'pending' | 'running' | 'done';

interface BarState {
  phase: Phase;
  elapsed: number;
  prevLoading: boolean;
}

export interface LoadingBarViewProps {
  /** Whether something is loading now. */
  loading: boolean;
  /** Whether the last finished load failed (read when the load finishes). */
  failed?: boolean;
}

/** Pure, props-driven loading bar. */
export const LoadingBarView = ({ loading, failed = false }: LoadingBarViewProps) => {
  const translate = useTranslate();
  const [state, setState] = useState<BarState>(() => ({
    phase: loading ? 'pending' : 'idle',
    elapsed: 0,
    prevLoading: loading,
  }));

  // React to `loading` changes while rendering (no extra effect pass).
  if (loading !== state.prevLoading) {
    let { phase, elapsed } = state;
    if (loading) {
      if (phase === 'idle') phase = 'pending';
      else if (phase === 'done') {
        phase = 'running';
        elapsed = 0;
      }
    } else if (phase === 'pending') phase = 'idle';
    else if (phase === 'running') phase = 'done';
    setState({ phase, elapsed, prevLoading: loading });
  }

  const { phase } = state;

  useEffect(() => {
    if (phase === 'pending') {
      const timer = setTimeout(() => setState((s) => (s.phase === 'pending' ? { ...s, phase: 'running', elapsed: 0 } : s)), LOADING_THROTTLE_MS);
      return () => clearTimeout(timer);
    }
    if (phase === 'running') {
      const timer = setInterval(
        () => setState((s) => (s.phase === 'running' && s.elapsed < LOADING_DURATION_MS ? { ...s, elapsed: s.elapsed + LOADING_TICK_MS } : s)),
        LOADING_TICK_MS,
      );
      return () => clearInterval(timer);
    }
    if (phase === 'done') {
      const timer = setTimeout(() => setState((s) => (s.phase === 'done' ? { ...s, phase: 'idle', elapsed: 0 } : s)), LOADING_HIDE_DELAY_MS);
      return () => clearTimeout(timer);
    }
  }, [phase]);

  if (phase === 'idle' || phase === 'pending') return null;

  const done = phase === 'done';
  const progress = done ? 100 : loadingProgress(state.elapsed);
  const barState = done ? (failed ? 'failed' : 'done') : 'loading';

  return (
    <Box
      role="progressbar"
      aria-label={translate('app.network.loading', { _: 'Завантаження…' })}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(progress)}
      data-state={barState}
      className={`app-loading-bar app-loading-bar-${barState}`}
      sx={{
        position: 'fixed',
        top: 0,
        left: 0,
        right: 0,
        height: 3,
        zIndex: (theme) => theme.zIndex.tooltip + 1,
        pointerEvents: 'none',
        // fade out during the hide delay
        opacity: done ? 0 : 1,
        transition: done ? `opacity 200ms ease-in ${Math.max(0, LOADING_HIDE_DELAY_MS - 250)}ms` : 'none',
      }}
    >
      <Box
        sx={{
          height: '100%',
          width: `${progress}%`,
          bgcolor: barState === 'failed' ? 'error.main' : 'primary.main',
          boxShadow: (theme) => `0 0 6px ${barState === 'failed' ? theme.palette.error.main : theme.palette.primary.main}`,
          transition: `width ${done ? 150 : LOADING_TICK_MS * 2}ms linear`,
        }}
      />
    </Box>
  );
};

/**
 * Connected loading bar: place it once inside `<Admin>` (e.g. in the layout).
 * `loading` comes from react-admin's `useLoading()`; failures are learned
 * from react-query's query and mutation caches. A load batch is marked failed
 * when any request that finished during it errored.
 */
export const LoadingBar = () => {
  const loading = useLoading();
  const client = useQueryClient();
  const [failed, setFailed] = useState(false);
  const [prevLoading, setPrevLoading] = useState(loading);

  // A new load batch starts clean.
  if (loading !== prevLoading) {
    setPrevLoading(loading);
    if (loading) setFailed(false);
  }

  useEffect(() => {
    const onEvent = (event: { type: string; action?: { type: string; error?: unknown } }) => {
      if (event.type === 'updated' && event.action?.type === 'error' && !isCancelledError(event.action.error)) {
        setFailed(true);
      }
    };
    const unsubscribeQueries = client.getQueryCache().subscribe(onEvent);
    const unsubscribeMutations = client.getMutationCache().subscribe(onEvent);
    return () => {
      unsubscribeQueries();
      unsubscribeMutations();
    };
  }, [client]);

  return <LoadingBarView loading={loading} failed={failed} />;
};
