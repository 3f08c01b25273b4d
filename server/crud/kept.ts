import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { canAccess } from '../../contract/permissions.ts';
import { renderStatement, runRendered, type RenderedStatement } from '../db/index.ts';
import { confirmSession, sessionSqlFixed, sessionToConfirm, type CurrentUser } from '../lib/auth.ts';
import { forbidden } from '../lib/errors.ts';
import { LIST_PAGE } from '../lib/jsonSql.ts';
import { KeptStarts, START_ID, START_KEY, START_VERSION, startValues } from '../lib/keptStarts.ts';
import { KeptStatements, userKey } from '../lib/keptStatements.ts';
import { keptCountStatement, KeptTotals, keptVersionColumns, keptWith, type KeptCount } from '../lib/keptTotals.ts';
import { cappedCount, totalOf } from '../lib/list.ts';
import { paginate, type ListTotal } from '../lib/pagination.ts';
import type { EntityCrud } from './base.ts';
import { planList, planOnce, type ListPlan } from './plans.ts';
import type { CrudTable, ListQuery } from './types.ts';
import { listJson } from './wire.ts';

/** A list page's statement as `KeptList.answer` runs it: rendered, with its kept-total check and the rows it counts. */
interface ListStatement {
  /**
   * The page's statement. When its total can be kept, it holds no count, only the version of the
   * count's tables (`keptVersionColumns`): a count in the text is set up by PostgreSQL on every
   * call even when it is not run (about a fifth of a phone search's database time).
   */
  rendered: RenderedStatement;
  /**
   * When the total can be kept: its check (the kept total's key and tables), and the count with
   * the version it is counted at, in a statement of its own (`keptCountStatement`).
   */
  keeps?: { check: KeptCount; counting: RenderedStatement };
  countRows: ListPlan['countRows'];
  /** The id step of the source's order when the statement can start from a kept key (`PageSource.fromStart`). */
  startStep?: 1 | -1;
}
/** Rendered list statements kept per entity (one per user, query and session state). */
const STATEMENTS_KEPT = 200;

/**
 * A list page in one statement and what it keeps between calls (docs/architecture.md, "Lists in
 * one statement", "Kept totals", "Kept page starts"): the rendered statements, the totals with
 * the versions they were counted at, and where pages begin.
 */
export class KeptList<T extends CrudTable, Input, Rec> {
  private readonly statements = new KeptStatements<ListStatement>(STATEMENTS_KEPT);
  private readonly totals = new KeptTotals();
  private readonly starts = new KeptStarts();

  constructor(private readonly crud: EntityCrud<T, Input, Rec>) {}

