import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { rightsKey } from '../lib/keptStatements.ts';
import type { CrudContext } from './types.ts';

/** Renders kept SQL (`recordsJson`, `siblings.json`) to text. */
const dialect = new PgDialect();
/** Rendered parts kept per entity: one per part and description of the user's rights in use. */
const RENDERED_KEPT = 500;

/**
 * An entity's SQL parts that depend on the user only through their organization, admin flag,
 * rights and complexes (the records' SQL, the keys beside a list), rendered once with their
 * values written in and kept: building and rendering them is most of a list call's Node time.
 * The key is everything of the user the part may read (`rightsKey`), so that two users of the
 * same complexes with different rights never share a text (docs/security.md, "List statements kept between calls").
 */
export class RenderedParts {
  private readonly kept = new Map<string, SQL>();

  get(part: string, build: (ctx: CrudContext) => SQL, ctx: CrudContext): SQL {
    const key = `${part}\u0000${rightsKey(ctx.user)}`;
    let text = this.kept.get(key);
    if (!text) {
      if (this.kept.size >= RENDERED_KEPT) this.kept.delete(this.kept.keys().next().value!);
      this.kept.set(key, (text = sql.raw(dialect.sqlToQuery(build(ctx).inlineParams()).sql)));
    }
    return text;
  }
}
