import { and, eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { EntityDeclaration } from '../../contract/entity.ts';
import { complexes, houses } from '../db/schema.ts';
import { complexScope } from '../lib/scope.ts';
import type { EntityCrud } from './base.ts';
import type { CrudContext } from './types.ts';

/** Whether a record of a resource exists for this user (in their scope). */
export type ReferenceCheck = (ctx: CrudContext, id: number) => Promise<boolean>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The declared entities of this app and what their plugins registered (server/crud/registry.ts). */
    crud: CrudRegistry;
  }
}

/**
 * The declared entities of one app (`ENTITIES`), attached to it as `app.crud` (server/app.ts):
 * which of them a module implements itself, which build their records in SQL, and how a
 * reference to each is checked. Each entity's plugin enters itself when it is registered; the
 * plain plugins (server/modules/declared.ts) serve the rest.
 */
export class CrudRegistry {
  private readonly implemented = new Map<string, { inSql: boolean; exists: ReferenceCheck; crud: EntityCrud }>();
  /** References to resources that are not declared entities: houses and complexes. */
  private readonly references = new Map<string, ReferenceCheck>([
    [
      'houses',
      async ({ db, user }, id) =>
        (
          await db
            .select({ id: houses.id })
            .from(houses)
            .where(and(complexScope(user, houses), eq(houses.id, id)))
            .limit(1)
        ).length > 0,
    ],
    [
      'complexes',
      async ({ db, user }, id) =>
        (
          await db
            .select({ id: complexes.id })
            .from(complexes as PgTable)
            .where(and(complexScope(user, { organizationId: complexes.organizationId, complexId: complexes.id }), eq(complexes.id, id)))
            .limit(1)
        ).length > 0,
    ],
  ]);

  constructor(readonly entities: readonly EntityDeclaration[]) {}

  /** An entity's plugin, as it is registered: whether its records are built in SQL, how a reference to one is checked, and the entity on this app. */
  implement(e: EntityDeclaration, entry: { inSql: boolean; exists: ReferenceCheck; crud: EntityCrud }) {
    if (this.implemented.has(e.name)) throw new Error(`The entity «${e.name}» is registered twice.`);
    this.implemented.set(e.name, entry);
  }

  /** The declared entities no module has registered (in `ENTITIES` order): the plain plugins serve them. */
  unimplemented(): EntityDeclaration[] {
    return this.entities.filter((e) => !this.implemented.has(e.name));
  }

  /** The registered entities whose lists build their records in SQL: tests compare them with `toRecords`. */
  recordsInSql(): EntityDeclaration[] {
    return this.entities.filter((e) => this.implemented.get(e.name)?.inSql);
  }

  /** The registered entities on this app, in registration order: tests ask each list's plan what it reads. */
  registered(): EntityCrud[] {
    return [...this.implemented.values()].map((entry) => entry.crud);
  }

  /** How a reference to `resource` is checked: a declared entity's, or houses' and complexes'. */
  referenceCheck(resource: string): ReferenceCheck | undefined {
    return this.implemented.get(resource)?.exists ?? this.references.get(resource);
  }
}
