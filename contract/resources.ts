import { declareResource as declare, type ResourceDeclaration } from './entity.ts';

export type { ItemShape, ListShape, ResourceDeclaration } from './entity.ts';

/**
 * react-admin resource name → API call table of the resources that are not declared entities;
 * declared entities (contract/entities.ts) carry their own, and `ALL_RESOURCES` there joins both.
 * This table has no zod schema, so the SPA's first screen can load it without them.
 */
export const RESOURCES = {
  houses: declare({ path: '/houses', area: 'houses', list: 'main_data' }),
  staff: declare({ path: '/staff', area: 'staff', list: 'data.data' }),
  'staff-roles': declare({ path: '/staff_role', area: 'staff_roles', list: 'data_list', one: 'list_id', create: 'list_id', update: 'list_id' }),
  residents: declare({ path: '/residents', area: 'members', list: 'data_pagination' }),
  'resident-roles': declare({ path: '/resident-roles', area: 'members', list: 'data_pagination', one: 'list_id' }),
  bills: declare({ path: '/bills', area: 'members', list: 'data_pagination', one: 'none' }),
  articles: declare({ path: '/articles', area: 'articles', list: 'main_data', updateMethod: 'POST' }),
  advertisements: declare({ path: '/advertisement', area: 'advertisements', list: 'main_data', encoding: 'multipart' }),
  documents: declare({ path: '/documents', area: 'documents', list: 'main_data', encoding: 'multipart' }),
  voting: declare({ path: '/voting', area: 'votings', list: 'main_data' }),
  interview: declare({ path: '/interview', area: 'interviews', list: 'main_data' }),
} satisfies Record<string, ResourceDeclaration>;

export type ResourceName = keyof typeof RESOURCES;
