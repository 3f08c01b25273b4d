/** Names and URLs of the throw-away PostgreSQL databases the API suite works in. */

/** Per-file databases are named `zhk_t_<template suffix>_<random>`. */
export const TEST_DB_PREFIX = 'zhk_t_';

/** The same server, another database. */
export function databaseUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * A database to issue CREATE/DROP DATABASE from: the `postgres` maintenance database, so that
 * the one named in DATABASE_URL need not exist.
 */
export function adminUrl(url: string): string {
  return databaseUrl(url, 'postgres');
}
