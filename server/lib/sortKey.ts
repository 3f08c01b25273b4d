import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

const UK_ALPHABET = 'абвгґдеєжзиіїйклмнопрстуфхцчшщьюя';
// Each Ukrainian letter maps to a private-use character in alphabet order, so that a plain
// code-point comparison (the C collation, the same on PGlite and PostgreSQL) sorts as Ukrainian does.
const UK_ORDER = Array.from(UK_ALPHABET, (_, i) => String.fromCharCode(0xe000 + i)).join('');

/**
 * Sort key for Ukrainian text: case-insensitive, Ґ after Г, Є after Е, І and Ї after И.
 * The letters are literals (constants, not user input) so that an expression index built with
 * the same function matches the query.
 */
export function ukrainianSortKey(column: PgColumn | SQL): SQL {
  return sql`translate(lower(${column}), ${sql.raw(`'${UK_ALPHABET}'`)}, ${sql.raw(`'${UK_ORDER}'`)})`;
}
