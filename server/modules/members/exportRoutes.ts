import { and, asc, gt, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Member } from '../../../contract/members.ts';
import { members } from '../../db/schema.ts';
import { requirePermission, type CurrentUser } from '../../lib/auth.ts';
import { EXPORT_FORMATS, sendExport, type ExportColumn } from '../../lib/export.ts';
import { memberFilters, membersWhere } from './filters.ts';
import { toMemberRecords } from './records.ts';

const EXPORT_BATCH = 1000;

const STATUS: Record<Member['status'], string> = { active: 'Активний', inactive: 'Неактивний' };

const COLUMNS: ExportColumn<Member>[] = [
  { header: 'ID', value: (m) => m.id, width: 10 },
  { header: "Прізвище, ім'я, по батькові", value: (m) => m.name, width: 36 },
  { header: 'Телефон', value: (m) => m.phone, width: 16 },
  { header: 'E-mail', value: (m) => m.email, width: 30 },
  { header: 'Статус', value: (m) => STATUS[m.status], width: 12 },
  {
    header: 'Приміщення',
    value: (m) => m.units.map((u) => `${u.address}, № ${u.number} (${u.role}${u.ownership_share ? `, ${u.ownership_share}` : ''})`).join('; '),
    width: 60,
  },
  { header: 'Транспорт', value: (m) => m.vehicles_count, width: 10 },
  { header: 'Примітка', value: (m) => m.note, width: 30 },
  { header: 'Додано', value: (m) => m.created_at.slice(0, 10).split('-').reverse().join('.'), width: 12 },
];

const exportQuery = memberFilters.extend({
  format: z.enum(EXPORT_FORMATS, { error: 'Формат: csv або xlsx.' }).default('csv'),
});

export const memberExportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  /** The filtered members in id order, a batch at a time (keyset: no offset to grow with the file). */
  async function* batches(user: CurrentUser, where: SQL) {
    let after = 0;
    for (;;) {
      const rows = await db
        .select()
        .from(members)
        .where(and(where, gt(members.id, after)))
        .orderBy(asc(members.id))
        .limit(EXPORT_BATCH);
      if (rows.length === 0) return;
      yield await toMemberRecords(db, user, rows);
      after = rows[rows.length - 1].id;
      if (rows.length < EXPORT_BATCH) return;
    }
  }

  app.get(
    '/members/export',
    {
      preHandler: requirePermission('members', 'view'),
      schema: {
        tags: ['members'],
        summary: 'Експорт мешканців (CSV або XLSX)',
        description: 'Ті самі фільтри, що й у списку (complex_id, house_ids[], status, search_query); усі рядки без обмеження, потоком, у порядку додавання.',
        querystring: exportQuery,
      },
    },
    async (request, reply) => {
      const where = await membersWhere(db, request.user, request.query);
      const today = new Date().toISOString().slice(0, 10);
      return sendExport(reply, {
        format: request.query.format,
        filename: `members-${today}`,
        sheet: 'Мешканці',
        columns: COLUMNS,
        batches: batches(request.user, where),
        onError: (err) => request.log.error({ err }, 'members export failed'),
      });
    },
  );
};
