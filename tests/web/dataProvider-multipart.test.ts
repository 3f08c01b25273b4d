import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../src/authStorage';
import { createDataProvider, toFormData } from '../../src/dataProvider';

const fakeFetch = (body: unknown) => vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => new Response(JSON.stringify(body), { status: 200 }));

describe('multipart resources', () => {
  beforeEach(() => saveSession('tok', 3600));
  afterEach(() => localStorage.clear());

  it('toFormData: files as files, arrays as name[], booleans as 1/0, empty and nested values left out', () => {
    const file = new File(['x'], 'Протокол.pdf', { type: 'application/pdf' });
    const form = toFormData({
      name: 'Протокол',
      file,
      houseIds: [3, 4],
      is_public: true,
      published: false,
      note: null,
      nested: { a: 1 },
      image: { rawFile: file },
    });
    expect(form.get('name')).toBe('Протокол');
    expect((form.get('file') as File).name).toBe('Протокол.pdf');
    expect((form.get('image') as File).name).toBe('Протокол.pdf');
    expect(form.getAll('houseIds[]')).toEqual(['3', '4']);
    expect(form.get('is_public')).toBe('1');
    expect(form.get('published')).toBe('0');
    expect(form.has('note')).toBe(false);
    expect(form.has('nested')).toBe(false);
  });

  it('advertisements are created with POST and updated with PUT as multipart; the switch POSTs published', async () => {
    const f = fakeFetch({ data: { id: 5, name: 'Продам велосипед', published: 1 } });
    const dp = createDataProvider(f as unknown as typeof fetch);
    await dp.create('advertisements', { data: { name: 'Продам велосипед', desc: '', house_id: 2 } });
    await dp.update('advertisements', { id: 5, data: { name: 'Продам', desc: 'x' }, previousData: { id: 5 } });
    const toggled = await dp.setAdvertisementPublished(5, true);
    const [createUrl, createInit] = f.mock.calls[0];
    expect(String(createUrl)).toBe('/api/admin/advertisement');
    expect(createInit?.method).toBe('POST');
    expect(createInit?.body).toBeInstanceOf(FormData);
    expect((createInit?.headers as Record<string, string>)['Content-Type']).toBeUndefined();
    expect(f.mock.calls[1][1]?.method).toBe('PUT');
    expect(String(f.mock.calls[1][0])).toBe('/api/admin/advertisement/5');
    const [toggleUrl, toggleInit] = f.mock.calls[2];
    expect(String(toggleUrl)).toBe('/api/admin/advertisement/5');
    expect(toggleInit?.method).toBe('POST');
    expect((toggleInit?.body as FormData).get('published')).toBe('1');
    expect(toggled.data).toMatchObject({ id: 5, published: 1 });
  });

  it('news stays JSON and is updated with POST /articles/{id}', async () => {
    const f = fakeFetch({ data: { id: 7 } });
    const dp = createDataProvider(f as unknown as typeof fetch);
    await dp.update('articles', { id: 7, data: { title: 'Т' }, previousData: { id: 7 } });
    const [url, init] = f.mock.calls[0];
    expect(String(url)).toBe('/api/admin/articles/7');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe(JSON.stringify({ title: 'Т' }));
  });
});
