import { declareResource as declare, type ResourceDeclaration } from './entity.ts';

export type { ItemShape, ListShape, ResourceDeclaration } from './entity.ts';

/**
 * react-admin resource name → API call table of the resources that are not declared entities;
 * declared entities (contract/entities.ts) carry their own, and `ALL_RESOURCES` there joins both.
 * This table has no zod schema, so the SPA's first screen can load it without them.
 */
export const RESOURCES = {
  houses: declare({ path: '/houses', area: 'houses', list: 'main_data' }),
  residents: declare({ path: '/residents', area: 'members', list: 'data_pagination' }),
  bills: declare({ path: '/bills', area: 'members', list: 'data_pagination', one: 'none' }),
} satisfies Record<string, ResourceDeclaration>;

export type ResourceName = keyof typeof RESOURCES;
