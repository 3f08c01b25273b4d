import { HttpError, type DataProvider, type GetListParams, type Identifier, type RaRecord } from 'react-admin';
import type { EntityDeclaration } from '../../contract/entity';
import { RESOURCES, type ResourceDeclaration } from '../../contract/resources';
import { bulkError, bulkOutcome, eachId } from './bulk';
import { apiFetch, type Query } from './http';
import { itemAdapters, listAdapters } from './shapes';

/**
 * A resource's API calls: the plain table first; declared entities come with their schemas in a
 * chunk of their own, loaded on the first call to one of them (not with the sign-in page).
 */
export async function declaration(resource: string): Promise<ResourceDeclaration> {
  const decl = (RESOURCES as Record<string, ResourceDeclaration>)[resource] ?? (await import('../../contract/entities')).findEntity(resource);
  if (!decl) throw new Error(`Unknown resource: ${resource}`);
  return decl;
}

/** react-admin list params → the contract's query: page, per_page, search_query, sort, order, filters. */
export function listQuery(params: Partial<GetListParams>): Query {
  const { q, ...filters } = (params.filter ?? {}) as Record<string, unknown>;
  return {
    page: params.pagination?.page ?? 1,
    per_page: params.pagination?.perPage,
    search_query: typeof q === 'string' ? q.trim() : undefined,
    sort: params.sort?.field,
    order: params.sort?.order ? params.sort.order.toLowerCase() : undefined,
    ...filters,
  };
}

/** A select's option object ({ value, label }) sends its value (docs/architecture.md, "Bodies: JSON and multipart": a resident's role_id). */
export function optionValues(data: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  const out = { ...data };
  for (const f of fields) {
    const v = out[f];
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && 'value' in v) out[f] = (v as { value: unknown }).value;
  }
  return out;
}

/** What a resource's record becomes before it is sent. */

const BEFORE_SAVE: Record<string, (data: Record<string, unknown>) => Record<string, unknown>> = {
  residents: (d) => optionValues(d, ['role_id']),
  members: (d) => optionValues(d, ['role_id']),
};
const toBody = (resource: string, data: unknown): Record<string, unknown> => {
  const record = data as Record<string, unknown>;
  return BEFORE_SAVE[resource] ? BEFORE_SAVE[resource](record) : record;
};
/**
 * A record as a multipart form: files (or react-admin's `{ rawFile }`) as files, arrays as
 * `name[]`, booleans as 1/0; empty values and nested objects are left out.
 */
export function toFormData(data: Record<string, unknown>): FormData {
  const form = new FormData();
  const append = (key: string, value: unknown) => {
    if (value === undefined || value === null) return;
    if (value instanceof Blob) form.append(key, value, value instanceof File ? value.name : 'file');
    else if (typeof value === 'object' && (value as { rawFile?: unknown }).rawFile instanceof File) append(key, (value as { rawFile: File }).rawFile);
    else if (typeof value === 'boolean') form.append(key, value ? '1' : '0');
    else if (typeof value !== 'object') form.append(key, String(value));
  };
  for (const [key, value] of Object.entries(data)) {
    if (Array.isArray(value)) value.forEach((v) => append(`${key}[]`, v));
    else append(key, value);
  }
  return form;
}

/**
 * Optimistic concurrency: an edit names the version of the record it started from (its
 * `updated_at` as read), and the API refuses it with 409 when someone else changed the record
 * meanwhile; react-admin then shows the API's message as the error notification.
 */
export function versionHeaders(previousData: unknown): Record<string, string> | undefined {
  const version = (previousData as { updated_at?: unknown } | undefined)?.updated_at;
  return typeof version === 'string' && version ? { 'If-Match': `"${version}"` } : undefined;
}

const bodyFor = (decl: ResourceDeclaration, data: Record<string, unknown>) => (decl.encoding === 'multipart' ? toFormData(data) : data);

/** Maps every react-admin call onto the /api/admin calls and response shapes of RESOURCES. */
/** Calls beyond CRUD, used through `useDataProvider<AppDataProvider>()`. */
export interface AppDataProvider extends DataProvider {
  /** POST /advertisement/{id} multipart `published` 0/1: the list's published switch. */
  setAdvertisementPublished(id: Identifier, published: boolean): Promise<{ data: RaRecord }>;
}

