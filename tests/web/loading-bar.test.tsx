import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { LOADING_DURATION_MS, LOADING_HIDE_DELAY_MS, LOADING_THROTTLE_MS, LoadingBar, LoadingBarView, loadingProgress } from '../../src/layout/LoadingBar';

const bar = () => screen.queryByRole('progressbar');
const value = () => Number(bar()?.getAttribute('aria-valuenow'));
const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('LoadingBarView', () => {
  it('exports the spec timings', () => {
    expect([LOADING_THROTTLE_MS, LOADING_DURATION_MS, LOADING_HIDE_DELAY_MS]).toEqual([200, 5000, 500]);
  });

  it('is not shown before 200 ms of loading, and is shown after', () => {
    const { rerender } = render(<LoadingBarView loading={false} />);
    expect(bar()).toBeNull();
    rerender(<LoadingBarView loading />);
    advance(199);
    expect(bar()).toBeNull();
    advance(1);
    expect(bar()).not.toBeNull();
    expect(bar()?.getAttribute('data-state')).toBe('loading');
  });

  it('never shows for a load shorter than the throttle', () => {
    const { rerender } = render(<LoadingBarView loading />);
    advance(150);
    rerender(<LoadingBarView loading={false} failed />);
    advance(1000);
    expect(bar()).toBeNull();
  });

  it('grows towards ~90% over about 5000 ms', () => {
    render(<LoadingBarView loading />);
    advance(200);
    const start = value();
    advance(1000);
    const after1s = value();
    advance(1500);
    const after2500 = value();
    advance(LOADING_DURATION_MS);
    const end = value();
    advance(10_000);
    expect(start).toBeGreaterThan(0);
    expect(after1s).toBeGreaterThan(start);
    expect(after2500).toBeGreaterThan(after1s);
    expect(end).toBe(90);
    expect(value()).toBe(90);
  });

  it('jumps to 100% on finish and hides 500 ms later', () => {
    const { rerender } = render(<LoadingBarView loading />);
    advance(1000);
    rerender(<LoadingBarView loading={false} />);
    expect(value()).toBe(100);
    expect(bar()?.getAttribute('data-state')).toBe('done');
    advance(499);
    expect(bar()).not.toBeNull();
    advance(1);
    expect(bar()).toBeNull();
  });

  it('takes the failed style when the finished load failed', () => {
    const { rerender } = render(<LoadingBarView loading />);
    advance(300);
    expect(bar()?.getAttribute('data-state')).toBe('loading');
    rerender(<LoadingBarView loading={false} failed />);
    expect(bar()?.getAttribute('data-state')).toBe('failed');
    expect(value()).toBe(100);
    const fill = bar()?.firstElementChild as HTMLElement;
    const failedColor = getComputedStyle(fill).backgroundColor;
    advance(LOADING_HIDE_DELAY_MS);
    expect(bar()).toBeNull();

    rerender(<LoadingBarView loading failed={false} />);
    advance(300);
    rerender(<LoadingBarView loading={false} failed={false} />);
    const okColor = getComputedStyle(bar()?.firstElementChild as HTMLElement).backgroundColor;
    expect(okColor).not.toBe(failedColor);
  });

  it('restarts without a new throttle when loading resumes during the hide delay', () => {
    const { rerender } = render(<LoadingBarView loading />);
    advance(2000);
    rerender(<LoadingBarView loading={false} />);
    advance(300);
    rerender(<LoadingBarView loading />);
    expect(bar()?.getAttribute('data-state')).toBe('loading');
    expect(value()).toBe(10);
    advance(1000);
    expect(bar()).not.toBeNull();
  });

  it('loadingProgress is monotonic and capped at 90', () => {
    expect(loadingProgress(0)).toBe(10);
    expect(loadingProgress(2500)).toBeGreaterThan(loadingProgress(1000));
    expect(loadingProgress(5000)).toBe(90);
    expect(loadingProgress(50_000)).toBe(90);
  });
});

describe('LoadingBar (connected to react-query)', () => {
  const delayed = <T,>(ms: number, result: () => T) =>
    new Promise<T>((resolve, reject) =>
      setTimeout(() => {
        try {
          resolve(result());
        } catch (e) {
          reject(e);
        }
      }, ms),
    );

  it('shows while a query runs and turns red when it fails', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <LoadingBar />
      </QueryClientProvider>,
    );
    expect(bar()).toBeNull();

    await act(async () => {
      client
        .fetchQuery({
          queryKey: ['broken'],
          queryFn: () =>
            delayed(1000, () => {
              throw new Error('boom');
            }),
        })
        .catch(() => {});
      await vi.advanceTimersByTimeAsync(100);
    });
    expect(bar()).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(bar()?.getAttribute('data-state')).toBe('loading');
    await act(() => vi.advanceTimersByTimeAsync(800));
    expect(bar()?.getAttribute('data-state')).toBe('failed');
    await act(() => vi.advanceTimersByTimeAsync(LOADING_HIDE_DELAY_MS));
    expect(bar()).toBeNull();

    // the next successful load is not marked failed
    await act(async () => {
      client.fetchQuery({ queryKey: ['fine'], queryFn: () => delayed(600, () => 'ok') }).catch(() => {});
      await vi.advanceTimersByTimeAsync(10);
    });
    // act() flushes renders on exit: let the bar see `loading` first
    await act(() => vi.advanceTimersByTimeAsync(290));
    expect(bar()?.getAttribute('data-state')).toBe('loading');
    await act(() => vi.advanceTimersByTimeAsync(400));
    expect(bar()?.getAttribute('data-state')).toBe('done');
  });

  it('marks a failed mutation as failed', async () => {
    const client = new QueryClient();
    render(
      <QueryClientProvider client={client}>
        <LoadingBar />
      </QueryClientProvider>,
    );
    await act(async () => {
      client
        .getMutationCache()
        .build(client, {
          mutationFn: () =>
            delayed(700, () => {
              throw new Error('nope');
            }),
        })
        .execute(undefined)
        .catch(() => {});
      await vi.advanceTimersByTimeAsync(10);
    });
    await act(() => vi.advanceTimersByTimeAsync(290));
    expect(bar()?.getAttribute('data-state')).toBe('loading');
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(bar()?.getAttribute('data-state')).toBe('failed');
  });
});
