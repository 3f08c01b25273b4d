/** What a user keeps for themselves: the named views of lists (contract/savedViews.ts). */
import { sql } from 'drizzle-orm';
import { integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './columns.ts';
import { users } from './organizations-users.ts';

/** A list's filters and sort under a name, one user's own: the list's address query. */
export const savedViews = pgTable(
  'saved_views',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Which list (a key of SAVED_VIEW_LISTS). */
    list: text('list').notNull(),
    name: text('name').notNull(),
    /** The list's address query: `stage=new&sort=deadline&order=ASC`. */
    query: text('query').notNull(),
    ...timestamps,
  },
  (t) => [
    // One name once per user and list, whatever its case; it also serves the reads of one user's list.
    uniqueIndex('saved_views_user_list_name_uq').on(t.userId, t.list, sql`lower(${t.name})`),
  ],
);
