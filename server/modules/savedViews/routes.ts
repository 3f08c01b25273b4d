import { and, count, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import { canAccess } from '../../../contract/permissions.ts';
import {
  SAVED_VIEW_LISTS,
  SAVED_VIEWS_LIMIT,
  savedViewInput,
  savedViewListSchema,
  savedViewRecord,
  savedViewUpdate,
  type SavedViewList,
} from '../../../contract/savedViews.ts';
import { savedViews, users } from '../../db/schema.ts';
import type { CurrentUser } from '../../lib/auth.ts';
import { forbidden, HttpError, isUniqueViolation, notFound, unprocessable } from '../../lib/errors.ts';
import { ukrainianSortKey } from '../../lib/sortKey.ts';
import { plural } from '../../lib/words.ts';

const tags = ['saved-views'];
const params = z.object({ id: idSchema });
const NOT_FOUND = 'Збережений вид не знайдено.';
const TAKEN = { name: ['Вид із такою назвою вже є. Оберіть іншу назву.'] };

const toRecord = (r: typeof savedViews.$inferSelect) => ({
  id: r.id,
  list: r.list as SavedViewList,
  name: r.name,
  query: r.query,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
});

/** A user keeps views only of lists they may open. */
function mayUse(user: CurrentUser, list: SavedViewList) {
  if (!canAccess(user.rules, SAVED_VIEW_LISTS[list], 'view')) throw forbidden();
}

/**
 * Saved views of lists (contract/savedViews.ts): each user reads and changes only their own, so
 * no permission area guards the routes themselves (like the notifications); the list's area
 * still decides whether its views may be kept. Another user's view answers 404, as a missing one.
 */
export const savedViewRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const own = (user: CurrentUser, id: number) => and(eq(savedViews.id, id), eq(savedViews.userId, user.id));

  app.get(
    '/saved-views',
    {
      schema: {
        tags,
        summary: 'Мої збережені види списку',
        description: 'Лише власні види користувача, за назвою.',
        querystring: z.object({ list: savedViewListSchema }),
        response: { 200: z.object({ data: z.array(savedViewRecord) }) },
      },
    },
    async (request) => {
      mayUse(request.user, request.query.list);
      const rows = await db
        .select()
        .from(savedViews)
        .where(and(eq(savedViews.userId, request.user.id), eq(savedViews.list, request.query.list)))
        .orderBy(ukrainianSortKey(sql`${savedViews.name}`), savedViews.id);
      return { data: rows.map(toRecord) };
    },
  );

  app.post(
    '/saved-views',
    {
      schema: {
        tags,
        summary: 'Зберегти вид списку',
        description: `Назва унікальна серед видів цього списку; щонайбільше ${SAVED_VIEWS_LIMIT} видів одного списку.`,
        body: savedViewInput,
        response: { 200: z.object({ data: savedViewRecord }) },
      },
    },
    async (request) => {
      const { list, name, query } = request.body;
      mayUse(request.user, list);
      try {
        const row = await db.transaction(async (tx) => {
          // The user's row is the lock: two saves at once cannot both pass the limit.
          await tx.select({ id: users.id }).from(users).where(eq(users.id, request.user.id)).for('update');
          const [{ n }] = await tx
            .select({ n: count() })
            .from(savedViews)
            .where(and(eq(savedViews.userId, request.user.id), eq(savedViews.list, list)));
          if (Number(n) >= SAVED_VIEWS_LIMIT)
            throw new HttpError(
              409,
              `Можна зберегти щонайбільше ${SAVED_VIEWS_LIMIT} ${plural(SAVED_VIEWS_LIMIT, ['вид', 'види', 'видів'])} одного списку. Видаліть непотрібні.`,
            );
          const [created] = await tx.insert(savedViews).values({ userId: request.user.id, list, name, query }).returning();
          return created;
        });
        return { data: toRecord(row) };
      } catch (err) {
        if (isUniqueViolation(err)) throw unprocessable(TAKEN);
        throw err;
      }
    },
  );

  app.put(
    '/saved-views/:id',
    {
      schema: {
        tags,
        summary: 'Перейменувати збережений вид або замінити його фільтри',
        params,
        body: savedViewUpdate,
        response: { 200: z.object({ data: savedViewRecord }) },
      },
    },
    async (request) => {
      const [current] = await db.select().from(savedViews).where(own(request.user, request.params.id));
      if (!current) throw notFound(NOT_FOUND);
      mayUse(request.user, current.list as SavedViewList);
      const { name, query } = request.body;
      try {
        const [row] = await db
          .update(savedViews)
          .set({ ...(name !== undefined ? { name } : {}), ...(query !== undefined ? { query } : {}), updatedAt: new Date() })
          .where(own(request.user, request.params.id))
          .returning();
        if (!row) throw notFound(NOT_FOUND);
        return { data: toRecord(row) };
      } catch (err) {
        if (isUniqueViolation(err)) throw unprocessable(TAKEN);
        throw err;
      }
    },
  );

  app.delete(
    '/saved-views/:id',
    {
      schema: { tags, summary: 'Видалити збережений вид', params, response: { 200: z.object({ message: z.string() }) } },
    },
    async (request) => {
      const [current] = await db.select().from(savedViews).where(own(request.user, request.params.id));
      if (!current) throw notFound(NOT_FOUND);
      mayUse(request.user, current.list as SavedViewList);
      await db.delete(savedViews).where(own(request.user, request.params.id));
      return { message: 'Вид видалено.' };
    },
  );
};
