import fs from 'node:fs';
import pg from 'pg';
const c = new pg.Client('postgres://postgres@127.0.0.1:5432/bench_large');
await c.connect();
const N = 200;
async function time(label, q) {
  for (let i = 0; i < 20; i++) await c.query(q);
  const t = performance.now();
  for (let i = 0; i < N; i++) await c.query(q);
  console.log(label, ((performance.now() - t) / N).toFixed(2), 'ms');
}
for (const mode of ['auto', 'force_custom_plan', 'force_generic_plan']) {
  await c.query(`set plan_cache_mode = ${mode}`);
  for (const k of ['app', 'floor']) {
    const { text, values } = JSON.parse(fs.readFileSync(`/tmp/${k}.json`, 'utf8'));
    await time(`${mode} ${k} prepared`, { text, values, name: `${k}_${mode}` });
    await time(`${mode} ${k} unnamed`, { text, values });
  }
}
await c.end();
