import { Column, is, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { ukrainianSortKey } from './sortKey.ts';

/**
 * How many digits a house or unit number starts with (null when none). Numbers with more
 * leading digits are larger, so this orders «2» before «10» without parsing: plain string
 * functions, because a regular expression on every one of 200,000 units costs twice as much.
 */
export const leadingDigits = (column: PgColumn | SQL): SQL => sql`nullif(length(${column}) - length(ltrim(${column}, '0123456789')), 0)`;

/**
 * Natural order of numbers like «2», «10», «10А», «10Б», «Б-3»: by the count of leading digits,
 * then as Ukrainian text (equal-length digit runs compare as numbers); numbers without leading
 * digits come last. Leading zeros count as digits («007» after «10»).
 */
export const naturalKeys = (column: PgColumn | SQL): SQL[] => [leadingDigits(column), ukrainianSortKey(column)];

/**
 * Every key in one direction, empty values last either way. NOT NULL columns keep the plain
 * form, so that an index on them can still serve the order in both directions.
 */
export function ordered(keys: (PgColumn | SQL)[], order: 'asc' | 'desc'): SQL[] {
  return keys.map((k) => {
    if (isColumn(k) && k.notNull) return order === 'desc' ? sql`${k} desc` : sql`${k} asc`;
    return order === 'desc' ? sql`${k} desc nulls last` : sql`${k} asc nulls last`;
  });
}

const isColumn = (k: PgColumn | SQL): k is PgColumn => is(k, Column);