  /**
   * The one statement of a list page, rendered: the page's ids in order, their records as JSON,
   * the capped total (skipped while the kept one holds), the keys beside the list and the session
   * check (server/lib/auth.ts). Its text depends only on the user and the query (the kept version
   * and the session's token are placeholders), so it is built and rendered once for each and
   * kept, unless a part of it read the database (`EntityQuery.where`).
   */
  private statement(user: CurrentUser, q: ListQuery, toConfirm: boolean): Promise<ListStatement> {
    const { crud } = this;
    return this.statements.get(`${userKey(user)}\u0000${toConfirm}\u0000${JSON.stringify(q)}`, async (built) => {
      const plan = await planList(crud, user, q, built);
      const ctx = crud.ctxOf(user);
      const check = this.totals.countOf(sql`${plan.countRows}`, plan.reads, user.organizationId);
      const count = cappedCount(plan.countRows);
      // A source that can start from a key does so while the tables' version is the one its start
      // was kept at (read in this statement's snapshot); otherwise it walks the offset. Page 1
      // of a list, which starts at the index's first entry, reads no keys; page 1 of a search
      // does: its first match may lie deep in the index (docs/architecture.md, "Kept page starts").
      const starts = check && (q.page > 1 || q.search_query.trim() !== '') ? plan.source?.fromStart : undefined;
      const pageIds = starts
        ? sql`case when (select v from list_version) = ${sql.placeholder(START_VERSION)}
            then array(${starts.ids({ key: sql`${sql.placeholder(START_KEY)}`, id: sql`${sql.placeholder(START_ID)}::bigint` })}) else array(${plan.ids}) end`
        : sql`array(${plan.ids})`;
      return {
        rendered: renderStatement(
          sql`with ${keptWith(check)}
            ${LIST_PAGE} as (select id, ord from unnest(${pageIds}) with ordinality as p(id, ord))
            select (${crud.recordsSql(ctx)})::text as data,
              ${check ? keptVersionColumns() : sql`${count} as n`}${
                // Only the columns this statement fills (each column is described to the driver on every call).
                starts
                  ? sql`, (${starts.keyOf(sql`(select id from ${LIST_PAGE} where ord = 1)`)})::text as first_key,
                    (${starts.keyOf(sql`(select id from ${LIST_PAGE} order by ord desc limit 1)`)})::text as last_key`
                  : sql``
              }${toConfirm ? sql`, ${sessionSqlFixed(true)} as session` : sql``}${
                crud.siblingsSql ? sql`, (${crud.siblingsSql(ctx)})::text as siblings` : sql``
              }`,
          { planOnce: planOnce(crud, q, built, plan) },
        ),
        keeps: check && { check, counting: renderStatement(keptCountStatement(check, count)) },
        countRows: plan.countRows,
        startStep: starts?.step,
      };
    });
  }

  /**
   * A list page in one statement; its total is the kept one while the version the page's
   * statement read is the one it was counted at, and otherwise is counted by a second statement,
   * with the version it counts at.
   */
  async answer(request: FastifyRequest, reply: FastifyReply, q: ListQuery): Promise<unknown> {
    const { crud } = this;
    const { db, e, impl } = crud;
    const toConfirm = sessionToConfirm(request);
    // Keys loaded in Node come alongside.
    const siblings = impl.siblings && !crud.siblingsSql ? crud.siblingsOf(request.user) : undefined;
    siblings?.catch(() => undefined);
    const { rendered, keeps, countRows, startStep } = await this.statement(request.user, q, toConfirm);
    const kept = keeps && this.totals.current(keeps.check);
    const start = startStep ? this.starts.current(request.user, q) : undefined;
    // Columns the statement leaves out (`statement`) are undefined here.
    const [row] = await runRendered<{
      data: string;
      n?: number;
      version?: string;
      log_rows?: number;
      first_key?: string | null;
      last_key?: string | null;
      session?: unknown;
      siblings?: string | null;
    }>(db, rendered, {
      ...(startStep ? startValues(start) : {}),
      ...(toConfirm ? { session_hash: request.session.hash } : {}),
    });
    if (!confirmSession(db, request, row.session)) {
      // The rights changed since: nothing read with the old ones is answered.
      if (!canAccess(request.user.rules, e.area, 'view')) throw forbidden();
      return this.answer(request, reply, q);
    }
    let total: ListTotal;
    if (!keeps) total = await totalOf(db, countRows, Number(row.n));
    else if (kept && kept.version === row.version) total = kept.total;
    else {
      // Not counted yet, or the tables changed since: counted now, at the version it counts at
      // (a write committed after the page's statement may be in it: the newer total).
      const [counted] = await runRendered<{ n: number; version: string }>(db, keeps.counting, {});
      total = await totalOf(db, countRows, Number(counted.n));
      this.totals.keep(keeps.check, counted.version, total);
    }
    if (startStep && row.version !== undefined) this.starts.keepAfter(request.user, q, row.version, row.first_key ?? null, row.last_key ?? null, startStep);
    if (keeps) this.totals.compactAfter(db, keeps.check, Number(row.log_rows));
    const rest = row.siblings ?? (await siblings) ?? {};
    return reply.type('application/json; charset=utf-8').send(listJson(e.list, row.data, paginate(total, q.page, q.per_page), rest));
  }
}
