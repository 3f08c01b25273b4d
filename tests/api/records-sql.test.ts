/**
 * Lists whose records are built in SQL (`recordsJson`, docs/architecture.md "Lists in one
 * statement") answer exactly the records the rest of the API answers: every record of a list page
 * equals the same record read alone (which `toRecords` builds), field for field, with no key more
 * or less than the declared record — for the admin, for the demo dispatcher (whose complexes limit
 * what a record shows), on a first and a later page and with each declared sort.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sortFields } from '../../contract/entity.ts';
import { MAX_PER_PAGE } from '../../server/lib/pagination.ts';
import { ADMIN, API, setupApp, STAFF, type TestApp } from './helpers.ts';

// Built before the tests are collected: entities of no module of their own get their routes (and
// join `app.crud.recordsInSql()`) only as the app registers them.
const t: TestApp = await setupApp();
const tokens: Record<string, string> = {};

beforeAll(async () => {
  tokens.admin = await t.login(ADMIN.email, ADMIN.password);
  tokens.dispatcher = await t.login(STAFF.email, STAFF.password);
});
afterAll(() => t.close());

type Json = Record<string, unknown>;
const pageOf = (body: Json) => ((body.main_data ?? (Array.isArray(body.data) ? body : body.data)) as { data: Json[] }).data;
const itemOf = (body: Json) => (body.main_data ?? body.data) as Json;

// The registry is the process's: another file's throwaway entity (tests/fixtures) registered in the
// same worker is not a route of this app.
const entities = t.app.crud.recordsInSql().filter((e) => t.app.hasRoute({ method: 'GET', url: `${API}${e.path}` }));

describe('lists built in SQL answer the same records as the rest of the API', () => {
  it('covers the hot lists', () => {
    expect(entities.map((e) => e.name)).toEqual(expect.arrayContaining(['members', 'service-requests', 'realty', 'articles', 'cameras']));
  });

  describe.each(entities.map((e) => [e.name, e] as const))('%s', (_name, e) => {
    const fields = Object.keys((e.record as unknown as { shape: Json }).shape).sort();

    it.each(['admin', 'dispatcher'])('as the %s: every record of a page equals the record read alone', async (who) => {
      let compared = 0;
      for (const sort of sortFields(e)) {
        for (const page of [1, 2]) {
          const res = await t.call('GET', `${API}${e.path}?page=${page}&per_page=5&sort=${sort}`, { token: tokens[who] });
          if (res.statusCode === 403 && who === 'dispatcher') return;
          expect(res.statusCode, res.body).toBe(200);
          expect(res.headers['content-type']).toMatch(/^application\/json/);
          for (const record of pageOf(res.json())) {
            expect(Object.keys(record).sort()).toEqual(fields);
            const one = await t.call('GET', `${API}${e.path}/${record.id}`, { token: tokens[who] });
            expect(one.statusCode, one.body).toBe(200);
            const alone = itemOf(one.json());
            // Keys beside the wrapper (staff: the form's choices) are the same in the list and the record.
            const beside = (body: Json) => Object.fromEntries(Object.entries(body).filter(([k]) => !['main_data', 'data', 'pagination'].includes(k)));
            expect(beside(res.json())).toEqual(beside(one.json()));
            expect(record, `${e.path}/${record.id}`).toEqual(Object.fromEntries(fields.map((k) => [k, alone[k]])));
            compared += 1;
          }
        }
      }
      expect(compared).toBeGreaterThan(0);
    });

    // On PostgreSQL a statement reads a whole page (MAX_PER_PAGE): only the embedded database splits one.
    it.skipIf(t.app.rowsPerStatement >= MAX_PER_PAGE)(
      `a page longer than one statement reads (${t.app.rowsPerStatement}) equals the same rows read in short pages`,
      async () => {
        const long = t.app.rowsPerStatement + 50;
        const res = await t.call('GET', `${API}${e.path}?page=1&per_page=${long}`, { token: tokens.admin });
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json();
        const short: Json[] = [];
        for (let page = 1; page <= long / 50; page++) {
          const part = await t.call('GET', `${API}${e.path}?page=${page}&per_page=50`, { token: tokens.admin });
          short.push(...pageOf(part.json()));
        }
        expect(pageOf(body)).toEqual(short);
        expect(JSON.stringify(body)).toContain(`"per_page":${long}`);
      },
    );
  });
});
