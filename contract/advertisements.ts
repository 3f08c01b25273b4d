import { z } from 'zod';
import { fileInput, idSchema, text } from './common.ts';
import { defineEntity } from './entity.ts';

/** A 0/1 flag as forms send it ("0", "1", "true", "false"). */
export const formFlag = (label: string) =>
  z.enum(['0', '1', 'true', 'false'], { error: `Поле «${label}»: 0 або 1.` }).transform((v) => v === '1' || v === 'true');

/**
 * Multipart fields of POST and PUT /advertisement (the picture comes as the file `image`). A new
 * advertisement needs its house; an update keeps it when `house_id` is not sent, and a new
 * `image` file or `remove_image=1` changes the picture.
 */
export const advertisementInput = z.object({
  name: text('Назва', { min: 1, max: 200 }),
  desc: text('Опис', { max: 5000 }).default(''),
  house_id: idSchema.optional(),
  image: fileInput('Зображення'),
  published: formFlag('Опубліковано').optional(),
  remove_image: formFlag('Прибрати зображення').optional(),
});
export type AdvertisementInput = z.infer<typeof advertisementInput>;

/** POST /advertisement/{id}: only the published switch. */
export const advertisementPublish = z.object({ published: formFlag('Опубліковано') });
/** The list's bulk change (JSON): publish or hide the selected advertisements. */
export const advertisementBulkInput = z.object({
  published: z.union([z.boolean(), z.literal(0), z.literal(1)], { error: 'Поле «Опубліковано»: так або ні (1 або 0).' }),
});

export const advertisementRecord = z.object({
  id: z.number(),
  name: z.string(),
  desc: z.string(),
  house_id: z.number(),
  address: z.string(),
  complex_id: z.number().nullable(),
  image_id: z.number().nullable(),
  /** The authorised route of the picture, or null. */
  image: z.string().nullable(),
  published: z.union([z.literal(0), z.literal(1)]),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Advertisement = z.infer<typeof advertisementRecord>;

/** A 1×1 PNG: the picture of sample advertisements. */
const SAMPLE_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** Residents' advertisements (the legacy «Ads») of a house, with a picture and a published switch. */
export const advertisementEntity = defineEntity({
  name: 'advertisements',
  path: '/advertisement',
  area: 'advertisements',
  list: 'main_data',
  encoding: 'multipart',
  input: advertisementInput,
  bulkInput: advertisementBulkInput,
  record: advertisementRecord,
  fields: {
    name: { type: 'text', label: 'Назва', required: true, max: 200, sortable: true },
    desc: { type: 'multiline', label: 'Опис', max: 5000, list: false, export: true, wide: true },
    // Required for a new advertisement (the server says so); an update may leave it out.
    house_id: { type: 'reference', label: 'Будинок', reference: 'houses', optionText: 'address', display: 'address', export: false },
    address: { type: 'text', label: 'Адреса', input: false, list: false, export: true },
    image: { type: 'file', label: 'Зображення', accept: 'image', list: false, export: false },
    published: { type: 'boolean', label: 'Опубліковано', sortable: true, input: false },
    created_at: { type: 'datetime', label: 'Додано', input: false, sortable: true },
  },
  search: ['name', 'desc'],
  filters: [
    { source: 'published', type: 'boolean' },
    { source: 'house_id', type: 'reference', reference: 'houses', optionText: 'address' },
  ],
  sort: { field: 'created_at', order: 'desc' },
  scope: 'house',
  form: 'page',
  messages: {
    notFound: 'Оголошення мешканця не знайдено.',
    deleted: 'Оголошення видалено.',
    inUse: 'Оголошення не можна видалити: на нього посилаються інші записи.',
  },
  exportName: 'Оголошення мешканців',
  sample: ({ houseId, unique }) => ({
    name: `Продам велосипед ${unique}`,
    desc: 'Майже новий, 26 дюймів.',
    house_id: houseId,
    image: { file: Uint8Array.from(atob(SAMPLE_PNG), (c) => c.charCodeAt(0)), name: 'велосипед.png', type: 'image/png' },
  }),
});
