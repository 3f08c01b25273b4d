import type { Transport } from './delivery.ts';

export interface SmsGatewayOptions {
  /** http(s) address the gateway takes messages at */
  url: string;
  /** sent as `Authorization: Bearer <token>` */
  token: string;
  /** a gateway that has not answered by then counts as failed (and the job retries) */
  timeoutMs?: number;
}

/**
 * SMS through an HTTP gateway: one `POST` per message with the JSON body `{"to": "+380…",
 * "text": "…"}` and `Authorization: Bearer SMS_GATEWAY_TOKEN`; any 2xx answer means accepted.
 * Most SMS providers take this directly or through a small adapter. Errors name the gateway's
 * status only: neither the text nor the token ever ends up in the outbox or a log line.
 */
export function smsGatewayTransport(opts: SmsGatewayOptions): Transport {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  return {
    async send({ to, text }) {
      let res: Response;
      try {
        res = await fetch(opts.url, {
          method: 'POST',
          headers: { authorization: `Bearer ${opts.token}`, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ to, text }),
          redirect: 'error',
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        const e = err as { name?: string; cause?: { code?: string } };
        const reason = e.name === 'TimeoutError' ? `немає відповіді за ${Math.round(timeoutMs / 1000)} с` : (e.cause?.code ?? 'з’єднання не вдалося');
        throw new Error(`SMS-шлюз недоступний: ${reason}`);
      }
      // The answer's body and reason phrase are not needed (and may echo the text): dropped unread.
      await res.body?.cancel().catch(() => {});
      if (!res.ok) throw new Error(`SMS-шлюз відповів кодом ${res.status}`);
    },
  };
}
