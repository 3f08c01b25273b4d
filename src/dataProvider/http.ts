import { HttpError } from 'react-admin';
import { readToken } from '../authStorage';

export const API_URL = '/api/admin';

/** Flattens Laravel-style `errors` (field → [messages]) to react-admin's field → message. */
export function toFieldErrors(errors: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!errors || typeof errors !== 'object') return out;
  for (const [field, messages] of Object.entries(errors as Record<string, unknown>)) {
    const list = Array.isArray(messages) ? messages : [messages];
    out[field] = list.filter((m) => typeof m === 'string').join(' ');
  }
  return out;
}

export type Query = Record<string, unknown>;

/** PHP-style query string: arrays as `key[]=a&key[]=b`, empty values dropped. */
export function toQueryString(query: Query): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      for (const v of value) parts.push(`${encodeURIComponent(`${key}[]`)}=${encodeURIComponent(String(v))}`);
    } else {
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
    }
  }
  return parts.join('&');
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  /** Extra request headers (e.g. If-Match with the version of the record being changed). */
  headers?: Record<string, string>;
}

/** One HTTP call to the API with the bearer token; non-2xx answers become react-admin HttpErrors. */
export async function apiFetch<T = unknown>(path: string, opts: RequestOptions = {}, fetchImpl: typeof fetch = fetch): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  const token = readToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const qs = opts.query ? toQueryString(opts.query) : '';
  let response: Response;
  try {
    response = await fetchImpl(`${API_URL}${path}${qs ? `?${qs}` : ''}`, { method: opts.method ?? 'GET', headers, body, signal: opts.signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new HttpError('app.errors.network', 0);
  }
  const text = await response.text();
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const payload = (json ?? {}) as { message?: string; errors?: unknown };
    const message = payload.message || response.statusText || 'app.errors.server';
    if (response.status === 422) {
      throw new HttpError(message, 422, { ...payload, errors: toFieldErrors(payload.errors) });
    }
    throw new HttpError(message, response.status, payload);
  }
  return json as T;
}
