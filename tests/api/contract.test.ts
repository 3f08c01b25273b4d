import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_RESOURCES } from '../../contract/entities.ts';
import { API, setupApp, type TestApp } from './helpers.ts';

/**
 * The resource table the SPA's data provider reads (contract/resources.ts) against the routes the
 * API documents: every call the provider can make for a resource exists on the server.
 */
let t: TestApp;
let paths: Record<string, Record<string, unknown>>;

beforeAll(async () => {
  t = await setupApp();
  paths = (await t.call('GET', `${API}/openapi.json`)).json().paths;
});
afterAll(() => t?.close());

/** The documented methods of a path, whatever its parameter is called (`{id}`, `{votingId}`). */
function methods(path: string): string[] {
  const shape = (p: string) => p.replace(/\{\w+\}/g, '{}');
  return Object.entries(paths)
    .filter(([p]) => shape(p) === shape(path))
    .flatMap(([, ops]) => Object.keys(ops).map((m) => m.toUpperCase()));
}

describe.each(Object.entries(ALL_RESOURCES))('%s', (_name, decl) => {
  it('has its list on the server', () => {
    expect(methods(`${API}${decl.path}`)).toContain('GET');
  });

  it('has a single-record read on the server, or reads the record out of the list', () => {
    if (decl.one === 'list_id' || decl.one === 'none') return;
    expect(methods(`${API}${decl.path}/{id}`), `GET ${decl.path}/{id}`).toContain('GET');
  });
});
