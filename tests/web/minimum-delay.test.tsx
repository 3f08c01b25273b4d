import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { PAGE_MIN_DELAY_MS, useMinimumDelay } from '../../src/lib/useMinimumDelay';

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

const setup = (initial: boolean, minMs?: number) => renderHook(({ loading }) => useMinimumDelay(loading, minMs), { initialProps: { loading: initial } });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('useMinimumDelay', () => {
  it('defaults to 200 ms', () => {
    expect(PAGE_MIN_DELAY_MS).toBe(200);
  });

  it('stays false while nothing loads', () => {
    const { result } = setup(false);
    advance(1000);
    expect(result.current).toBe(false);
  });

  it('keeps a fast load true for at least 200 ms', () => {
    const { result, rerender } = setup(false);
    rerender({ loading: true });
    expect(result.current).toBe(true);
    advance(50);
    rerender({ loading: false });
    expect(result.current).toBe(true);
    advance(149);
    expect(result.current).toBe(true);
    advance(1);
    expect(result.current).toBe(false);
  });

  it('holds when mounted already loading', () => {
    const { result, rerender } = setup(true);
    rerender({ loading: false });
    expect(result.current).toBe(true);
    advance(199);
    expect(result.current).toBe(true);
    advance(1);
    expect(result.current).toBe(false);
  });

  it('ends immediately when the load took longer than the minimum', () => {
    const { result, rerender } = setup(true);
    advance(500);
    expect(result.current).toBe(true);
    rerender({ loading: false });
    expect(result.current).toBe(false);
  });

  it('honours a custom minimum and restarts on a new load', () => {
    const { result, rerender } = setup(false, 1000);
    rerender({ loading: true });
    rerender({ loading: false });
    advance(600);
    expect(result.current).toBe(true);
    rerender({ loading: true });
    rerender({ loading: false });
    advance(999);
    expect(result.current).toBe(true);
    advance(1);
    expect(result.current).toBe(false);
  });
});
