import multipart from '@fastify/multipart';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../../contract/common.ts';
import type { ResidentRoleCode } from '../../../contract/members.ts';
import type { RealtyType } from '../../../contract/realty.ts';
import { addShares, parseShare, type Share } from '../../../contract/share.ts';
import { houses, members, realty, residents } from '../../db/schema.ts';
import { requirePermission, type CurrentUser } from '../../lib/auth.ts';
import { HttpError, unprocessable, isUniqueViolation } from '../../lib/errors.ts';
import { normalisePhone } from '../../lib/phone.ts';
import { createPause } from '../../lib/eventLoop.ts';
import { MAX_TABLE_BYTES, readTable, TableError, type TableRow } from '../../lib/spreadsheet.ts';
import { withWorkSlot } from '../../lib/workSlots.ts';
import { houseScope } from '../houses/records.ts';
import type { Tx } from './links.ts';
import { residentRolesOf } from './roles.ts';

/** Column names people write in their registries, lower-cased, for each field. */
const HEADERS: Record<string, string[]> = {
  number: ['номер', '№', 'номер приміщення', '№ приміщення', 'квартира', '№ квартири', 'number'],
  type: ['тип', 'тип приміщення', 'type'],
  area: ['площа', 'площа, м²', 'площа, м2', 'площа м2', 'area'],
  floor: ['поверх', 'floor'],
  name: ['піб', "прізвище, ім'я, по батькові", 'прізвище ім’я по батькові', 'мешканець', 'власник', 'name'],
  phone: ['телефон', 'тел.', 'phone'],
  email: ['e-mail', 'email', 'ел. пошта', 'електронна пошта', 'пошта'],
  role: ['роль', 'role'],
  share: ['частка', 'частка у власності', 'share'],
};

const TYPES: Record<string, RealtyType> = {
  '': 'apartment',
  квартира: 'apartment',
  apartment: 'apartment',
  паркомісце: 'parking',
  паркінг: 'parking',
  parking: 'parking',
  комора: 'storage',
  storage: 'storage',
  комерційне: 'commercial',
  'комерційне приміщення': 'commercial',
  commercial: 'commercial',
};

const ROLES: Record<string, ResidentRoleCode> = {
  '': 'owner',
  власник: 'owner',
  owner: 'owner',
  співвласник: 'co_owner',
  co_owner: 'co_owner',
  орендар: 'tenant',
  наймач: 'tenant',
  tenant: 'tenant',
  "член сім'ї": 'family',
  'член сім’ї': 'family',
  family: 'family',
};

