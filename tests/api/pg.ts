import pg from 'pg';

/** Names and URLs of the throw-away PostgreSQL databases the API suite works in. */

/** Per-file databases are named `zhk_t_<template suffix>_<random>`. */
export const TEST_DB_PREFIX = 'zhk_t_';

/** The same server, another database. */
export function databaseUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

/**
 * A connection to issue CREATE/DROP DATABASE from: the database named in DATABASE_URL when it
 * exists (e.g. postgres://postgres@127.0.0.1:5432/test), otherwise the `postgres` maintenance one.
 */
export async function withAdminClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  let client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (err) {
    if ((err as { code?: string }).code !== '3D000') throw err; // 3D000: database does not exist
    client = new pg.Client({ connectionString: databaseUrl(url, 'postgres') });
    await client.connect();
  }
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
