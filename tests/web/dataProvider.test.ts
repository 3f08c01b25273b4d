import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../src/authStorage';
import { createDataProvider, listQuery } from '../../src/dataProvider';
import { toQueryString } from '../../src/dataProvider/http';
import { itemAdapters, listAdapters, totalLabel } from '../../src/dataProvider/shapes';

const pagination = { current_page: 2, from: 3, last_page: 3, per_page: 2, to: 4, total: 5 };
const rows = [
  { id: 3, name: 'A' },
  { id: 4, name: 'B' },
];

function fakeFetch(status: number, body: unknown) {
  return vi.fn(
    async (_url: RequestInfo | URL, _init?: RequestInit) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  );
}

describe('response shape adapters', () => {
  it('reads "main_data"', () => {
    expect(listAdapters.main_data({ main_data: { data: rows, ...pagination } })).toEqual({ data: rows, total: 5 });
  });
  it('reads "data plus pagination"', () => {
    expect(listAdapters.data_pagination({ data: rows, pagination })).toEqual({ data: rows, total: 5 });
  });
  it('reads "data.data" and ignores siblings such as form', () => {
    expect(listAdapters['data.data']({ data: { data: rows, ...pagination }, form: { roles: [] } })).toEqual({ data: rows, total: 5 });
  });
  it('passes on an estimated total, which the pagination shows with «≈»', () => {
    const big = { ...pagination, total: 1234567, estimated: true };
    const res = listAdapters.data_pagination({ data: rows, pagination: big });
    expect(res).toEqual({ data: rows, total: 1234567, meta: { estimatedTotal: true } });
    expect(listAdapters.main_data({ main_data: { data: rows, ...big } }).meta).toEqual({ estimatedTotal: true });
    expect(totalLabel(res.total, res.meta).replace(/\s/g, ' ')).toBe('≈ 1 234 567');
    expect(totalLabel(5, undefined)).toBe('5');
  });
  it('reads single items under data or main_data', () => {
    expect(itemAdapters.data({ data: rows[0] })).toEqual(rows[0]);
    expect(itemAdapters.main_data({ main_data: rows[1] })).toEqual(rows[1]);
  });
});

describe('query strings', () => {
  it('sends arrays PHP-style and drops empty values', () => {
    expect(toQueryString({ page: 1, house_ids: [1, 2], search_query: '', x: undefined })).toBe('page=1&house_ids%5B%5D=1&house_ids%5B%5D=2');
  });
  it('maps react-admin list params to the contract', () => {
    expect(listQuery({ pagination: { page: 3, perPage: 25 }, sort: { field: 'name', order: 'DESC' }, filter: { q: ' Київ ', city: 'Львів' } })).toEqual({
      page: 3,
      per_page: 25,
      search_query: 'Київ',
      sort: 'name',
      order: 'desc',
      city: 'Львів',
    });
  });
});

