import type { Area } from './permissions.ts';

/**
 * How a list answer is wrapped (DESIGN.md, "The contract"):
 * - main_data:        { main_data: { data: [...], current_page, ... } }
 * - data_pagination:  { data: [...], pagination: { current_page, ... } }
 * - data.data:        { data: { data: [...], current_page, ... } }
 * - data_list:        { data: [...] } — the whole list, no pages (staff departures and roles)
 */
export type ListShape = 'main_data' | 'data_pagination' | 'data.data' | 'data_list';
/**
 * How a single record is wrapped: under `data` (default) or `main_data`; `list_id` answers the
 * whole new list in `data` and the record's `id` beside it (staff departures and roles), and a
 * single read of such a resource picks the record out of the list; `none`: the API has no
 * single-record call (bills are read and written per member and month).
 */
export type ItemShape = 'data' | 'main_data' | 'list_id' | 'none';

export interface ResourceDeclaration {
  /** API path under /api/admin. */
  path: string;
  /** Permission area that guards it. */
  area: Area;
  list: ListShape;
  one: ItemShape;
  create: ItemShape;
  update: ItemShape;
  /** Method used for updates (most use PUT; news uses POST /articles/{id}). */
  updateMethod: 'PUT' | 'POST';
  /** How create and update bodies travel: JSON (default) or multipart forms (files, SPEC.md section 7). */
  encoding: 'json' | 'multipart';
}

const declare = (d: Pick<ResourceDeclaration, 'path' | 'area' | 'list'> & Partial<ResourceDeclaration>): ResourceDeclaration => ({
  one: 'data',
  create: 'data',
  update: 'data',
  updateMethod: 'PUT',
  encoding: 'json',
  ...d,
});

/** react-admin resource name → API call table; the one place both sides agree on paths and shapes. */
export const RESOURCES = {
  complexes: declare({ path: '/complexes', area: 'complexes', list: 'main_data', create: 'main_data' }),
  houses: declare({ path: '/houses', area: 'houses', list: 'main_data' }),
  'house-types': declare({ path: '/house-types', area: 'houses', list: 'data_pagination' }),
  realty: declare({ path: '/realty', area: 'realty', list: 'main_data' }),
  staff: declare({ path: '/staff', area: 'staff', list: 'data.data' }),
  'staff-roles': declare({ path: '/staff_role', area: 'staff_roles', list: 'data_list', one: 'list_id', create: 'list_id', update: 'list_id' }),
  'staff-departures': declare({ path: '/staff_departure', area: 'staff_roles', list: 'data_list', one: 'list_id', create: 'list_id', update: 'list_id' }),
  'service-request-types': declare({ path: '/service-request-types', area: 'service_request_types', list: 'data_pagination' }),
  members: declare({ path: '/members', area: 'members', list: 'data_pagination' }),
  residents: declare({ path: '/residents', area: 'members', list: 'data_pagination' }),
  'resident-roles': declare({ path: '/resident-roles', area: 'members', list: 'data_pagination', one: 'list_id' }),
  vehicles: declare({ path: '/vehicles', area: 'members', list: 'data.data' }),
  bills: declare({ path: '/bills', area: 'members', list: 'data_pagination', one: 'none' }),
  articles: declare({ path: '/articles', area: 'articles', list: 'main_data', updateMethod: 'POST' }),
  announcements: declare({ path: '/announcements', area: 'announcements', list: 'data_pagination' }),
  events: declare({ path: '/events', area: 'events', list: 'data_pagination' }),
  advertisements: declare({ path: '/advertisement', area: 'advertisements', list: 'main_data', encoding: 'multipart' }),
  documents: declare({ path: '/documents', area: 'documents', list: 'main_data', encoding: 'multipart' }),
  contacts: declare({ path: '/contacts', area: 'contacts', list: 'data_pagination' }),
  contacts_groups: declare({ path: '/contacts_groups', area: 'contacts', list: 'data_pagination', updateMethod: 'POST', encoding: 'multipart' }),
  contacts_section: declare({ path: '/contacts_section', area: 'contacts', list: 'data_pagination', encoding: 'multipart' }),
  discounts: declare({ path: '/discounts', area: 'discounts', list: 'data_pagination' }),
  cameras: declare({ path: '/cameras', area: 'cameras', list: 'data_pagination' }),
  voting: declare({ path: '/voting', area: 'votings', list: 'main_data' }),
  'service-requests': declare({ path: '/service_request', area: 'service_requests', list: 'main_data' }),
  interview: declare({ path: '/interview', area: 'interviews', list: 'main_data' }),
} satisfies Record<string, ResourceDeclaration>;

export type ResourceName = keyof typeof RESOURCES;
