import { z } from 'zod';

/** Laravel's length-aware paginator fields, as the SPA expects them. */
export interface Pagination {
  current_page: number;
  from: number;
  last_page: number;
  per_page: number;
  to: number;
  total: number;
  /** Present (true) when `total` is an estimate: more rows match than are counted exactly. */
  estimated?: true;
}

export const MAX_PER_PAGE = 1000;

/** Query parameters every list call accepts. */
export const listQuery = z.object({
  page: z.coerce.number({ error: 'Номер сторінки має бути числом.' }).int().min(1, 'Номер сторінки починається з 1.').default(1),
  per_page: z.coerce
    .number({ error: 'Кількість на сторінці має бути числом.' })
    .int()
    .min(1, 'Кількість на сторінці — від 1.')
    .max(MAX_PER_PAGE, `Кількість на сторінці — не більше ${MAX_PER_PAGE}.`)
    .default(15),
  search_query: z.string().max(200, 'Пошуковий запит задовгий.').default(''),
  sort: z.string().max(50).optional(),
  order: z.enum(['asc', 'desc'], { error: 'Порядок сортування: asc або desc.' }).default('asc'),
});
export type ListQuery = z.infer<typeof listQuery>;

/** A list's total: exact, or the planner's estimate when very many rows match (server/lib/list.ts). */
export interface ListTotal {
  total: number;
  estimated: boolean;
}

export function paginate(count: number | ListTotal, page: number, perPage: number): Pagination {
  const { total, estimated } = typeof count === 'number' ? { total: count, estimated: false } : count;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const first = (page - 1) * perPage + 1;
  // A page past the end holds nothing: from and to are 0, as for an empty list.
  const empty = total === 0 || first > total;
  return {
    current_page: page,
    from: empty ? 0 : first,
    last_page: lastPage,
    per_page: perPage,
    to: empty ? 0 : Math.min(total, page * perPage),
    total,
    ...(estimated ? { estimated: true as const } : {}),
  };
}

export const paginationSchema = z.object({
  current_page: z.number(),
  from: z.number(),
  last_page: z.number(),
  per_page: z.number(),
  to: z.number(),
  total: z.number(),
  estimated: z.literal(true).optional(),
});

/** A key or value of a query string, decoded (`+` is a space); NUL, which PostgreSQL can neither store nor compare, never means anything in a query. */
function decodePart(raw: string): string {
  const decoded = raw.includes('%') || raw.includes('+') ? decodeURIComponent(raw.replace(/\+/g, ' ')) : raw;
  return decoded.includes('\u0000') ? decoded.replaceAll('\u0000', '') : decoded;
}

/** PHP-style query strings: `a[]=1&a[]=2` → `{a: ['1','2']}`; a repeated plain key keeps the last value. */
export function parseQueryString(qs: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const part of qs.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    let key: string;
    let value: string;
    try {
      key = decodePart(eq === -1 ? part : part.slice(0, eq));
      value = eq === -1 ? '' : decodePart(part.slice(eq + 1));
    } catch {
      continue; // malformed escapes are dropped rather than failing the request
    }
    const arrayMatch = key.endsWith(']') ? /^(.+?)\[\d*\]$/.exec(key) : null;
    if (arrayMatch) {
      const name = arrayMatch[1];
      const existing = out[name];
      if (Array.isArray(existing)) existing.push(value);
      else out[name] = existing === undefined ? [value] : [existing, value];
    } else {
      out[key] = value;
    }
  }
  return out;
}
