import type { ItemShape, ListShape } from '../../contract/resources';

interface Paginated<T> {
  data: T[];
  total: number;
}

type Json = Record<string, any>;

/** One adapter per list shape of the contract. */
export const listAdapters: Record<ListShape, <T>(json: Json) => Paginated<T>> = {
  main_data: (json) => ({ data: json.main_data?.data ?? [], total: json.main_data?.total ?? 0 }),
  data_pagination: (json) => ({ data: json.data ?? [], total: json.pagination?.total ?? 0 }),
  'data.data': (json) => ({ data: json.data?.data ?? [], total: json.data?.total ?? 0 }),
  data_list: (json) => ({ data: json.data ?? [], total: json.data?.length ?? 0 }),
};

export const itemAdapters: Record<ItemShape, <T>(json: Json) => T> = {
  data: (json) => json.data,
  main_data: (json) => json.main_data,
  list_id: (json) => (json.data ?? []).find((r: Json) => r.id === json.id),
};
