import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../src/authStorage';
import { useLiveEvents, type LiveEventType, type LiveMessage } from '../../src/lib/live';

/** A stand-in for the browser's EventSource that the test drives. */
class FakeEventSource {
  static all: FakeEventSource[] = [];
  listeners = new Map<string, ((e: MessageEvent<string>) => void)[]>();
  onerror: (() => void) | null = null;
  closed = false;
  constructor(public url: string) {
    FakeEventSource.all.push(this);
  }
  addEventListener(type: string, fn: (e: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  emit(type: string, data: unknown) {
    for (const fn of this.listeners.get(type) ?? []) fn(new MessageEvent(type, { data: JSON.stringify(data) }));
  }
  close() {
    this.closed = true;
  }
}

function Listener({ onEvent }: { onEvent: (type: LiveEventType, data: LiveMessage) => void }) {
  useLiveEvents(onEvent);
  return null;
}

let tickets = 0;
beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  FakeEventSource.all = [];
  tickets = 0;
  saveSession('bearer-token', 3600);
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      expect(url).toBe('/api/admin/live/ticket');
      expect((init.headers as Record<string, string>).Authorization).toBe('Bearer bearer-token');
      tickets += 1;
      return new Response(JSON.stringify({ ticket: `ticket-${tickets}`, expires_in: 60 }), { status: 200 });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  localStorage.clear();
});

describe('live updates in the SPA', () => {
  it('opens one stream with a ticket, hands its events over, and reopens with a new ticket after an error', async () => {
    const events: [LiveEventType, LiveMessage][] = [];
    const view = render(<Listener onEvent={(type, data) => events.push([type, data])} />);
    await vi.waitFor(() => expect(FakeEventSource.all).toHaveLength(1));
    const first = FakeEventSource.all[0];
    expect(first.url).toBe('/api/admin/live?ticket=ticket-1');
    expect(first.url).not.toContain('bearer-token');

    act(() => {
      first.emit('ready', {});
      first.emit('chat', { request_id: 7, action: 'created', chat_type: 'staff_chat' });
    });
    expect(events).toEqual([['chat', { request_id: 7, action: 'created', chat_type: 'staff_chat' }]]);

    act(() => first.onerror?.());
    expect(first.closed).toBe(true);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3100);
    });
    await vi.waitFor(() => expect(FakeEventSource.all).toHaveLength(2));
    expect(FakeEventSource.all[1].url).toBe('/api/admin/live?ticket=ticket-2');
    // Back after a gap: screens are told to re-read.
    act(() => FakeEventSource.all[1].emit('ready', {}));
    expect(events.at(-1)).toEqual(['request', { request_id: null, action: null, chat_type: null }]);

    view.unmount();
    expect(FakeEventSource.all[1].closed).toBe(true);
  });
});
