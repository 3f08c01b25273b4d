import type { ItemShape, ListShape } from '../../contract/resources';

interface Paginated<T> {
  data: T[];
  total: number;
  /** `estimatedTotal`: the API estimated the total (very many rows match); screens show it as «≈». */
  meta?: { estimatedTotal: true };
}

type Json = Record<string, any>;

/** The list's data and total, plus the estimate flag when the API's pagination carries one. */
function paginated<T>(data: T[] | undefined, pagination: Json | undefined): Paginated<T> {
  return { data: data ?? [], total: pagination?.total ?? 0, ...(pagination?.estimated === true ? { meta: { estimatedTotal: true as const } } : {}) };
}

/** One adapter per list shape of the contract. */
export const listAdapters: Record<ListShape, <T>(json: Json) => Paginated<T>> = {
  main_data: (json) => paginated(json.main_data?.data, json.main_data),
  data_pagination: (json) => paginated(json.data, json.pagination),
  'data.data': (json) => paginated(json.data?.data, json.data),
  data_list: (json) => ({ data: json.data ?? [], total: json.data?.length ?? 0 }),
};

/** How a list's total reads in the pagination: «≈ 1 234 567» when the API estimated it. */
export function totalLabel(total: number, meta: unknown): string {
  const estimated = (meta as { estimatedTotal?: boolean } | undefined)?.estimatedTotal === true;
  return estimated ? `≈ ${total.toLocaleString('uk-UA')}` : String(total);
}

export const itemAdapters: Record<ItemShape, <T>(json: Json) => T> = {
  data: (json) => json.data,
  main_data: (json) => json.main_data,
  list_id: (json) => (json.data ?? []).find((r: Json) => r.id === json.id),
  none: () => {
    throw new Error('This resource has no single-record call.');
  },
};
