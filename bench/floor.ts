/**
 * The physical floor for bench/api.ts: a bare Fastify server with a node-postgres pool that, for
 * GET /floor/<scenario>/<variant>, runs exactly the SQL the app ran for that call (recorded by
 * bench/data/capture.ts, in the same concurrent waves) and answers the rows as JSON. No auth,
 * no validation, no ORM, no mapping: what is left is the database work and HTTP.
 * Started by bench/api.ts: FLOOR_SPEC=<json file> DATABASE_URL=… node --import tsx bench/floor.ts
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';
import type { CapturedQuery } from './data/capture.ts';

export type FloorSpec = Record<string, CapturedQuery[][]>;

/** A unique token value (hex or base64url, 32+ characters) is replaced per call, so that INSERTs repeat. */
const TOKEN = /^[A-Za-z0-9_-]{32,}$/;

async function main() {
  const spec = JSON.parse(fs.readFileSync(process.env.FLOOR_SPEC!, 'utf8')) as FloorSpec;
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  const app = Fastify({ logger: false });
  const run = (q: CapturedQuery) => {
    const fresh = /^\s*insert/i.test(q.text);
    const values = fresh
      ? q.values.map((v) => (typeof v === 'string' && TOKEN.test(v) ? randomBytes(v.length).toString('base64url').slice(0, v.length) : v))
      : q.values;
    return q.rowMode === 'array' ? pool.query({ text: q.text, values, rowMode: 'array' }) : pool.query({ text: q.text, values });
  };
  app.get<{ Params: { scenario: string; variant: string } }>('/floor/:scenario/:variant', async (request) => {
    const variants = spec[request.params.scenario];
    const queries = variants[Number(request.params.variant) % variants.length];
    const out: unknown[] = [];
    for (let i = 0; i < queries.length;) {
      const wave = queries.filter((q) => q.wave === queries[i].wave);
      const results = await Promise.all(wave.map(run));
      for (const r of results) out.push(r.rows);
      i += wave.length;
    }
    return out;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  console.log(`floor listening on ${typeof address === 'object' && address ? address.port : 0}`);
  const stop = () =>
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