export function createDataProvider(fetchImpl: typeof fetch = (...args) => fetch(...args)): AppDataProvider {
  const call = <T>(path: string, opts?: Parameters<typeof apiFetch>[1]) => apiFetch<T>(path, opts, fetchImpl);

  const getOne = async (resource: string, id: unknown, signal?: AbortSignal) => {
    const decl = await declaration(resource);
    if (decl.one === 'list_id') {
      // These calls have no single-record read: the record is picked out of the whole list.
      const json = await call<Record<string, unknown>>(decl.path, { signal });
      const record = itemAdapters.list_id<any>({ ...json, id: Number(id) });
      if (!record) throw new HttpError('app.errors.not_found', 404);
      return record;
    }
    if (decl.one === 'none') throw new HttpError('app.errors.not_found', 404);
    const json = await call<Record<string, unknown>>(`${decl.path}/${encodeURIComponent(String(id))}`, { signal });
    return itemAdapters[decl.one]<any>(json);
  };

  return {
    async getList(resource, params) {
      const decl = await declaration(resource);
      const json = await call<Record<string, unknown>>(decl.path, { query: listQuery(params), signal: params.signal });
      return listAdapters[decl.list](json);
    },
    async getOne(resource, params) {
      return { data: await getOne(resource, params.id, params.signal) };
    },
    async getMany(resource, params) {
      const decl = await declaration(resource);
      if (decl.one === 'list_id') {
        // One read of the whole list serves every id.
        const json = await call<Record<string, unknown>>(decl.path, { signal: params.signal });
        const wanted = new Set(params.ids.map(Number));
        return { data: listAdapters[decl.list]<RaRecord>(json).data.filter((r) => wanted.has(Number(r.id))) };
      }
      const data = await Promise.all(params.ids.map((id) => getOne(resource, id, params.signal)));
      return { data };
    },
    async getManyReference(resource, params) {
      const decl = await declaration(resource);
      const query = { ...listQuery(params), [params.target]: params.id };
      const json = await call<Record<string, unknown>>(decl.path, { query, signal: params.signal });
      return listAdapters[decl.list](json);
    },
    async create(resource, params) {
      const decl = await declaration(resource);
      const json = await call<Record<string, unknown>>(decl.path, { method: 'POST', body: bodyFor(decl, toBody(resource, params.data)) });
      return { data: itemAdapters[decl.create]<any>(json) };
    },
    async update(resource, params) {
      const decl = await declaration(resource);
      const json = await call<Record<string, unknown>>(`${decl.path}/${encodeURIComponent(String(params.id))}`, {
        method: decl.updateMethod,
        body: bodyFor(decl, toBody(resource, params.data)),
        headers: versionHeaders(params.previousData),
      });
      return { data: itemAdapters[decl.update]<any>(json) };
    },
    /**
     * A resource with bulk changes (its declaration's `bulkInput`): one PATCH of its path with the
     * ids and those fields; otherwise one update per id. Rows that were not changed come back as a
     * BulkRefusalError naming each with the API's reason; the others have changed.
     */
    async updateMany(resource, params) {
      const decl = await declaration(resource);
      const bulk = (decl as Partial<EntityDeclaration>).bulkInput;
      if (bulk) {
        const fields = Object.keys(bulk.shape);
        const data = Object.fromEntries(Object.entries(params.data as Record<string, unknown>).filter(([k]) => fields.includes(k)));
        try {
          return { data: bulkOutcome(await call(decl.path, { method: 'PATCH', body: { ...data, ids: params.ids } })) };
        } catch (err) {
          throw bulkError(err);
        }
      }
      return { data: await eachId(params.ids, (id) => this.update(resource, { id, data: params.data, previousData: {} })) };
    },
    async delete(resource, params) {
      const decl = await declaration(resource);
      await call(`${decl.path}/${encodeURIComponent(String(params.id))}`, { method: 'DELETE' });
      return { data: params.previousData ?? ({ id: params.id } as any) };
    },
    async setAdvertisementPublished(id, published) {
      const decl = await declaration('advertisements');
      const json = await call<Record<string, unknown>>(`${decl.path}/${encodeURIComponent(String(id))}`, { method: 'POST', body: toFormData({ published }) });
      return { data: itemAdapters[decl.update]<RaRecord>(json) };
    },
    /** Each row's own DELETE (its rights and rules), a few at a time; rows refused come back as a BulkRefusalError with the reasons. */
    async deleteMany(resource, params) {
      const decl = await declaration(resource);
      return { data: await eachId(params.ids, (id) => call(`${decl.path}/${encodeURIComponent(String(id))}`, { method: 'DELETE' })) };
    },
  };
}

export const dataProvider = createDataProvider();
