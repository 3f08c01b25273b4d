import { useEffect, useRef } from 'react';
import { readToken } from '../authStorage';
import { apiFetch, API_URL } from '../dataProvider/http';

export type LiveEventType = 'request' | 'chat' | 'notification';
export interface LiveMessage {
  request_id: number | null;
  action: 'created' | 'updated' | 'deleted' | null;
  chat_type: 'staff_chat' | 'member_chat' | null;
}
type Listener = (type: LiveEventType, data: LiveMessage) => void;

const listeners = new Set<Listener>();
let source: EventSource | null = null;
let retry: ReturnType<typeof setTimeout> | undefined;
let connecting = false;
/** Whether a stream was open before: after a reconnect, screens re-read what they may have missed. */
let connectedBefore = false;

/**
 * One live-updates stream for the whole tab, open while anything listens. EventSource cannot send
 * the bearer token, so each connection first takes a one-minute single-use ticket (POST
 * /live/ticket); after an error the stream is reopened with a new ticket.
 */
async function connect() {
  if (source || connecting || listeners.size === 0 || typeof EventSource === 'undefined' || !readToken()) return;
  connecting = true;
  try {
    const { ticket } = await apiFetch<{ ticket: string }>('/live/ticket', { method: 'POST' });
    if (listeners.size === 0) return;
    const es = new EventSource(`${API_URL}/live?ticket=${encodeURIComponent(ticket)}`);
    source = es;
    es.addEventListener('ready', () => {
      if (connectedBefore) for (const l of [...listeners]) l('request', { request_id: null, action: null, chat_type: null });
      connectedBefore = true;
    });
    for (const type of ['request', 'chat', 'notification'] as const) {
      es.addEventListener(type, (e) => {
        let data: LiveMessage;
        try {
          data = JSON.parse((e as MessageEvent<string>).data) as LiveMessage;
        } catch {
          return;
        }
        for (const l of [...listeners]) l(type, data);
      });
    }
    es.onerror = () => {
      // The ticket served once: a reconnect needs a new one, so the browser's own retry is stopped.
      es.close();
      if (source === es) source = null;
      scheduleReconnect();
    };
  } catch {
    scheduleReconnect();
  } finally {
    connecting = false;
  }
}

function scheduleReconnect() {
  clearTimeout(retry);
  if (listeners.size > 0) retry = setTimeout(() => void connect(), 3000);
}

function subscribe(listener: Listener) {
  listeners.add(listener);
  void connect();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearTimeout(retry);
      source?.close();
      source = null;
    }
  };
}

/**
 * Calls `onEvent` for every live change the signed-in user may see, while the component is
 * mounted. After the stream was lost and is back, a `request` event with `request_id: null` says
 * "anything may have changed".
 */
export function useLiveEvents(onEvent: Listener, enabled = true) {
  const ref = useRef(onEvent);
  useEffect(() => {
    ref.current = onEvent;
  });
  useEffect(() => {
    if (!enabled) return;
    return subscribe((type, data) => ref.current(type, data));
  }, [enabled]);
}
