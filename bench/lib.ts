import autocannon from 'autocannon';
import { buildApp } from '../server/app.ts';
import type { AppConfig } from '../server/config.ts';
import type { Database } from '../server/db/index.ts';

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

/** Starts the app on a free port and signs in as the seeded admin. */
export async function startSignedIn(config: AppConfig, database: Database) {
  const app = await buildApp({ config, database });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const login = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: config.adminEmail, password: config.adminPassword }),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  return { app, base, token };
}

/** Runs each scenario under load and prints one Markdown table row per scenario. */
export async function printLoadTable(base: string, token: string, scenarios: [string, (i: number) => string][]) {
  console.log('| scenario | req/s | p50 ms | p99 ms | errors |');
  console.log('|---|---|---|---|---|');
  for (const [label, url] of scenarios) {
    let i = 0;
    const result = await autocannon({
      url: base,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: { Authorization: `Bearer ${token}` },
      requests: [{ setupRequest: (req) => ({ ...req, path: url(i++) }) }],
    });
    console.log(`| ${label} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${result.errors + result.non2xx} |`);
  }
}
