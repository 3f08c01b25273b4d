import { z } from 'zod';
import { idList } from './audience.ts';
import { fileInput, text } from './common.ts';
import { defineEntity } from './entity.ts';
import { formFlag } from './advertisements.ts';

/** Multipart fields of POST/PUT /documents (the file comes as `file`; on PUT it is optional). */
export const documentInput = z.object({
  name: text('Назва', { min: 1, max: 200 }),
  file: fileInput('Файл'),
  complexIds: idList('Комплекси'),
  houseIds: idList('Будинки'),
  apartmentIds: idList('Квартири'),
  is_public: formFlag('Доступний мешканцям').default(false),
});
export type DocumentInput = z.infer<typeof documentInput>;

export const documentRecord = z.object({
  id: z.number(),
  name: z.string(),
  file_name: z.string(),
  mime: z.string(),
  size: z.number(),
  /** The authorised download route. */
  file_url: z.string(),
  is_public: z.boolean(),
  complexIds: z.array(z.number()),
  houseIds: z.array(z.number()),
  apartmentIds: z.array(z.number()),
  complexes: z.array(z.object({ id: z.number(), name: z.string() })),
  houses: z.array(z.object({ id: z.number(), address: z.string() })),
  apartments: z.array(z.object({ id: z.number(), house_id: z.number(), number: z.string(), address: z.string() })),
  author: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DocumentRecord = z.infer<typeof documentRecord>;

/** A one-page PDF: the file of sample documents. */
const SAMPLE_PDF = '%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n';

/**
 * Documents of the management company (a file each) for complexes, houses and apartments; staff
 * see those that touch one of their complexes and change only those wholly inside them.
 */
export const documentEntity = defineEntity({
  name: 'documents',
  path: '/documents',
  area: 'documents',
  list: 'main_data',
  encoding: 'multipart',
  input: documentInput,
  record: documentRecord,
  fields: {
    name: { type: 'text', label: 'Назва', required: true, max: 200, sortable: true },
    file: { type: 'file', label: 'Файл', required: true, accept: 'document', list: false, export: false },
    file_name: { type: 'text', label: 'Файл', input: false },
    is_public: { type: 'boolean', label: 'Доступний мешканцям' },
    complexes: { type: 'text', label: 'Комплекси', optionText: 'name', input: false, list: false, export: true },
    houses: { type: 'text', label: 'Будинки', optionText: 'address', input: false, list: false, export: true },
    apartments: { type: 'text', label: 'Квартири', optionText: 'number', input: false, list: false, export: true },
    size: { type: 'number', label: 'Розмір, байт', input: false, list: false, export: true },
    author: { type: 'text', label: 'Автор', input: false, list: false, export: true },
    created_at: { type: 'datetime', label: 'Додано', input: false, sortable: true },
  },
  search: ['name'],
  filters: [{ source: 'is_public', type: 'boolean' }],
  sort: { field: 'created_at', order: 'desc' },
  scope: 'complex',
  messages: {
    notFound: 'Документ не знайдено.',
    deleted: 'Документ видалено.',
    inUse: 'Документ не можна видалити: на нього посилаються інші записи.',
  },
  exportName: 'Документи',
  sample: ({ complexId, unique }) => ({
    name: `Кошторис ${unique}`,
    file: { file: new TextEncoder().encode(SAMPLE_PDF), name: 'кошторис.pdf', type: 'application/pdf' },
    complexIds: [complexId],
    houseIds: [],
    apartmentIds: [],
    is_public: '1' as const,
  }),
});
