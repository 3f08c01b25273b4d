import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { API, setupApp, type CallOptions } from '../api/helpers.ts';
import { multipartBody, PNG, type FormValue } from '../api/multipart.ts';
import { changedTables, quickFingerprint } from './db.ts';
import { collectRoutes, fillPath, type OpenApiSchema, type Route } from './routes.ts';
import { buildWorld } from './world.ts';

/**
 * Property-based fuzzing of every route, driven by the app's OpenAPI document: path, query and
 * body get values shaped by the schema or hostile ones. Never a 5xx; a 4xx changes nothing.
 * FUZZ_SEED=<n> replays a run, FUZZ_RUNS=<n> changes the number of cases per route.
 */
const t = await setupApp();
const w = await buildWorld(t);
const { routes } = await collectRoutes(t);
afterAll(() => t.close());

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2 ** 31;
const RUNS = Number(process.env.FUZZ_RUNS ?? 6);
console.log(`fuzz seed ${SEED} (FUZZ_SEED=${SEED} replays it), ${RUNS} cases per route`);

/** Routes left out, with the reason. */
const SKIP: Record<string, string> = {
  [`POST ${API}/logout`]: "would end the fuzzer's own session; it takes no input",
  [`GET ${API}/live`]: 'an event stream: a valid ticket would keep the call open (tickets are covered in auth tests)',
};

const hostileString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    "' OR '1'='1' --",
    '1; DROP TABLE users; --',
    "'||pg_sleep(5)--",
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    'javascript:alert(1)',
    '../../etc/passwd',
    '..\\..\\windows\\win.ini',
    '%00',
    '%',
    '${7*7}{{7*7}}',
    '\uD800',
    '\uFEFF\u202E\u200B',
    '𝕏😀👨‍👩‍👧',
    'Ї'.repeat(5000),
    'x'.repeat(300_000),
    '1e309',
    'NaN',
    'Infinity',
    '-1',
    '0',
    '9'.repeat(40),
    '2026-02-30',
    '0000-00-00T25:61:00Z',
    'null',
    'true',
    '[]',
    '{}',
    '__proto__',
    'constructor',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

const hostileNumber = fc.oneof(
  fc.constantFrom(-1, 0, -0, 0.5, 2 ** 31, 2 ** 31 - 1, 2 ** 53, -(2 ** 53), 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Nested arrays or objects deep enough to hurt a recursive validator. */
const deep = fc.tuple(fc.integer({ min: 100, max: 3000 }), fc.boolean()).map(([n, arrays]) => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = arrays ? [v] : { a: v };
  return v;
});

const { hostile } = fc.letrec<{ hostile: unknown }>((tie) => ({
  hostile: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('hostile'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('__proto__', 'constructor', 'id', 'organization_id')), tie('hostile'), {
      maxKeys: 3,
    }),
  ),
}));

/** Real ids of the fixtures, so that values often reach the handlers' database code. */
const realIds = [w.A.complexId, w.A.houseId, w.A.realtyId, w.A.memberId, w.A.requestId, w.B.complexId, w.B.houseId, w.typeId, w.cityId];

function plausible(schema: OpenApiSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return hostile;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return fc.oneof(...variants.map((s) => plausible(s, depth + 1)));
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const type = Array.isArray(schema.type) ? schema.type.find((x) => x !== 'null') : schema.type;
  switch (type) {
    case 'integer':
      return fc.oneof(fc.constantFrom(...realIds), fc.integer({ min: schema.minimum ?? -10, max: schema.maximum ?? 100_000 }));
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
    case 'boolean':
      return fc.boolean();
    case 'string':
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      return fc.oneof(fc.string({ maxLength: schema.maxLength ? Math.min(schema.maxLength, 40) : 40 }), fc.constantFrom(...realIds).map(String));
    case 'array':
      return fc.array(plausible(schema.items, depth + 1), { maxLength: 4 });
    case 'object':
      return objectOf(schema, depth);
    default:
      return hostile;
  }
}

