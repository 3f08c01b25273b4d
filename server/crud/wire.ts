import { z } from 'zod';
import { idSchema } from '../../contract/common.ts';
import { sortFields, type EntityDeclaration, type ItemShape, type ListShape } from '../../contract/entity.ts';
import { listQuery, paginationSchema, type paginate } from '../lib/pagination.ts';

/**
 * The wire shapes of a declared entity: the list's query and the wrappers its answers come in
 * (docs/architecture.md, "The contract").
 */

/** The list answer in the declared wrapper. */
export function listResponse(shape: ListShape, record: z.ZodType) {
  const page = paginationSchema.extend({ data: z.array(record) });
  if (shape === 'main_data') return z.object({ main_data: page });
  if (shape === 'data.data') return z.object({ data: page });
  if (shape === 'data_list') return z.object({ data: z.array(record) });
  return z.object({ data: z.array(record), pagination: paginationSchema });
}
export function wrapList(shape: ListShape, data: unknown[], pagination: ReturnType<typeof paginate>) {
  if (shape === 'main_data') return { main_data: { data, ...pagination } };
  if (shape === 'data.data') return { data: { data, ...pagination } };
  if (shape === 'data_list') return { data };
  return { data, pagination };
}
/**
 * A list answer whose records came as JSON text from the database: the declared wrapper written
 * around it, so that the records are neither parsed nor serialised again in Node.
 */
export function listJson(shape: ListShape, data: string, pagination: ReturnType<typeof paginate>, siblings: Record<string, unknown> | string): string {
  const pages = JSON.stringify(pagination).slice(1, -1);
  // Siblings as an object, or as the JSON text of one the database wrote.
  const keys = (typeof siblings === 'string' ? siblings : JSON.stringify(siblings)).trim().slice(1, -1).trim();
  const rest = keys ? `,${keys}` : '';
  if (shape === 'main_data') return `{"main_data":{"data":${data},${pages}}${rest}}`;
  if (shape === 'data.data') return `{"data":{"data":${data},${pages}}${rest}}`;
  return `{"data":${data},"pagination":${JSON.stringify(pagination)}${rest}}`;
}
export const itemResponse = (shape: ItemShape, record: z.ZodType) => (shape === 'main_data' ? z.object({ main_data: record }) : z.object({ data: record }));
export const wrapItem = (shape: ItemShape, record: unknown) => (shape === 'main_data' ? { main_data: record } : { data: record });

/** The query of a filter value: ids and enum values as the declaration says. */
function filterSchema(e: EntityDeclaration, source: string): z.ZodType {
  const f = e.filters.find((x) => x.source === source)!;
  const label = e.fields[source]?.label ?? source;
  if (f.type === 'reference') return idSchema.optional();
  if (f.type === 'boolean') return z.enum(['0', '1'], { error: `${label}: 0 або 1.` }).optional();
  const options = f.options ?? e.fields[source]?.options ?? [];
  return z.enum(options as [string, ...string[]], { error: `${label}: ${options.join(', ')}.` }).optional();
}

/** The list's query: pages, search, the declared sorts and filters (and complex_id for house-scoped entities). */
export function entityListQuery(e: EntityDeclaration, extra: z.ZodRawShape = {}) {
  const sorts = sortFields(e) as [string, ...string[]];
  const filters: Record<string, z.ZodType> = Object.fromEntries(e.filters.map((f) => [f.source, filterSchema(e, f.source)]));
  if (e.scope !== 'organization' && !filters.complex_id) filters.complex_id = idSchema.optional();
  return listQuery.extend({
    per_page: e.perPage ? listQuery.shape.per_page.default(e.perPage) : listQuery.shape.per_page,
    ...extra,
    sort: z.enum(sorts, { error: `Сортування можливе за: ${sorts.join(', ')}.` }).default(e.sort.field),
    order: e.sortOrders
      ? z.enum(['asc', 'desc'], { error: 'Порядок сортування: asc або desc.' }).optional()
      : z.enum(['asc', 'desc'], { error: 'Порядок сортування: asc або desc.' }).default(e.sort.order),
    ...filters,
  });
}

/** The answer of a delete, as the declaration names it. */
export const deletedAnswer = (e: EntityDeclaration) =>
  e.deleteAnswer === 'data_id' ? z.object({ data: z.object({ id: z.number() }) }) : z.object({ message: z.string() });