const lower = (s: string) => s.toLowerCase().replace(/[ʼ`‘]/g, '’').replace(/’/g, "'").replace(/\s+/g, ' ').trim();

export interface ImportRow {
  line: number;
  number: string;
  type: string;
  name: string;
  phone: string | null;
  email: string | null;
  role: string;
  share: string | null;
  errors: string[];
}

interface Planned extends ImportRow {
  realtyType: RealtyType;
  area: string | null;
  floor: number | null;
  roleCode: ResidentRoleCode;
  shareValue: Share | null;
}

const importFields = z.object({
  house_id: idSchema,
  mode: z.enum(['preview', 'commit'], { error: 'Режим: preview або commit.' }).default('preview'),
  skip_invalid: z
    .enum(['0', '1', 'true', 'false'], { error: 'Поле «Пропустити рядки з помилками»: 1 або 0.' })
    .default('0')
    .transform((v) => v === '1' || v === 'true'),
});

/** Maps the header row to field → column index; 422 when the required columns are missing. */
function columnsOf(header: string[]): Record<string, number> {
  const cols: Record<string, number> = {};
  header.forEach((h, i) => {
    const name = lower(h);
    for (const [field, names] of Object.entries(HEADERS)) if (cols[field] === undefined && names.includes(name)) cols[field] = i;
  });
  const missing = [cols.number === undefined && '«Номер»', cols.name === undefined && '«ПІБ»'].filter(Boolean);
  if (missing.length) throw unprocessable({ file: [`У першому рядку файлу немає колонок ${missing.join(' і ')}.`] });
  return cols;
}

/** Reads and checks each row on its own (formats, limits, known types and roles), giving the event loop its turns. */
async function readRows(rows: TableRow[]): Promise<Planned[]> {
  const cols = columnsOf(rows[0].cells);
  const cell = (r: TableRow, field: string) => (cols[field] === undefined ? '' : (r.cells[cols[field]] ?? '').trim());
  const pause = createPause();
  const planned: Planned[] = [];
  for (const r of rows.slice(1)) {
    planned.push(readRow(r, cell));
    await pause();
  }
  return planned;
}

function readRow(r: TableRow, cell: (r: TableRow, field: string) => string): Planned {
  const errors: string[] = [];
  const number = cell(r, 'number');
  if (!number) errors.push('Немає номера приміщення.');
  else if (number.length > 20) errors.push('Номер приміщення — не довше 20 символів.');
  const typeText = lower(cell(r, 'type'));
  const realtyType = TYPES[typeText];
  if (!realtyType) errors.push(`Невідомий тип приміщення «${cell(r, 'type')}».`);
  const areaText = cell(r, 'area').replace(',', '.').replace(/\s/g, '');
  let area: string | null = null;
  if (areaText) {
    if (!/^\d{1,6}(\.\d{1,2})?$/.test(areaText) || Number(areaText) <= 0) errors.push('Площа — додатне число з двома знаками після коми.');
    else area = Number(areaText).toFixed(2);
  }
  const floorText = cell(r, 'floor');
  let floor: number | null = null;
  if (floorText) {
    if (!/^-?\d{1,3}$/.test(floorText) || Number(floorText) < -10 || Number(floorText) > 200) errors.push('Поверх — ціле число від -10 до 200.');
    else floor = Number(floorText);
  }
  const name = cell(r, 'name').replace(/\s+/g, ' ');
  if (name.length < 2) errors.push('Немає ПІБ мешканця.');
  else if (name.length > 150) errors.push('ПІБ — не довше 150 символів.');
  const phoneText = cell(r, 'phone');
  const phone = phoneText ? normalisePhone(phoneText) : null;
  if (phoneText && !phone) errors.push(`Некоректний телефон «${phoneText}».`);
  const emailText = cell(r, 'email').toLowerCase();
  const email = emailText || null;
  if (email && (email.length > 254 || !z.email().safeParse(email).success)) errors.push(`Некоректний e-mail «${emailText}».`);
  const roleText = cell(r, 'role');
  const roleCode = ROLES[lower(roleText)];
  if (!roleCode) errors.push(`Невідома роль «${roleText}»: власник, співвласник, орендар або член сім'ї.`);
  const shareText = cell(r, 'share') || null;
  let shareValue: Share | null = null;
  if (roleCode === 'owner' || roleCode === 'co_owner') {
    if (shareText) {
      shareValue = parseShare(shareText);
      if (!shareValue) errors.push(`Частка «${shareText}» — дріб від 0 до 1: 1/3, 0,5 або 50%.`);
    } else if (roleCode === 'owner') shareValue = { numerator: 1, denominator: 1 };
    else errors.push('Для співвласника вкажіть частку.');
  } else if (roleCode && shareText) errors.push('Частку мають лише власник і співвласник.');
  return {
    line: r.line,
    number,
    type: realtyType ?? typeText,
    name,
    phone,
    email,
    role: roleCode ?? roleText,
    share: shareText,
    errors,
    realtyType: realtyType ?? 'apartment',
    area,
    floor,
    roleCode: roleCode ?? 'owner',
    shareValue,
  };
}

const unitKey = (type: string, number: string) => `${type}\u0001${number.toLowerCase()}`;

/**
 * Checks the rows against the house and the organization: the same person (by phone or e-mail)
 * is one member, in the file and in the database; a person is linked to a unit once; the shares
 * of a unit, existing and new, add up to at most 1.
 */
async function checkAgainstDatabase(tx: Pick<Tx, 'select'>, organizationId: number, houseId: number, rows: Planned[]) {
  const units = await tx.select({ id: realty.id, type: realty.type, number: realty.number }).from(realty).where(eq(realty.houseId, houseId));
  const unitByKey = new Map(units.map((u) => [unitKey(u.type, u.number), u.id]));
  const links = units.length
    ? await tx
        .select({ realtyId: residents.realtyId, memberId: residents.memberId, name: members.name, n: residents.shareNumerator, d: residents.shareDenominator })
        .from(residents)
        .innerJoin(members, eq(members.id, residents.memberId))
        .where(
          inArray(
            residents.realtyId,
            units.map((u) => u.id),
          ),
        )
    : [];
  const phones = [...new Set(rows.flatMap((r) => (r.phone ? [r.phone] : [])))];
  const emails = [...new Set(rows.flatMap((r) => (r.email ? [r.email] : [])))];
  const known =
    phones.length || emails.length
      ? await tx
          .select({ id: members.id, phone: members.phone, email: members.email })
          .from(members)
          .where(
            and(
              eq(members.organizationId, organizationId),
              or(phones.length ? inArray(members.phone, phones) : undefined, emails.length ? inArray(members.email, emails) : undefined),
            ),
          )
      : [];
  const byPhone = new Map(known.flatMap((m) => (m.phone ? [[m.phone, m.id] as const] : [])));
  const byEmail = new Map(known.flatMap((m) => (m.email ? [[m.email, m.id] as const] : [])));

  // Who each row is: an existing member id, or the first row in the file for the same person.
  const personOf = new Map<Planned, string>();
  const filePerson = new Map<string, string>();
  const sharesByUnit = new Map<string, Share[]>();
  const linked = new Set<string>();
  // Without a phone or e-mail a person is known by name among the unit's residents.
  const namedOnUnit = new Set<string>();
  for (const l of links) {
    linked.add(`${l.realtyId}:m${l.memberId}`);
    namedOnUnit.add(`${l.realtyId}:${lower(l.name)}`);
    if (l.n !== null && l.d !== null)
      sharesByUnit.set(`id${l.realtyId}`, [...(sharesByUnit.get(`id${l.realtyId}`) ?? []), { numerator: l.n, denominator: l.d }]);
  }
  for (const row of rows) {
    if (row.errors.length) continue;
    const phoneId = row.phone ? byPhone.get(row.phone) : undefined;
    const emailId = row.email ? byEmail.get(row.email) : undefined;
    if (phoneId !== undefined && emailId !== undefined && phoneId !== emailId) {
      row.errors.push('Телефон і e-mail належать різним мешканцям.');
      continue;
    }
    const existing = phoneId ?? emailId;
    let person: string;
    if (existing !== undefined) person = `m${existing}`;
    else {
      const keys = [row.phone && `p:${row.phone}`, row.email && `e:${row.email}`].filter(Boolean) as string[];
      const found = keys.map((k) => filePerson.get(k)).filter(Boolean) as string[];
      if (new Set(found).size > 1) {
        row.errors.push('Телефон і e-mail належать різним людям у файлі.');
        continue;
      }
      person = found[0] ?? `line${row.line}`;
      for (const k of keys) filePerson.set(k, person);
    }
    const unitId = unitByKey.get(unitKey(row.realtyType, row.number));
    const unit = unitId === undefined ? `new:${unitKey(row.realtyType, row.number)}` : `id${unitId}`;
    const linkKey = `${unitId ?? unit}:${person}`;
    if (linked.has(linkKey) || (!row.phone && !row.email && namedOnUnit.has(`${unitId}:${lower(row.name)}`))) {
      row.errors.push("Цього мешканця вже пов'язано з цим приміщенням.");
      continue;
    }
    if (row.shareValue) {
      const taken = sharesByUnit.get(unit) ?? [];
      const sum = addShares([...taken, row.shareValue]);
      if (sum.numerator > sum.denominator) {
        row.errors.push('Сума часток власників приміщення перевищить 1.');
        continue;
      }
      sharesByUnit.set(unit, [...taken, row.shareValue]);
    }
    linked.add(linkKey);
    personOf.set(row, person);
  }
  return { unitByKey, personOf };
}

const publicRow = ({ line, number, type, name, phone, email, role, share, errors }: Planned): ImportRow => ({
  line,
  number,
  type,
  name,
  phone,
  email,
  role,
  share,
  errors,
});

export const memberImportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  await app.register(multipart, { limits: { fileSize: MAX_TABLE_BYTES, files: 1, fields: 10, fieldSize: 1000, parts: 12 } });

  async function commit(user: CurrentUser, houseId: number, rows: Planned[], skipInvalid: boolean) {
    return db.transaction(async (tx: Tx) => {
      // One import per house at a time: the checks below read what the inserts rely on.
      await tx.execute(sql`select id from houses where id = ${houseId} for update`);
      const { unitByKey, personOf } = await checkAgainstDatabase(tx, user.organizationId, houseId, rows);
      const invalid = rows.filter((r) => r.errors.length);
      if (invalid.length && !skipInvalid) return { rows, created: null };
      const good = rows.filter((r) => !r.errors.length);
      const roles = await residentRolesOf(tx, user.organizationId);
      const roleId = (code: string) => roles.find((r) => r.code === code)!.id;
      let unitsCreated = 0;
      for (const row of good) {
        const key = unitKey(row.realtyType, row.number);
        if (unitByKey.has(key)) continue;
        const [unit] = await tx
          .insert(realty)
          .values({ organizationId: user.organizationId, houseId, type: row.realtyType, number: row.number, area: row.area, floor: row.floor })
          .returning({ id: realty.id });
        unitByKey.set(key, unit.id);
        unitsCreated += 1;
      }
      const memberIds = new Map<string, number>();
      const newPeople = good.filter((r) => personOf.get(r)!.startsWith('line') && personOf.get(r) === `line${r.line}`);
      for (let i = 0; i < newPeople.length; i += 500) {
        const batch = newPeople.slice(i, i + 500);
        const created = await tx
          .insert(members)
          .values(batch.map((r) => ({ organizationId: user.organizationId, name: r.name, phone: r.phone, email: r.email })))
          .returning({ id: members.id });
        batch.forEach((r, j) => memberIds.set(`line${r.line}`, created[j].id));
      }
      const links = good.map((r) => {
        const person = personOf.get(r)!;
        return {
          organizationId: user.organizationId,
          memberId: person.startsWith('m') ? Number(person.slice(1)) : memberIds.get(person)!,
          realtyId: unitByKey.get(unitKey(r.realtyType, r.number))!,
          roleId: roleId(r.roleCode),
          shareNumerator: r.shareValue?.numerator ?? null,
          shareDenominator: r.shareValue?.denominator ?? null,
        };
      });
      for (let i = 0; i < links.length; i += 500) await tx.insert(residents).values(links.slice(i, i + 500));
      return { rows, created: { units: unitsCreated, members: newPeople.length, links: links.length } };
    });
  }

  app.post(
    '/members/import',
    {
      preHandler: requirePermission('members', 'create'),
      schema: {
        tags: ['members'],
        summary: 'Імпорт приміщень і мешканців будинку',
        description:
          'multipart: house_id, mode (preview — перевірити, commit — записати), skip_invalid (1 — пропустити рядки з помилками), file ' +
          '(CSV або XLSX до 5 МБ, до 10 000 рядків). Колонки: Номер, Тип, Площа, Поверх, ПІБ, Телефон, E-mail, Роль, Частка. Запис — ' +
          'одна транзакція: з помилками без skip_invalid не записується нічого (422 з rows).',
        consumes: ['multipart/form-data'],
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw new HttpError(415, 'Надішліть файл як multipart/form-data.');
      const fields: Record<string, string> = {};
      let file: Buffer | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'file') {
              await part.toBuffer();
              continue;
            }
            file = await part.toBuffer();
          } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        }
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, 'Файл завеликий: не більше 5 МБ.');
        if (code?.startsWith('FST_')) throw new HttpError(400, 'Некоректний запит multipart.');
        throw err;
      }
      const parsed = importFields.safeParse(fields);
      if (!parsed.success) {
        const errors: Record<string, string[]> = {};
        for (const issue of parsed.error.issues) (errors[issue.path.join('.') || '_'] ??= []).push(issue.message);
        throw unprocessable(errors);
      }
      const { house_id: houseId, mode, skip_invalid: skipInvalid } = parsed.data;
      if (!file || file.length === 0) throw unprocessable({ file: ['Оберіть файл CSV або XLSX.'] });
      const [house] = await db
        .select({ id: houses.id })
        .from(houses)
        .where(and(houseScope(request.user), eq(houses.id, houseId)))
        .limit(1);
      if (!house) throw unprocessable({ house_id: ['Будинок не знайдено.'] });
      // Reading and checking the file is the heavy part: it runs in one of the user's work slots.
      return withWorkSlot(request, async () => {
        let table: TableRow[];
        try {
          table = await readTable(file);
        } catch (err) {
          if (err instanceof TableError) throw unprocessable({ file: [err.message] });
          throw err;
        }
        const rows = await readRows(table);
        let created: { units: number; members: number; links: number } | null = null;
        if (mode === 'commit') {
          try {
            created = (await commit(request.user, houseId, rows, skipInvalid)).created;
          } catch (err) {
            if (isUniqueViolation(err)) throw new HttpError(409, 'Дані будинку змінилися під час імпорту. Перевірте файл ще раз.');
            throw err;
          }
        } else {
          await checkAgainstDatabase(db, request.user.organizationId, houseId, rows);
        }
        const invalid = rows.filter((r) => r.errors.length).length;
        const body = {
          committed: created !== null,
          total: rows.length,
          valid: rows.length - invalid,
          invalid,
          rows: rows.map(publicRow),
          ...(created ? { created } : {}),
        };
        if (mode === 'commit' && created === null) {
          return reply.code(422).send({
            message: `У файлі є рядки з помилками (${invalid}); нічого не імпортовано.`,
            errors: { file: ['Виправте помилки або оберіть «Пропустити рядки з помилками».'] },
            ...body,
          });
        }
        return body;
      });
    },
  );
};