describe('dataProvider', () => {
  beforeEach(() => {
    localStorage.clear();
    saveSession('tok123', 3600);
  });
  afterEach(() => localStorage.clear());

  it('getList calls GET /api/admin/complexes with the bearer token and reads main_data', async () => {
    const f = fakeFetch(200, { main_data: { data: rows, ...pagination } });
    const dp = createDataProvider(f as unknown as typeof fetch);
    const res = await dp.getList('complexes', { pagination: { page: 2, perPage: 2 }, sort: { field: 'id', order: 'ASC' }, filter: {} });
    expect(res).toEqual({ data: rows, total: 5 });
    const [url, init] = f.mock.calls[0];
    expect(String(url)).toBe('/api/admin/complexes?page=2&per_page=2&sort=id&order=asc');
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer tok123');
  });

  it('reads a department (which has no single-record call) out of the whole list, once for many ids', async () => {
    const departures = [
      { id: 1, name: 'Аварійна служба' },
      { id: 2, name: 'Бухгалтерія' },
      { id: 3, name: 'Диспетчерська' },
    ];
    const f = fakeFetch(200, { data: departures });
    const dp = createDataProvider(f as unknown as typeof fetch);
    expect((await dp.getOne('staff-departures', { id: 2 })).data).toEqual(departures[1]);
    expect((await dp.getMany('staff-departures', { ids: [3, 1] })).data).toEqual([departures[0], departures[2]]);
    expect(f.mock.calls.map(([url]) => String(url))).toEqual(['/api/admin/staff_departure', '/api/admin/staff_departure']);
  });

  it("reads a resident role (a member's role in the form) by GET /resident-roles/{id}", async () => {
    const role = { id: 2, code: 'co_owner', name: 'Співвласник', holds_share: true, residents_count: 0 };
    const f = fakeFetch(200, { data: role });
    const dp = createDataProvider(f as unknown as typeof fetch);
    expect((await dp.getOne('resident-roles', { id: 2 })).data).toEqual(role);
    expect((await dp.getMany('resident-roles', { ids: [2] })).data).toEqual([role]);
    expect(f.mock.calls.map(([url]) => String(url))).toEqual(['/api/admin/resident-roles/2', '/api/admin/resident-roles/2']);
  });

  it('create POSTs JSON and reads the record from main_data', async () => {
    const f = fakeFetch(200, { main_data: { id: 9, name: 'Новий' } });
    const dp = createDataProvider(f as unknown as typeof fetch);
    const res = await dp.create('complexes', { data: { name: 'Новий', city: 'Київ' } });
    expect(res.data).toEqual({ id: 9, name: 'Новий' });
    const [url, init] = f.mock.calls[0];
    expect(String(url)).toBe('/api/admin/complexes');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ name: 'Новий', city: 'Київ' });
  });

  it('update PUTs to /complexes/{id} and reads data', async () => {
    const f = fakeFetch(200, { data: { id: 9, name: 'Змінений' } });
    const dp = createDataProvider(f as unknown as typeof fetch);
    const res = await dp.update('complexes', { id: 9, data: { name: 'Змінений' }, previousData: { id: 9 } });
    expect(res.data.name).toBe('Змінений');
    expect(f.mock.calls[0][1]?.method).toBe('PUT');
    expect(String(f.mock.calls[0][0])).toBe('/api/admin/complexes/9');
  });

  it('turns a 422 into an HttpError whose body.errors holds one message per field', async () => {
    const f = fakeFetch(422, { message: 'Комплекс з такою назвою вже існує.', errors: { name: ['Комплекс з такою назвою вже існує.'], city: ['А', 'Б'] } });
    const dp = createDataProvider(f as unknown as typeof fetch);
    await expect(dp.create('complexes', { data: {} })).rejects.toMatchObject({
      status: 422,
      message: 'Комплекс з такою назвою вже існує.',
      body: { errors: { name: 'Комплекс з такою назвою вже існує.', city: 'А Б' } },
    });
  });

  it('passes other statuses with the server message', async () => {
    const f = fakeFetch(404, { message: 'Комплекс не знайдено.' });
    const dp = createDataProvider(f as unknown as typeof fetch);
    await expect(dp.getOne('complexes', { id: 1 })).rejects.toMatchObject({ status: 404, message: 'Комплекс не знайдено.' });
  });

  it('does not send a token that has expired', async () => {
    localStorage.setItem('auth.expiresAt', String(Date.now() - 1000));
    const f = fakeFetch(200, { data: { id: 1 } });
    await createDataProvider(f as unknown as typeof fetch).getOne('complexes', { id: 1 });
    expect((f.mock.calls[0][1]?.headers as Record<string, string>).Authorization).toBeUndefined();
  });
});

describe('retrying failed reads', () => {
  it('tries a network or server error again, at most three times, and a 4xx answer never', async () => {
    const { retryRead } = await import('../../src/dataProvider/retry');
    expect(retryRead(0, { status: 0 })).toBe(true);
    expect(retryRead(2, { status: 503 })).toBe(true);
    expect(retryRead(3, { status: 503 })).toBe(false);
    for (const status of [400, 401, 403, 404, 409, 422, 429]) expect(retryRead(0, { status })).toBe(false);
  });
});
