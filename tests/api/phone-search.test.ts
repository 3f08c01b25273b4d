/**
 * A search of seven or more digits (a phone, or part of one) finds its members through the runs of
 * seven digits of their search text (migration 0028, docs/architecture.md, "Phone numbers
 * searched"), yet answers exactly what a substring test of name, e-mail and phone digits answers:
 * parts of seven and ten digits of every phone at every place, whole numbers as typed or not, digits in an e-mail, and a text with spaces in a name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchForm } from '../../contract/reference.ts';
import { MAX_PER_PAGE } from '../../server/lib/pagination.ts';
import { phoneSearchDigits } from '../../server/lib/phone.ts';
import { residentRolesOf } from '../../server/modules/members/roles.ts';
import { ADMIN, API, createComplex, type TestApp, setupApp } from './helpers.ts';
import { makeCity, makeHouse, makeUnit } from './members-fixtures.ts';

let t: TestApp;
let admin: string;
let complexId: number;
let otherComplexId: number;

/**
 * Seven digits of this run, so that other files' members in the same database rarely share them;
 * drawn again when Довгань's e-mail (below: the run, its reverse and its tail) would itself hold a
 * searched phone's digits (67 or 50 and the run), as about one draw in a hundred did.
 */
const run = (() => {
  for (;;) {
    const digits = String(1_000_000 + Math.floor(Math.random() * 8_999_999));
    const email = `${digits}${[...digits].reverse().join('')}${digits.slice(1)}`;
    if (!email.includes(`67${digits}`) && !email.includes(`50${digits}`)) return digits;
  }
})();

interface Made {
  id: number;
  name: string;
  phone: string | null;
  email: string | null;
  complex: number;
}
const made: Made[] = [];

beforeAll(async () => {
  t = await setupApp();
  admin = await t.login(ADMIN.email, ADMIN.password);
  const cityId = (await makeCity(t)).id;
  complexId = (await createComplex(t.db, { organizationId: t.organizationId })).id;
  otherComplexId = (await createComplex(t.db, { organizationId: t.organizationId })).id;
  const unit = await makeUnit(t, (await makeHouse(t, cityId, complexId)).id, 'Т1');
  const otherUnit = await makeUnit(t, (await makeHouse(t, cityId, otherComplexId)).id, 'Т2');
  const roleId = (await residentRolesOf(t.db, t.organizationId)).find((r) => !r.holdsShare)!.id;
  const people: Omit<Made, 'id'>[] = [
    { name: 'Бойко Андрій', phone: `+38067${run}`, email: null, complex: complexId },
    // The same last seven digits, another operator, another complex.
    { name: 'Гнатюк Єва', phone: `+38050${run}`, email: null, complex: otherComplexId },
    // Seven digits with leading zeros: a window that is a small integer.
    { name: 'Антоненко Ґалина', phone: `+3806800${run.slice(0, 5)}`, email: null, complex: complexId },
    { name: 'Wiśniewski Jan', phone: `+4860${run}`, email: null, complex: complexId },
    // Digits only in the e-mail.
    { name: 'Квітка Олена', phone: null, email: `kvit067${run}@ukr.net`, complex: complexId },
    // Twenty digits in an e-mail: more runs of seven than the look-up asks for (eight, spread).
    { name: 'Довгань Ілля', phone: null, email: `d${run}${[...run].reverse().join('')}${run.slice(1)}@ukr.net`, complex: complexId },
    // A phone written into a name, with spaces: found by the text as typed.
    { name: `Офіс 067 ${run.slice(0, 3)} ${run.slice(3, 5)} ${run.slice(5)}`, phone: null, email: null, complex: complexId },
  ];
  for (const p of people) {
    const res = await t.call('POST', `${API}/members`, {
      token: admin,
      body: { name: p.name, phone: p.phone, email: p.email, realty_id: p.complex === complexId ? unit.id : otherUnit.id, role_id: roleId },
    });
    expect(res.statusCode, res.body).toBe(200);
    made.push({ ...p, id: res.json().data.id });
  }
});
afterAll(() => t?.close());

/** What a substring search answers among the members made here: name, e-mail and phone digits. */
function expected(query: string, complex?: number): number[] {
  const text = searchForm(query);
  const digits = phoneSearchDigits(query);
  return made
    .filter((m) => complex === undefined || m.complex === complex)
    .filter((m) => {
      const searched = `${m.name} ${m.email ?? ''} ${m.phone?.slice(1) ?? ''}`.toLowerCase();
      return searched.includes(text) || (digits.length >= 3 && searched.includes(digits));
    })
    .map((m) => m.id)
    .sort((a, b) => a - b);
}

/** The members made here that the list answers, all organization or one complex (its own path, sorted by name). */
async function found(query: string, complex?: number): Promise<number[]> {
  const where = complex === undefined ? '' : `&complex_id=${complex}&sort=name`;
  const res = await t.call('GET', `${API}/members?per_page=${MAX_PER_PAGE}&search_query=${encodeURIComponent(query)}${where}`, { token: admin });
  expect(res.statusCode, res.body).toBe(200);
  const mine = new Set(made.map((m) => m.id));
  return (res.json().data as { id: number }[])
    .map((m) => m.id)
    .filter((id) => mine.has(id))
    .sort((a, b) => a - b);
}

describe('a search of seven or more digits', () => {
  it('finds parts of every phone and e-mail digits at every place, as a substring test does, in the organization and in a complex', async () => {
    const queries = new Set<string>();
    for (const m of made)
      for (const digits of [m.phone?.slice(1) ?? '', ...(m.email?.match(/\d{7,}/g) ?? [])])
        // Parts of seven and ten digits at every place, and the whole run.
        for (const length of [7, 10, digits.length]) for (let from = 0; from + length <= digits.length; from++) queries.add(digits.slice(from, from + length));
    const local = `067${run}`;
    for (const typed of [
      `0${local.slice(1)}`,
      `+38 (${local.slice(0, 3)}) ${run.slice(0, 3)}-${run.slice(3, 5)}-${run.slice(5)}`,
      `${local.slice(0, 3)} ${run.slice(0, 3)} ${run.slice(3, 5)} ${run.slice(5)}`,
      `067${run}`,
      `00${run.slice(0, 5)}`,
      `8 0${local.slice(1)}`,
    ])
      queries.add(typed);
    let seen = 0;
    for (const q of queries) {
      const all = expected(q);
      seen += all.length;
      expect(await found(q), q).toEqual(all);
      expect(await found(q, complexId), q).toEqual(expected(q, complexId));
    }
    // Every member made here was found by some query, most by several.
    expect(seen).toBeGreaterThan(made.length * 5);
    for (const m of made)
      expect(
        [...queries].some((q) => expected(q).includes(m.id)),
        m.name,
      ).toBe(true);
  });

  it('finds a phone written with spaces in a name by the text, and the phone and an e-mail by its digits', async () => {
    const typed = `067 ${run.slice(0, 3)} ${run.slice(3, 5)} ${run.slice(5)}`;
    const ids = (...names: string[]) => made.filter((m) => names.some((n) => m.name.startsWith(n))).map((m) => m.id);
    expect(await found(typed)).toEqual(ids('Бойко', 'Квітка', 'Офіс'));
    expect(await found(typed, complexId)).toEqual(ids('Бойко', 'Квітка', 'Офіс'));
    expect(await found(`0${`50${run}`}`)).toEqual(ids('Гнатюк'));
    expect(await found(`0${`50${run}`}`, complexId)).toEqual([]);
  });
});