/** An object with a random subset of the schema's properties, each plausible or hostile. */
function objectOf(schema: OpenApiSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = schema.properties ?? {};
  const entries = Object.fromEntries(
    Object.entries(props).map(([k, s]) => [k, fc.oneof({ weight: 3, arbitrary: plausible(s, depth + 1) }, { weight: 1, arbitrary: hostile })]),
  );
  return fc
    .record(entries, { requiredKeys: [] })
    .chain((obj) =>
      fc.dictionary(fc.constantFrom('__proto__', 'extra', 'id', 'organization_id', 'is_admin'), hostile, { maxKeys: 2 }).map((extra) => ({ ...extra, ...obj })),
    );
}

const hostilePathSegment = fc.constantFrom(
  '%C0%AF',
  '%FF%FE',
  '0',
  '-1',
  '99999999999999999999',
  '1.5',
  '1e3',
  'abc',
  '%00',
  '%2e%2e%2f%2e%2e%2fetc',
  '1%3BDROP',
  '%E2%80%AE',
  '%F0%9F%98%80',
  ' 1',
  '0x10',
);

function pathArb(r: Route): fc.Arbitrary<string> {
  const valid = fillPath(r.path, w.A);
  const names = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  if (!names.length) return fc.constant(r.path);
  const random = fc
    .tuple(
      ...names.map(() =>
        fc.oneof(
          hostilePathSegment,
          fc.integer({ min: 1, max: 2000 }).map(String),
          hostileString.map((v) => pct(v.slice(0, 2000))),
        ),
      ),
    )
    .map((segs) => {
      let i = 0;
      return r.path.replace(/\{\w+\}/g, () => segs[i++]);
    });
  return valid ? fc.oneof({ weight: 2, arbitrary: fc.constant(valid) }, { weight: 2, arbitrary: random }) : random;
}

/** Percent-encodes every UTF-8 byte: works for lone surrogates too (they become U+FFFD). */
const pct = (v: string) => [...Buffer.from(v, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

/** Any generated value as query-string text (objects may have no prototype, so no String()). */
const asText = (v: unknown): string => (v !== null && typeof v === 'object' ? JSON.stringify(v) : `${v as string}`);

function queryArb(r: Route): fc.Arbitrary<string> {
  const params = (r.op.parameters ?? []).filter((p) => p.in === 'query');
  const names = [...params.map((p) => p.name), 'page', 'per_page', 'sort', 'order', 'search_query'];
  const one = fc.tuple(
    fc.constantFrom(...names),
    fc.oneof(plausible(params[0]?.schema).map(asText), hostileString, hostileNumber.map(asText)),
    fc.constantFrom('', '[]', '[0]', '[a]', '[__proto__]'),
  );
  return fc.array(one, { maxLength: 4 }).map((pairs) => pairs.map(([k, v, suffix]) => `${k}${encodeURIComponent(suffix)}=${pct(v)}`).join('&'));
}

type Payload =
  | { kind: 'none' }
  | { kind: 'json'; body: unknown }
  | { kind: 'raw'; raw: string; contentType: string }
  | { kind: 'form'; fields: Record<string, FormValue | FormValue[]> };

function bodyArb(r: Route): fc.Arbitrary<Payload> {
  if (r.method === 'GET' || r.method === 'DELETE')
    return fc.oneof(
      { weight: 4, arbitrary: fc.constant<Payload>({ kind: 'none' }) },
      { weight: 1, arbitrary: hostile.map((body): Payload => ({ kind: 'json', body })) },
    );
  const schema = r.op.requestBody?.content?.['application/json']?.schema;
  const known = w.forms[r.key];
  const raw = fc
    .constantFrom('{"a":', '{"a":1,}', '\u0000', 'null', '[]', '"x"', '{"__proto__":{"is_admin":true}}')
    .map((s): Payload => ({ kind: 'raw', raw: s, contentType: 'application/json' }));
  if (schema) {
    return fc.oneof(
      { weight: 6, arbitrary: plausible(schema).map((body): Payload => ({ kind: 'json', body })) },
      { weight: 1, arbitrary: hostile.map((body): Payload => ({ kind: 'json', body })) },
      { weight: 1, arbitrary: deep.map((d): Payload => ({ kind: 'json', body: { ...(w.bodies[r.key] as object), name: d, title: d } })) },
      { weight: 1, arbitrary: raw },
    );
  }
  // Multipart forms (no JSON schema): the known fields with hostile values, random fields, odd files.
  const fieldNames = [...Object.keys(known ?? {}), 'file', 'image', 'name', 'files[]', 'x'];
  const fileValue = fc.record({
    file: fc.oneof(
      fc.constant(PNG),
      fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)),
    ),
    name: fc.oneof(fc.constantFrom('../../etc/passwd', '/etc/passwd', 'a\u0000.png', 'фото.png', '..\\..\\x.pdf', ''), fc.string({ maxLength: 20 })),
  });
  const form = fc
    .dictionary(
      fc.constantFrom(...fieldNames),
      fc.oneof({ weight: 3, arbitrary: hostileString.map((s) => s.replaceAll('\u0000', '')) }, { weight: 1, arbitrary: fileValue }),
      { maxKeys: 5 },
    )
    .map((fields): Payload => ({ kind: 'form', fields: { ...(known ?? {}), ...fields } as Record<string, FormValue> }));
  return fc.oneof(
    { weight: 4, arbitrary: form },
    { weight: 1, arbitrary: raw },
    { weight: 1, arbitrary: hostile.map((body): Payload => ({ kind: 'json', body })) },
  );
}

