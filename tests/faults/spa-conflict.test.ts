// @vitest-environment jsdom
/**
 * The SPA's side of optimistic concurrency: an update sends the version it started from
 * (If-Match with previousData.updated_at), and a 409 becomes the HttpError whose message
 * react-admin shows as its error notification.
 */
import { HttpError } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import { createDataProvider } from '../../src/dataProvider/index.ts';
import { STALE } from './helpers.ts';

const VERSION = '2026-11-24T10:15:30.123Z';

function fetchAnswering(status: number, body: unknown) {
  return vi.fn(
    async (_url: RequestInfo | URL, _init?: RequestInit) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  );
}

describe('dataProvider.update and record versions', () => {
  it('sends the version it read as If-Match and turns a 409 into an error with the API message', async () => {
    const f = fetchAnswering(409, { message: STALE });
    const dp = createDataProvider(f as unknown as typeof fetch);
    const error = await dp
      .update('complexes', { id: 7, data: { name: 'Нова назва' }, previousData: { id: 7, name: 'Стара назва', updated_at: VERSION } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(409);
    expect((error as HttpError).message).toBe(STALE);
    const [url, init] = f.mock.calls[0];
    expect(String(url)).toBe('/api/admin/complexes/7');
    expect(init?.method).toBe('PUT');
    expect((init?.headers as Record<string, string>)['If-Match']).toBe(`"${VERSION}"`);
  });

  it('sends no version when the record it started from has none (bulk updates, records without updated_at)', async () => {
    const f = fetchAnswering(200, { data: { id: 3, name: 'x' } });
    const dp = createDataProvider(f as unknown as typeof fetch);
    await dp.updateMany('complexes', { ids: [3], data: { name: 'x' } });
    expect((f.mock.calls[0][1]?.headers as Record<string, string>)['If-Match']).toBeUndefined();
  });

  it('sends the version on the multipart and POST-updated resources too', async () => {
    const f = fetchAnswering(200, { data: { id: 5 } });
    const dp = createDataProvider(f as unknown as typeof fetch);
    await dp.update('articles', { id: 5, data: { title: 'Новина' }, previousData: { id: 5, updated_at: VERSION } });
    expect((f.mock.calls[0][1]?.headers as Record<string, string>)['If-Match']).toBe(`"${VERSION}"`);
  });
});
