import { z } from 'zod';
import { idSchema, text } from './common.ts';
import { defineEntity } from './entity.ts';

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/** A camera address: `schemes` decide what is accepted (streams may be RTSP; snapshots are web images). */
const cameraUrl = (label: string, schemes: string[]) =>
  z
    .string({ error: `Поле «${label}» має бути текстом.` })
    .trim()
    .max(1000, `Поле «${label}» задовге.`)
    .refine(
      (v) => {
        try {
          const u = new URL(v);
          return schemes.includes(u.protocol) && u.hostname.length > 0;
        } catch {
          return false;
        }
      },
      `Поле «${label}»: адреса має починатися з ${schemes.map((s) => `${s}//`).join(' або ')}.`,
    );

export const cameraInput = z
  .object({
    house_id: idSchema,
    name: text('Назва', { min: 1, max: 150 }),
    place: text('Розташування', { max: 300 }).default(''),
    stream_url: z.preprocess(emptyToNull, cameraUrl('Адреса трансляції', ['rtsp:', 'rtsps:', 'https:', 'http:']).nullable()).default(null),
    snapshot_url: z.preprocess(emptyToNull, cameraUrl('Адреса знімка', ['https:', 'http:']).nullable()).default(null),
  })
  .refine((v) => v.stream_url !== null || v.snapshot_url !== null, { message: 'Вкажіть адресу трансляції або знімка.', path: ['stream_url'] });
export type CameraInput = z.infer<typeof cameraInput>;

export const cameraRecord = z.object({
  id: z.number(),
  house_id: z.number(),
  address: z.string(),
  complex_id: z.number().nullable(),
  name: z.string(),
  place: z.string(),
  stream_url: z.string().nullable(),
  snapshot_url: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Camera = z.infer<typeof cameraRecord>;

/** Security cameras of houses (the legacy area's «Security-cameras»), scoped like their houses. */
export const cameraEntity = defineEntity({
  name: 'cameras',
  path: '/cameras',
  area: 'cameras',
  list: 'data_pagination',
  input: cameraInput,
  record: cameraRecord,
  fields: {
    name: { type: 'text', label: 'Назва', required: true, max: 150, sortable: true },
    house_id: { type: 'reference', label: 'Будинок', required: true, reference: 'houses', optionText: 'address', list: false, export: false },
    address: { type: 'text', label: 'Адреса', input: false },
    place: { type: 'text', label: 'Розташування', max: 300 },
    stream_url: { type: 'url', label: 'Адреса трансляції', max: 1000, hint: 'rtsp://… або https://… (необов’язково, якщо є знімок)' },
    snapshot_url: { type: 'url', label: 'Адреса знімка', max: 1000, hint: 'https://… — адреса зображення з камери' },
    created_at: { type: 'datetime', label: 'Додано', input: false, list: false, sortable: true, export: true },
  },
  search: ['name', 'place'],
  filters: [{ source: 'house_id', type: 'reference', reference: 'houses', optionText: 'address' }],
  sort: { field: 'name', order: 'asc' },
  scope: 'house',
  messages: { notFound: 'Камеру не знайдено.', deleted: 'Камеру видалено.', inUse: 'Камеру не можна видалити: на неї посилаються інші записи.' },
  exportName: 'Камери',
  texts: {
    name: 'Камера |||| Камери |||| Камер',
    title: 'Камери спостереження',
    create_title: 'Нова камера',
    edit_title: 'Редагування камери',
    empty: 'Камер ще не додано.',
    created: 'Камеру додано',
  },
  screen: { path: '/dashboard_old/Security-cameras', recordRepresentation: 'name', legacy: ['Security-cameras'] },
  sample: ({ houseId, unique }) => ({
    house_id: houseId,
    name: `Камера ${unique}`,
    place: 'Над входом',
    stream_url: 'rtsp://10.0.0.5:554/stream1',
    snapshot_url: null,
  }),
});
