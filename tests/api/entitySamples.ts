import { ALL_RESOURCES, ENTITIES } from '../../contract/entities.ts';
import type { EntityDeclaration } from '../../contract/entity.ts';
import { itemAdapters, listAdapters } from '../../src/dataProvider/shapes.ts';
import { API, uid, type TestApp } from './helpers.ts';
import { multipartBody, type FormValue } from './multipart.ts';

/**
 * A declared entity's body as the SPA sends it: JSON, or for `encoding: 'multipart'` a form
 * (src/dataProvider toFormData: arrays as `name[]`, booleans as 1/0, nothing for null; files as
 * they are). A nested object, which a form cannot carry, travels as its JSON text.
 */
export function formFields(body: unknown): Record<string, FormValue | FormValue[]> {
  const fields: Record<string, FormValue | FormValue[]> = {};
  for (const [key, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) fields[`${key}[]`] = value as FormValue[];
    else if (typeof value === 'object' && !(value as { file?: unknown }).file) fields[key] = JSON.stringify(value);
    else fields[key] = value as FormValue;
  }
  return fields;
}

/** The call options that carry `body` for entity `e`. */
export async function entityBody(e: Pick<EntityDeclaration, 'encoding'>, body: unknown): Promise<{ body: unknown } | { raw: Buffer; contentType: string }> {
  return e.encoding === 'multipart' ? multipartBody(formFields(body)) : { body };
}

/**
 * `refs` for samples (contract/entity.ts SampleContext): a record of each resource that is not
 * declared but that samples name (`sampleRefs`, e.g. members), found in the complex through its
 * list; then one record of every declared entity in the given complex, created in ENTITIES order
 * from their own samples. `label` starts their unique words (the security suite's side names).
 */
export async function sampleRefs(t: TestApp, token: string, side: { houseId: number; complexId: number }, label = ''): Promise<Record<string, number>> {
  const refs: Record<string, number> = {};
  for (const name of new Set((ENTITIES as readonly EntityDeclaration[]).flatMap((e) => e.sampleRefs ?? []))) {
    const r = ALL_RESOURCES[name];
    const res = await t.call('GET', `${API}${r.path}?complex_id=${side.complexId}&per_page=1`, { token });
    const [first] = res.statusCode === 200 ? listAdapters[r.list]<{ id: number }>(res.json()).data : [];
    if (!first) throw new Error(`${name}: no record in complex ${side.complexId} for samples (${res.statusCode})`);
    refs[name] = Number(first.id);
  }
  for (const e of ENTITIES as readonly EntityDeclaration[]) {
    // The label names the side; organization-wide records belong to no side, so they do not carry it.
    const unique = `${e.scope === 'organization' ? '' : label}${uid()}`;
    const res = await t.call('POST', `${API}${e.path}`, { token, ...(await entityBody(e, e.sample({ ...side, unique, refs }))) });
    if (res.statusCode !== 200) throw new Error(`${e.name} sample: ${res.statusCode} ${res.body}`);
    refs[e.name] = Number(itemAdapters[e.create]<{ id: number }>(res.json()).id);
  }
  return refs;
}
