/** Column sets and index helpers shared by the schema files. */
import { sql } from 'drizzle-orm';
import { timestamp } from 'drizzle-orm/pg-core';

/** An index key on an expression, in one direction with empty values last (as lists order). */
export const keyLast = (expression: ReturnType<typeof sql>, direction: 'asc' | 'desc') => sql`(${expression}) ${sql.raw(direction)} nulls last`;

export const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};
