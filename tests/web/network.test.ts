import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, renderHook, screen } from '@testing-library/react';
import { createElement } from 'react';
import { AdminContext } from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { OfflineNotice, prefetchAllowed, useOnlineStatus } from '../../src/layout/network';
import { layoutMessagesEn } from '../../src/layout/messages';

const setOnline = (online: boolean) => {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
  act(() => {
    window.dispatchEvent(new Event(online ? 'online' : 'offline'));
  });
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('prefetchAllowed', () => {
  it('allows prefetching online on a fast or unknown connection', () => {
    expect(prefetchAllowed({ onLine: true })).toBe(true);
    expect(prefetchAllowed({ onLine: true, connection: { effectiveType: '4g', saveData: false } })).toBe(true);
    expect(prefetchAllowed({ onLine: true, connection: { effectiveType: '3g' } })).toBe(true);
    expect(prefetchAllowed({ onLine: true, connection: null })).toBe(true);
  });

  it('forbids it when offline', () => {
    expect(prefetchAllowed({ onLine: false })).toBe(false);
    expect(prefetchAllowed({ onLine: false, connection: { effectiveType: '4g' } })).toBe(false);
  });

  it('forbids it on 2g and slow-2g', () => {
    expect(prefetchAllowed({ onLine: true, connection: { effectiveType: '2g' } })).toBe(false);
    expect(prefetchAllowed({ onLine: true, connection: { effectiveType: 'slow-2g' } })).toBe(false);
  });

  it('forbids it with Data Saver on', () => {
    expect(prefetchAllowed({ onLine: true, connection: { effectiveType: '4g', saveData: true } })).toBe(false);
  });

  it('defaults to the global navigator', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    expect(prefetchAllowed()).toBe(true);
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    expect(prefetchAllowed()).toBe(false);
  });
});

describe('useOnlineStatus', () => {
  it('follows navigator.onLine through online/offline events', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    const { result } = renderHook(() => useOnlineStatus());
    expect(result.current).toBe(true);
    setOnline(false);
    expect(result.current).toBe(false);
    setOnline(true);
    expect(result.current).toBe(true);
  });
});

describe('OfflineNotice', () => {
  it('shows the Ukrainian banner only while offline', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    render(createElement(OfflineNotice));
    expect(screen.queryByText("Немає з'єднання з інтернетом")).toBeNull();
    setOnline(false);
    expect(screen.getByRole('status').textContent).toBe("Немає з'єднання з інтернетом");
    setOnline(true);
    expect(screen.queryByText("Немає з'єднання з інтернетом")).toBeNull();
  });

  it('is translated', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const i18nProvider = polyglotI18nProvider(() => ({ ...englishMessages, ...layoutMessagesEn }), 'en');
    render(createElement(AdminContext, { i18nProvider }, createElement(OfflineNotice)));
    expect(screen.getByText('No internet connection')).toBeTruthy();
  });
});
