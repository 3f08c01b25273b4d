/** The change log that tells a list whether a total it counted before still holds (server/lib/keptTotals.ts). */
import { bigint, bigserial, index, integer, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * One row per table and organization for every statement that wrote to a logged table, added by
 * the table's own triggers in the writer's transaction (migration 0025). `n` is how many changes
 * the row stands for: compaction replaces an organization's rows of a table by one row holding
 * their sum, so the sum only ever grows, by at least 1 with each committed write.
 * `organization_id` is empty for a change that may concern every organization (a link row whose
 * parent is gone, reference data).
 */
export const listChanges = pgTable(
  'list_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tableName: text('table_name').notNull(),
    organizationId: integer('organization_id'),
    n: bigint('n', { mode: 'number' }).notNull().default(1),
  },
  (t) => [index('list_changes_table_org_idx').on(t.tableName, t.organizationId)],
);
