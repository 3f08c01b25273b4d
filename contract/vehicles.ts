import { defineEntity } from './entity.ts';
import { vehicleInput, vehicleRecord } from './members.ts';

/** Samples' plates differ even for the same unique word. */
let plates = 0;

/** Residents' vehicles (a member's «Транспорт» tab), scoped like their owners. */
export const vehicleEntity = defineEntity({
  name: 'vehicles',
  path: '/vehicles',
  area: 'members',
  list: 'data.data',
  input: vehicleInput,
  record: vehicleRecord,
  fields: {
    plate: { type: 'text', label: 'Номерний знак', required: true, max: 20, sortable: true, pattern: '[A-Z0-9А-ЯҐЄІЇ]{2,12}', hint: true },
    member_id: { type: 'reference', label: 'Власник', required: true, reference: 'members', optionText: 'name', list: false, export: false },
    member_name: { type: 'text', label: 'Власник', input: false },
    brand: { type: 'text', label: 'Марка', max: 60 },
    model: { type: 'text', label: 'Модель', max: 60 },
    color: { type: 'text', label: 'Колір', max: 40 },
    realty_id: { type: 'reference', label: 'Паркомісце', reference: 'realty', optionText: 'number', list: false, export: false },
    parking: { type: 'text', label: 'Паркомісце', input: false },
    created_at: { type: 'datetime', label: 'Додано', input: false, list: false, sortable: true, export: true },
  },
  search: ['plate', 'brand', 'model', 'member_name'],
  filters: [
    { source: 'member_id', type: 'reference', reference: 'members', optionText: 'name' },
    { source: 'realty_id', type: 'reference', reference: 'realty', optionText: 'number' },
  ],
  sort: { field: 'plate', order: 'asc' },
  scope: 'complex',
  messages: {
    notFound: 'Транспортний засіб не знайдено.',
    deleted: 'Транспортний засіб видалено.',
    inUse: 'Транспортний засіб не можна видалити: на нього посилаються інші записи.',
  },
  exportName: 'Транспорт',
  sampleRefs: ['members'],
  sample: ({ unique, refs }) => ({
    member_id: refs!.members,
    realty_id: null,
    plate: `${unique
      .replace(/[^0-9a-z]/gi, '')
      .slice(-8)
      .toUpperCase()}${(plates = (plates + 1) % 10000)}`.padStart(4, 'A'),
    brand: 'Škoda',
    model: `Octavia ${unique}`,
    color: 'сірий',
  }),
});
