import { and, asc, gt } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { exportFields, type EntityDeclaration, type FieldDeclaration } from '../../contract/entity.ts';
import { requirePermission } from '../lib/auth.ts';
import { EXPORT_FORMATS, sendExport, type ExportColumn } from '../lib/export.ts';
import { plainText } from '../lib/html.ts';
import type { EntityCrud } from './base.ts';
import type { CrudTable, ListQuery, Row } from './types.ts';
import { entityListQuery } from './wire.ts';

const dateOf = (iso: string) => iso.slice(0, 10).split('-').reverse().join('.');
const kyivTime = new Intl.DateTimeFormat('uk-UA', {
  timeZone: 'Europe/Kyiv',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

/** An export cell as a Ukrainian reader expects it: DD.MM.YYYY dates, Kyiv time, option labels, так/ні. */
export function exportCell(field: FieldDeclaration, value: unknown): string | number | null {
  if (value === null || value === undefined || value === '') return null;
  switch (field.type) {
    case 'number':
      return typeof value === 'number' ? value : Number(value);
    case 'boolean':
      return value ? 'так' : 'ні';
    case 'date':
      return dateOf(String(value));
    case 'datetime':
      return kyivTime.format(new Date(String(value))).replace(',', '');
    case 'tags':
      return (value as { name: string }[]).map((t) => t.name).join(', ') || null;
    case 'enum':
      return field.optionLabels?.[String(value)] ?? String(value);
    case 'richtext':
      return plainText(String(value)) || null;
    default:
      // A list of records (an audience's complexes): their shown field, comma-separated.
      if (Array.isArray(value))
        return value.map((v) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[field.optionText ?? 'name'] : v)).join(', ') || null;
      // One record ({ id, name }: a request's performer): its shown field.
      if (typeof value === 'object') return String((value as Record<string, unknown>)[field.optionText ?? 'name'] ?? '') || null;
      return typeof value === 'number' ? value : String(value);
  }
}

/** The export's columns: the declaration's export fields with their Ukrainian labels. */
export function exportColumns<Rec>(e: EntityDeclaration, cells: Record<string, (record: Rec) => string | number | null> = {}): ExportColumn<Rec>[] {
  return [
    { header: 'ID', value: (r) => (r as { id: number }).id, width: 8 },
    ...exportFields(e).map(([key, field]) => ({
      header: field.label,
      // A field with a display of its own exports what the list shows (a reference: its record's name, not its id).
      value: (r: Rec) =>
        cells[key] ? cells[key](r) : exportCell(field.display ? { ...field, type: 'text' } : field, (r as Record<string, unknown>)[field.display ?? key]),
      width: field.wide ? 60 : field.type === 'date' ? 12 : field.type === 'datetime' ? 17 : 24,
    })),
  ];
}

/** GET <path>/export: the list's filters and search, every row, streamed as CSV or XLSX in the order rows were added. */
export function exportRoute<T extends CrudTable, Input, Rec>(crud: EntityCrud<T, Input, Rec>) {
  const { app, db, e, impl, table, tags, query } = crud;
  const exportQuery = entityListQuery(e, impl.query)
    .omit({ page: true, per_page: true })
    .extend({ format: z.enum(EXPORT_FORMATS, { error: 'Формат: csv або xlsx.' }).default('csv') });
  app.get(
    `${e.path}/export`,
    {
      preValidation: requirePermission(e.area, 'view'),
      schema: {
        tags,
        summary: `${e.exportName}: експорт (CSV або XLSX)`,
        description: 'Ті самі фільтри й пошук, що й у списку; усі рядки без обмеження, потоком, у порядку додавання.',
        querystring: exportQuery,
      },
    },
    async (request, reply) => {
      const q = { ...(request.query as object), page: 1, per_page: app.rowsPerStatement } as ListQuery;
      const w = await query.where(db, request.user, q);
      const ctx = crud.ctxOf(request.user);
      const batch = app.rowsPerStatement;
      async function* batches() {
        let after = 0;
        for (;;) {
          const rows = (await db
            .select()
            .from(table as PgTable)
            .where(and(w, gt(table.id, after)))
            .orderBy(asc(table.id))
            .limit(batch)) as Row<typeof table>[];
          if (rows.length === 0) return;
          yield await impl.toRecords(ctx, rows);
          after = (rows[rows.length - 1] as { id: number }).id;
          if (rows.length < batch) return;
        }
      }
      return sendExport<Rec>(reply, {
        format: (request.query as { format: 'csv' | 'xlsx' }).format,
        filename: `${e.exportFile ?? e.exportName}-${new Date().toISOString().slice(0, 10)}`,
        sheet: e.exportName,
        asciiFilename: `${e.exportFile ?? e.name}-${new Date().toISOString().slice(0, 10)}`,
        columns: exportColumns<Rec>(e, impl.exportCells),
        batches: batches(),
        onError: (err) => request.log.error({ err }, `${e.name} export failed`),
      });
    },
  );
}
