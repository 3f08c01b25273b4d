/**
 * npm run backup / npm run restore: a seeded database with an uploaded document is backed up,
 * restored into a new DATA_DIR (and into an empty PostgreSQL database), and a server started
 * there shows the same data and serves the same file. A target that holds data is refused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, createCluster, login, postgresBinaries, runScript, seededDataDir, serverEnv, startServer, tempDir, UKRAINIAN, type Cluster } from './helpers.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% резервна копія\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'utf8');

/** What a signed-in admin sees: list totals of the main areas. */
async function counts(base: string, token: string) {
  const total = async (url: string, pick: (b: any) => number) => {
    const res = await call(base, 'GET', url, { token });
    expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
    return pick(res.body);
  };
  return {
    complexes: await total('/complexes?per_page=1', (b) => b.main_data.total),
    houses: await total('/houses?per_page=1', (b) => b.main_data.total),
    staff: await total('/staff?per_page=1', (b) => b.data.total),
    requests: await total('/service_request?per_page=1', (b) => b.main_data.total),
  };
}

describe('backup and restore', () => {
  const source = seededDataDir('backup-src');
  const target = tempDir('backup-dst');
  const work = tempDir('backup-files');
  const archive = path.join(work, 'zhk.tar.gz');
  let cluster: Cluster | undefined;
  afterAll(() => {
    cluster?.destroy();
    for (const d of [source, target, work]) fs.rmSync(d, { recursive: true, force: true });
  });

  let before: Awaited<ReturnType<typeof counts>>;
  /** The uploaded file's URL: its random key survives backup and restore. */
  let mediaUrl: string;
  let complexName: string;

  it('backs up a database with an uploaded document and restores it into a new DATA_DIR', async () => {
    const server = await startServer({ dataDir: source });
    try {
      const token = await login(server.url);
      const form = new FormData();
      form.append('file', new Blob([PDF], { type: 'application/pdf' }), 'протокол.pdf');
      const upload = await call(server.url, 'POST', '/media/document', { token, form });
      expect(upload.status, JSON.stringify(upload.body)).toBe(200);
      mediaUrl = upload.body.data.url;
      complexName = `ЖК Резервний ${Date.now()}`;
      const complex = await call(server.url, 'POST', '/complexes', {
        token,
        body: { name: complexName, city: 'Львів', address: 'вул. Архівна, 7', description: 'до копії' },
      });
      expect(complex.status).toBe(200);
      before = await counts(server.url, token);
    } finally {
      // PGlite has one user at a time: the backup reads the folder of a stopped server.
      await server.stop();
    }

    const backup = await runScript('scripts/backup.ts', [archive], serverEnv({ dataDir: source }));
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toMatch(/Резервну копію збережено/);
    expect(fs.statSync(archive).size).toBeGreaterThan(0);

    const restore = await runScript('scripts/restore.ts', [archive], serverEnv({ dataDir: target }));
    expect(restore.code, restore.output).toBe(0);
    expect(restore.output).toMatch(/Відновлено/);

    const restored = await startServer({ dataDir: target });
    try {
      const token = await login(restored.url);
      expect(await counts(restored.url, token)).toEqual(before);
      const list = await call(restored.url, 'GET', `/complexes?search_query=${encodeURIComponent(complexName)}`, { token });
      expect(list.body.main_data.data.map((c: { name: string }) => c.name)).toEqual([complexName]);
      const file = await fetch(`${restored.url}${mediaUrl}`, { headers: { authorization: `Bearer ${token}` } });
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);
      // Sequences were restored: new rows get fresh ids instead of colliding with restored ones.
      const fresh = await call(restored.url, 'POST', '/complexes', {
        token,
        body: { name: `${complexName} новий`, city: 'Львів', address: 'вул. Нова, 1', description: '' },
      });
      expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    } finally {
      await restored.stop();
    }
  });

  it('refuses to restore into a DATA_DIR that already holds data, and leaves it as it was', async () => {
    const marker = fs.readdirSync(path.join(source, 'pgdata')).sort();
    const refused = await runScript('scripts/restore.ts', [archive], serverEnv({ dataDir: source }));
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/лише в порожнє/);
    expect(refused.output).toMatch(UKRAINIAN);
    expect(fs.readdirSync(path.join(source, 'pgdata')).sort()).toEqual(marker);

    const missing = await runScript('scripts/restore.ts', [path.join(work, 'nothing.tar.gz')], serverEnv({ dataDir: path.join(work, 'empty') }));
    expect(missing.code).toBe(1);
    expect(missing.output).toMatch(/не знайдено/);
  });

  it.skipIf(!postgresBinaries())('restores the same archive into an empty PostgreSQL database, and refuses a database with data', async () => {
    cluster = await createCluster('restore');
    const url = await cluster.createDatabase('restored');
    const uploads = path.join(work, 'pg-restored');
    const env = serverEnv({ dataDir: uploads, databaseUrl: url });
    const restore = await runScript('scripts/restore.ts', [archive], env);
    expect(restore.code, restore.output).toBe(0);

    const server = await startServer({ dataDir: uploads, databaseUrl: url });
    try {
      const token = await login(server.url);
      const now = await counts(server.url, token);
      // The PGlite run above added one complex after the backup; the archive has the state before it.
      expect(now).toEqual(before);
      const file = await fetch(`${server.url}${mediaUrl}`, { headers: { authorization: `Bearer ${token}` } });
      expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);
    } finally {
      await server.stop();
    }

    // Backing up from PostgreSQL works too, and the database with data is refused as a target.
    const second = path.join(work, 'from-pg.tar.gz');
    const backup = await runScript('scripts/backup.ts', [second], env);
    expect(backup.code, backup.output).toBe(0);
    fs.rmSync(path.join(uploads, 'uploads'), { recursive: true, force: true });
    const refused = await runScript('scripts/restore.ts', [second], env);
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/порожн/);
    fs.rmSync(uploads, { recursive: true, force: true });
  });
});
