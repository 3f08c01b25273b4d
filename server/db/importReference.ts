import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import { searchForm } from '../../contract/reference.ts';
import type { Db } from './index.ts';

/** The gzipped JSON files the reference is imported from (see reference/README.md). */
export const referenceFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'reference');

interface SettlementRow {
  code: string;
  name: string;
  category: string;
  region: string;
  district: string | null;
  community: string | null;
}

interface StreetRow {
  city_code: string;
  name: string;
  type: string | null;
  district: string | null;
}

/** Rows per INSERT: each batch travels as one JSON parameter, so the statement stays small. */
const BATCH = 10_000;
/** Any constant: it only has to keep two processes from importing at the same moment. */
const IMPORT_LOCK = 7_301_452;

function readGzipJson<T>(file: string): T[] {
  const rows = JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(referenceFolder, file))).toString('utf8'));
  if (!Array.isArray(rows)) throw new Error(`${file}: expected a JSON array`);
  return rows as T[];
}

function batches<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += BATCH) out.push(rows.slice(i, i + BATCH));
  return out;
}

export interface ImportResult {
  settlements: number;
  streets: number;
  ms: number;
}

/**
 * Fills `settlements` and `streets` from the reference files when `settlements` is empty, in one
 * transaction; otherwise does nothing (returns undefined). Once imported, the tables belong to
 * the product: nothing here ever updates or deletes a row, so admin edits are never overwritten.
 */
export async function importReferenceData(db: Db): Promise<ImportResult | undefined> {
  const started = performance.now();
  const hasRows = async (tx: Pick<Db, 'execute'>) => {
    const result = await tx.execute(sql`SELECT EXISTS (SELECT 1 FROM settlements) AS "exists"`);
    return Boolean((result as unknown as { rows: { exists: boolean }[] }).rows[0]?.exists);
  };
  // The cheap check first, so an ordinary start neither locks nor reads the files.
  if (await hasRows(db)) return undefined;

  return db.transaction(async (tx) => {
    // Two processes starting on one empty database: the second waits, then finds the rows.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${IMPORT_LOCK})`);
    if (await hasRows(tx)) return undefined;

    const settlementRows = readGzipJson<SettlementRow>('settlements.json.gz').map((r) => ({ ...r, search_name: searchForm(r.name) }));
    for (const batch of batches(settlementRows)) {
      await tx.execute(sql`
        INSERT INTO settlements (code, name, category, region, district, community, search_name)
        SELECT code, name, category, region, district, community, search_name
        FROM json_to_recordset(${JSON.stringify(batch)}::json)
          AS r(code text, name text, category text, region text, district text, community text, search_name text)`);
    }

    const streetRows = readGzipJson<StreetRow>('streets.json.gz').map((r) => ({ ...r, search_name: searchForm(r.name) }));
    for (const batch of batches(streetRows)) {
      await tx.execute(sql`
        INSERT INTO streets (settlement_id, name, type, district, search_name, source)
        SELECT s.id, r.name, r.type, r.district, r.search_name, 'reference'
        FROM json_to_recordset(${JSON.stringify(batch)}::json)
          AS r(city_code text, name text, type text, district text, search_name text)
        JOIN settlements s ON s.code = r.city_code`);
    }
    const counted = await tx.execute(sql`SELECT count(*)::int AS n FROM streets`);
    const inserted = (counted as unknown as { rows: { n: number }[] }).rows[0].n;
    if (inserted !== streetRows.length) throw new Error(`streets.json.gz: ${streetRows.length - inserted} rows name an unknown city code`);
    // A bulk insert leaves part of each trigram index in GIN's unsorted pending list, which every
    // search would then scan; merge it into the index now rather than at the next vacuum.
    await tx.execute(sql`SELECT gin_clean_pending_list('settlements_search_trgm_idx'::regclass), gin_clean_pending_list('streets_search_trgm_idx'::regclass)`);
    // Fresh statistics, so that the first searches are planned on the real table sizes.
    await tx.execute(sql`ANALYZE settlements`);
    await tx.execute(sql`ANALYZE streets`);
    return { settlements: settlementRows.length, streets: streetRows.length, ms: Math.round(performance.now() - started) };
  });
}