async function options(payload: Payload, token: string | undefined): Promise<CallOptions> {
  switch (payload.kind) {
    case 'none':
      return { token };
    case 'json':
      return { token, raw: JSON.stringify(payload.body) ?? 'null', contentType: 'application/json' };
    case 'raw':
      return { token, raw: payload.raw, contentType: payload.contentType };
    case 'form':
      return { token, ...(await multipartBody(payload.fields)) };
  }
}

let last = await quickFingerprint(t);

const order = (r: Route) => (r.method === 'DELETE' ? 1 : 0);
const targets = routes.filter((r) => !(r.key in SKIP)).sort((a, b) => order(a) - order(b));

describe('fuzzing every route from the OpenAPI document', () => {
  it('covers the route table', () => {
    expect(targets.length).toBeGreaterThan(150);
  });

  it('notices a change (control: the fingerprint is not blind)', async () => {
    const before = await quickFingerprint(t);
    const res = await t.call('PUT', `${API}/complexes/${w.A.complexId}`, { token: w.admin, body: { name: `ЖК Контроль ${Date.now()}`, city: 'Київ' } });
    expect(res.statusCode, res.body).toBe(200);
    last = await quickFingerprint(t);
    expect(changedTables(before, last)).toEqual(['complexes']);
  });

  for (const r of targets) {
    it(r.key, async () => {
      const publicRoute = r.path.startsWith('/api/public/') || r.path.startsWith('/api/staff/');
      await fc.assert(
        fc.asyncProperty(pathArb(r), queryArb(r), bodyArb(r), async (path, query, payload) => {
          const url = query ? `${path}?${query}` : path;
          const res = await t.call(r.method, url, await options(payload, publicRoute ? undefined : w.admin));
          expect(res.statusCode, `${r.method} ${url.slice(0, 300)} → ${res.body.slice(0, 300)}`).toBeLessThan(500);
          const now = await quickFingerprint(t);
          if (res.statusCode >= 400) {
            expect(changedTables(last, now), `${r.method} ${url.slice(0, 300)} answered ${res.statusCode} but changed data`).toEqual([]);
          }
          last = now;
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    });
  }
});
