import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { ENTITIES } from '../../contract/entities.ts';
import { eventEntity } from '../../contract/events.ts';
import type { EntityDeclaration } from '../../contract/entity.ts';
import { FULL_RULES } from '../../contract/permissions.ts';
import { formFields, sampleRefs } from '../api/entitySamples.ts';
import { ADMIN, API, createOrganization, createUser, uid, type TestApp } from '../api/helpers.ts';
import { makeCity } from '../api/members-fixtures.ts';
import { multipartBody, PDF, PNG, type FormValue } from '../api/multipart.ts';
import { todayKyiv } from '../../server/modules/voting/meeting.ts';
import { rows } from './db.ts';

/**
 * Every kind of file the product keeps, by what holds it. A route that names a file is tried with
 * each kind (tests/security/routes.ts `fillPaths`), so a route serving a file through the wrong
 * holder is found, not just one instance of it.
 */
export const FILE_KINDS = [
  /** An upload no form has taken yet: A's is the staff user's own, B's the admin's. */
  'upload',
  'articleCover',
  'eventPicture',
  'adImage',
  /** A photo of the request itself (its gallery, `media_ids`). */
  'requestPhoto',
  'staffChatPhoto',
  'memberChatPhoto',
  /** A photo a performer sent through a staff chat link. */
  'linkChatPhoto',
  'documentFile',
  'votingProtocol',
  /** The scan of a paper ballot (only B's meeting has a ballot). */
  'ballotSheet',
] as const;
export type FileKind = (typeof FILE_KINDS)[number];
export interface FileFixture {
  id: number;
  /** The random key URLs name the file by. */
  key: string;
}

/** Ids of one complex's fixtures, keyed by what a route's path parameter names. */
export interface Side {
  complexId: number;
  complexName: string;
  houseId: number;
  realtyId: number;
  memberId: number;
  residentId: number;
  requestId: number;
  commentId: number;
  chatLinkId: number;
  /** The token of that chat link (the credential of /api/staff/chat/{token}). */
  chatLinkToken: string;
  articleId: number;
  /** One record of every declared entity (contract/entities.ts), by entity name. */
  entities: Record<string, number>;
  interviewId: number;
  votingId: number;
  advertisementId: number;
  documentId: number;
  /** The declared contact section of `entities` (bodies refer to it as section_id). */
  sectionId: number;
  staffId: number;
  /** A saved view of the requests list, the admin's own (personal: no complex behind it). */
  savedViewId: number;
  /** One file of every kind this complex has. */
  files: Partial<Record<FileKind, FileFixture>>;
  /** A ballot of a meeting in this complex (only B has one: the demo meeting). */
  ballot?: { votingId: number; ballotId: number };
}

export interface World {
  admin: string;
  /** A staff user with every permission, assigned only to complex A. */
  staffA: { id: number; email: string; password: string; token: string };
  A: Side;
  B: Side;
  typeId: number;
  cityId: number;
  /** Bodies valid for complex A, by route ("PUT /api/admin/houses/{id}"). */
  bodies: Record<string, unknown>;
  /** Multipart fields valid for complex A, by route. */
  forms: Record<string, Record<string, FormValue | FormValue[]>>;
}

const day = 24 * 3600 * 1000;
const iso = (offset: number) => new Date(Date.now() + offset).toISOString();
// Meeting dates are Kyiv days (from 22:00 or 21:00 UTC it is already tomorrow there).
const today = () => todayKyiv();

async function ok(t: TestApp, method: 'POST' | 'PUT', url: string, token: string, body: unknown) {
  const res = await t.call(method, `${API}${url}`, { token, body });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
  return res.json();
}

async function okForm(t: TestApp, method: 'POST' | 'PUT', url: string, token: string, fields: Record<string, FormValue | FormValue[]>) {
  const res = await t.call(method, `${API}${url}`, { token, ...(await multipartBody(fields)) });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
  return res.json();
}

/** JSON bodies for one complex (create and update share their schema). */
export function jsonBodies(
  s: Pick<Side, 'complexId' | 'houseId' | 'realtyId' | 'memberId'> & { staffId?: number },
  cityId: number,
  typeId: number,
  label = 'Альфа',
) {
  return {
    complex: { name: `ЖК ${uid()}`, city: 'Київ', address: 'вул. Безпечна, 1', description: '' },
    house: { city_id: cityId, street_name: `вул. ${label} ${uid()}`, number: '1', complex_id: s.complexId },
    realty: { house_id: s.houseId, type: 'apartment', number: `${Math.floor(Math.random() * 1e6)}`, area: '50.5' },
    member: { name: `Мешканець ${label} ${uid()}`, realty_id: s.realtyId, email: `m-${uid()}@test.ua` },
    request: { type_id: typeId, house_id: s.houseId, realty_id: s.realtyId, member_id: s.memberId, text: `Тече кран ${label} ${uid()}` },
    article: { title: `Відключення води ${label}`, body: '<p>Завтра з 10:00 до 14:00.</p>', complex_ids: [s.complexId], house_ids: [], status: 'published' },
    interview: {
      title: `Опитування ${label}`,
      description: 'Питання про двір.',
      complex_ids: [s.complexId],
      house_ids: [],
      start_at: iso(-day),
      end_at: iso(10 * day),
      published: true,
      questions: [{ title: 'Чи потрібен шлагбаум?', kind: 'single', options: ['Так', 'Ні'] }],
    },
    voting: {
      house_id: s.houseId,
      title: `Ремонт покрівлі ${label}`,
      regime: 'no_osbb',
      initiator: 'Управитель',
      meeting_date: today(),
      meeting_time: '18:30',
      place: 'подвір’я',
      video_tools: 'Zoom',
      chair: 'Коваль Петро Іванович',
      questions: [{ title: 'Затвердити кошторис ремонту.', threshold: 'majority' }],
    },
    comment: { message: 'Виправлене повідомлення' },
    chatLink: { user_id: s.staffId },
  };
}

/** The key of a stored file by its id. */
async function fileOf(t: TestApp, id: number): Promise<FileFixture> {
  const [row] = await rows<{ key: string }>(t, sql`select key from media where id = ${id}`);
  return { id, key: row.key };
}

/** Uploads a picture (or a PDF) that no form has taken yet. */
async function upload(t: TestApp, token: string, kind: 'image' | 'document' = 'image'): Promise<FileFixture> {
  const file = kind === 'image' ? { file: PNG, name: 'фото.png', type: 'image/png' } : { file: PDF, name: 'акт.pdf', type: 'application/pdf' };
  const { data } = await okForm(t, 'POST', kind === 'image' ? '/media' : '/media/document', token, { file });
  return fileOf(t, data.id);
}

/** Creates complex `name`'s fixtures through the API as the admin. */
export async function populate(t: TestApp, admin: string, cityId: number, typeId: number, roleId: number, label: string): Promise<Side> {
  const complexName = `ЖК «${label} ${uid()}»`;
  const complex = (await ok(t, 'POST', '/complexes', admin, { name: complexName, city: 'Київ', address: 'вул. Тестова, 1' })).main_data;
  const s = { complexId: complex.id as number } as Side;
  s.complexName = complexName;
  let b = jsonBodies({ ...s, houseId: 0, realtyId: 0, memberId: 0 }, cityId, typeId, label);
  s.houseId = (await ok(t, 'POST', '/houses', admin, b.house)).data.id;
  b = jsonBodies({ ...s, realtyId: 0, memberId: 0 }, cityId, typeId, label);
  s.realtyId = (await ok(t, 'POST', '/realty', admin, b.realty)).data.id;
  b = jsonBodies({ ...s, memberId: 0 }, cityId, typeId, label);
  s.memberId = (await ok(t, 'POST', '/members', admin, b.member)).data.id;
  const [resident] = await rows<{ id: number }>(t, sql`select id from residents where member_id = ${s.memberId}`);
  s.residentId = resident.id;
  s.staffId = (
    await ok(t, 'POST', '/staff', admin, { name: `Колега ${label}`, email: `colleague-${uid()}@test.ua`, complex_ids: [s.complexId], role_id: roleId })
  ).data.id;
  b = jsonBodies(s, cityId, typeId, label);
  s.files = {};
  const requestPhoto = await upload(t, admin);
  s.requestId = (await ok(t, 'POST', '/service_request', admin, { ...b.request, media_ids: [requestPhoto.id] })).data.id;
  s.files.requestPhoto = requestPhoto;
  const chatFile = async (chat: 'staff_chat' | 'member_chat') => {
    const { data } = await okForm(t, 'POST', `/service_request/chat/${s.requestId}`, admin, {
      chat_type: chat,
      message: `Повідомлення ${label}`,
      'files[]': [{ file: PNG, name: 'фото.png', type: 'image/png' }],
    });
    return { commentId: data.id as number, file: await fileOf(t, data.files[0].id) };
  };
  s.files.memberChatPhoto = (await chatFile('member_chat')).file;
  const staffChat = await chatFile('staff_chat');
  s.commentId = staffChat.commentId;
  s.files.staffChatPhoto = staffChat.file;
  const link = (await ok(t, 'POST', `/service_request/${s.requestId}/chat_links`, admin, b.chatLink)).data;
  s.chatLinkId = link.id;
  s.chatLinkToken = link.token;
  const linkPost = await t.call(
    'POST',
    `/api/staff/chat/${link.token}`,
    await multipartBody({ message: `З об’єкта ${label}`, photo: { file: PNG, name: 'об’єкт.png', type: 'image/png' } }),
  );
  expect(linkPost.statusCode, linkPost.body).toBe(200);
  s.files.linkChatPhoto = await fileOf(t, linkPost.json().data.files[0].id);
  const cover = await upload(t, admin);
  s.articleId = (await ok(t, 'POST', '/articles', admin, { ...b.article, image_id: cover.id })).data.id;
  s.files.articleCover = cover;
  const picture = await upload(t, admin);
  s.entities = await sampleRefs(t, admin, { houseId: s.houseId, complexId: s.complexId }, `${label} `);
  s.sectionId = s.entities.contacts_section;
  // The side's own complex is its record of the complexes entity (the sample's new one is nobody's).
  s.entities.complexes = s.complexId;
  // The event is the one with a picture, so that the picture's checks have a record holding it.
  const event = eventEntity.sample({ houseId: s.houseId, complexId: s.complexId, unique: `${label} ${uid()}`, refs: s.entities });
  s.entities[eventEntity.name] = (await ok(t, 'POST', eventEntity.path, admin, { ...event, image_id: picture.id })).data.id;
  s.files.eventPicture = picture;
  s.interviewId = (await ok(t, 'POST', '/interview', admin, b.interview)).data.id;
  s.votingId = (await ok(t, 'POST', '/voting', admin, b.voting)).data.id;
  s.advertisementId = (
    await okForm(t, 'POST', '/advertisement', admin, {
      name: `Продам ${label}`,
      desc: 'Майже новий.',
      house_id: s.houseId,
      image: { file: PNG, name: 'фото.png', type: 'image/png' },
    })
  ).data.id;
  const [ad] = await rows<{ image_id: number }>(t, sql`select image_id from advertisements where id = ${s.advertisementId}`);
  s.files.adImage = await fileOf(t, ad.image_id);
  s.documentId = (
    await okForm(t, 'POST', '/documents', admin, {
      name: `Кошторис ${label}`,
      file: { file: PDF, name: 'кошторис.pdf', type: 'application/pdf' },
      'complexIds[]': [s.complexId],
    })
  ).data.id;
  const [doc] = await rows<{ file_id: number }>(t, sql`select file_id from documents where id = ${s.documentId}`);
  s.files.documentFile = await fileOf(t, doc.file_id);
  await okForm(t, 'POST', `/voting/${s.votingId}/protocol`, admin, { file: { file: PDF, name: 'протокол.pdf', type: 'application/pdf' }, type: 'protocol' });
  const [voting] = await rows<{ protocol_media_id: number }>(t, sql`select protocol_media_id from votings where id = ${s.votingId}`);
  s.files.votingProtocol = await fileOf(t, voting.protocol_media_id);
  s.files.upload = await upload(t, admin);
  s.savedViewId = (await ok(t, 'POST', '/saved-views', admin, { list: 'requests', name: `Вид ${label} ${uid()}`, query: 'stage=new' })).data.id;
  return s;
}

/** Two complexes with a bit of everything, and a full-rights staff user of complex A only. */
export async function buildWorld(t: TestApp): Promise<World> {
  const admin = await t.login(ADMIN.email, ADMIN.password);
  const city = await makeCity(t);
  const [type] = await rows<{ id: number }>(t, sql`select id from service_request_types where organization_id = ${t.organizationId} order by id limit 1`);
  const [role] = await rows<{ id: number }>(t, sql`select id from staff_roles where organization_id = ${t.organizationId} order by id limit 1`);
  const A = await populate(t, admin, city.id, type.id, role.id, 'Альфа');
  const B = await populate(t, admin, city.id, type.id, role.id, 'Бета');
  const [ballot] = await rows<{ id: number; voting_id: number }>(t, sql`select id, voting_id from voting_ballots order by id limit 1`);
  B.ballot = { votingId: ballot.voting_id, ballotId: ballot.id };
  // The scan of a paper ballot: a stored file that the ballot holds.
  const sheet = await upload(t, admin, 'document');
  await rows(t, sql`update voting_ballots set sheet_media_id = ${sheet.id} where id = ${ballot.id}`);
  B.files.ballotSheet = sheet;
  const user = await createUser(t.db, { organizationId: t.organizationId, permissions: FULL_RULES, complexIds: [A.complexId] });
  const token = await t.login(user.email, user.password);
  // A's fresh upload is the staff user's own: an upload nothing holds is served to its uploader only.
  A.files.upload = await upload(t, token);
  const [residentRole] = await rows<{ id: number }>(t, sql`select id from resident_roles where organization_id = ${t.organizationId} order by id limit 1`);
  const [option] = await rows<{ question_id: number; id: number }>(
    t,
    sql`select o.question_id, o.id from interview_options o join interview_questions q on q.id = o.question_id
      where q.interview_id = ${A.interviewId} order by o.id limit 1`,
  );
  const b = jsonBodies(A, city.id, type.id);
  /** Declared entities' create and update bodies, from their samples: JSON ones, or multipart forms. */
  const entityBodies = (encoding: 'json' | 'multipart') =>
    Object.fromEntries(
      (ENTITIES as readonly EntityDeclaration[])
        .filter((e) => e.encoding === encoding)
        .flatMap((e) => {
          const body = () => e.sample({ houseId: A.houseId, complexId: A.complexId, unique: uid(), refs: A.entities });
          return [
            [`POST ${API}${e.path}`, encoding === 'multipart' ? formFields(body()) : body()],
            [`${e.updateMethod} ${API}${e.path}/{id}`, encoding === 'multipart' ? formFields(body()) : body()],
          ];
        }),
    );
  const bodies: Record<string, unknown> = {
    [`POST ${API}/houses`]: b.house,
    [`POST ${API}/members`]: b.member,
    [`POST ${API}/residents`]: { member_id: A.memberId, realty_id: A.realtyId, role_id: residentRole.id },
    [`POST ${API}/service_request`]: b.request,
    [`POST ${API}/articles`]: b.article,
    ...entityBodies('json'),
    [`POST ${API}/interview`]: b.interview,
    [`POST ${API}/voting`]: b.voting,
    [`POST ${API}/staff_role`]: { name: `Роль ${uid()}`, permissions: {} },
    [`PUT ${API}/staff_role/{id}`]: { name: `Роль ${uid()}`, permissions: {} },
    [`POST ${API}/staff`]: { name: 'Новий колега', email: `colleague-${uid()}@test.ua`, complex_ids: [A.complexId], role_id: role.id },
    [`POST ${API}/houses/unlink`]: { house_ids: [A.houseId] },
    [`PUT ${API}/bills`]: { bills: [{ realty_id: A.realtyId, period: '2026-01', service: 'Опалення', amount: 1000 }] },
    [`POST ${API}/setup/step/sendInvite`]: { name: 'Запрошений колега', email: `invite-${uid()}@test.ua`, complex_ids: [A.complexId], role_id: role.id },
    [`POST ${API}/streets`]: { city_id: city.id, name: `Нова ${uid()}` },
    [`PUT ${API}/streets/{id}`]: { name: `Нова ${uid()}` },
    [`PUT ${API}/houses/{id}`]: { ...b.house, number: '2' },
    [`PUT ${API}/members/{id}`]: { name: 'Мешканець змінений' },
    [`PUT ${API}/residents/{id}`]: { realty_id: A.realtyId, role_id: residentRole.id },
    [`PUT ${API}/service_request/{id}`]: { text: 'Змінений текст заявки' },
    [`POST ${API}/articles/{id}`]: b.article,
    [`PUT ${API}/interview/{id}`]: b.interview,
    [`PUT ${API}/voting/{id}`]: b.voting,
    [`PUT ${API}/comments/{id}`]: b.comment,
    [`POST ${API}/service_request/{id}/chat_links`]: b.chatLink,
    [`PUT ${API}/staff/{id}`]: { name: 'Колега змінений', email: `colleague-${uid()}@test.ua`, complex_ids: [A.complexId], role_id: role.id },
    [`POST ${API}/saved-views`]: { list: 'requests', name: `Вид ${uid()}`, query: 'stage=new&sort=deadline&order=ASC' },
    [`PUT ${API}/saved-views/{id}`]: { name: `Вид ${uid()}` },
    [`POST ${API}/interview/{id}/answers`]: {
      member_id: A.memberId,
      channel: 'phone',
      answers: [{ question_id: option.question_id, option_ids: [option.id] }],
    },
    // Bulk changes (BULK_IDS says which fixture their ids are).
    [`PATCH ${API}/service_request`]: { ids: [A.requestId], stage: 'underReview', performer_id: A.staffId, comment: 'Усі разом' },
    [`PATCH ${API}/members`]: { ids: [A.memberId], status: 'active' },
    [`PATCH ${API}/articles`]: { ids: [A.articleId], status: 'published' },
    [`PATCH ${API}/advertisement`]: { ids: [A.advertisementId], published: 1 },
  };
  const forms: World['forms'] = {
    [`POST ${API}/advertisement`]: { name: 'Продам стіл', desc: 'Дерев’яний.', house_id: A.houseId },
    [`POST ${API}/documents`]: { name: 'Кошторис', file: { file: PDF, name: 'кошторис.pdf', type: 'application/pdf' }, 'complexIds[]': [A.complexId] },
    [`POST ${API}/media`]: { file: { file: PNG, name: 'фото.png', type: 'image/png' } },
    [`POST ${API}/media/document`]: { file: { file: PDF, name: 'акт.pdf', type: 'application/pdf' } },
    [`PUT ${API}/advertisement/{id}`]: { name: 'Продам стіл', desc: 'Дерев’яний.', house_id: A.houseId },
    [`POST ${API}/advertisement/{id}`]: { published: 1 },
    [`PUT ${API}/documents/{id}`]: { name: 'Кошторис змінений', 'complexIds[]': [A.complexId] },
    ...(entityBodies('multipart') as World['forms']),
    [`POST ${API}/service_request/chat/{id}`]: { chat_type: 'staff_chat', message: 'Повідомлення' },
    [`POST ${API}/voting/{votingId}/resident/{residentId}/upload_sheet`]: { file: { file: PDF, name: 'листок.pdf' }, type: 'sheet' },
  };
  return { admin, staffA: { id: user.id, email: user.email, password: user.password, token }, A, B, typeId: type.id, cityId: city.id, bodies, forms };
}

/** Another management company: its own admin, and one complex with a bit of everything. */
export interface OtherOrganization {
  organizationId: number;
  admin: string;
  adminId: number;
  side: Side;
}

/**
 * A second organization, built through the API by its own admin: request type, staff role and
 * one complex's fixtures (`label` marks its names), in the settlement `cityId`.
 */
export async function buildOrganization(t: TestApp, cityId: number, label: string): Promise<OtherOrganization> {
  const org = await createOrganization(t.db, { name: `Компанія ${label}` });
  const user = await createUser(t.db, { organizationId: org.id, isAdmin: true });
  const admin = await t.login(user.email, user.password);
  const type = (await ok(t, 'POST', '/service-request-types', admin, { name: `Сантехніка ${label}` })).data.id as number;
  const role = (await ok(t, 'POST', '/staff_role', admin, { name: `Диспетчер ${label}`, permissions: FULL_RULES })).id as number;
  const side = await populate(t, admin, cityId, type, role, label);
  return { organizationId: org.id, admin, adminId: user.id, side };
}

/** Body fields that name a fixture of a complex, and which one. */
export const REFERENCES: Record<string, keyof Side> = {
  complex_id: 'complexId',
  complex_ids: 'complexId',
  complexIds: 'complexId',
  'complexIds[]': 'complexId',
  house_id: 'houseId',
  house_ids: 'houseId',
  realty_id: 'realtyId',
  member_id: 'memberId',
  section_id: 'sectionId',
  user_id: 'staffId',
  performer_id: 'staffId',
};

/**
 * Bulk changes (PATCH of a list's path) name the rows they change in `ids`: the fixture those ids
 * are, by route. Every PATCH route must be here (tests/security/authz.test.ts checks it), so that
 * the matrices try it with the other complex's and organization's rows.
 */
export const BULK_IDS: Record<string, keyof Side> = {
  [`PATCH ${API}/service_request`]: 'requestId',
  [`PATCH ${API}/members`]: 'memberId',
  [`PATCH ${API}/articles`]: 'articleId',
  [`PATCH ${API}/advertisement`]: 'advertisementId',
};

/**
 * The same body (JSON or multipart fields) with every reference to `from`'s fixtures pointing at
 * `to`'s; `replaced` says whether it named any. `route`: the body's route, whose `ids` name the
 * fixture BULK_IDS says.
 */
export function pointAt(body: unknown, from: Side, to: Partial<Side>, route?: string): { body: unknown; replaced: boolean } {
  let replaced = false;
  const bulkIds = route ? BULK_IDS[route] : undefined;
  const walk = (value: unknown, key?: string): unknown => {
    const ref = key === 'ids' && bulkIds ? bulkIds : key ? REFERENCES[key] : undefined;
    if (ref && typeof value === 'number' && value === from[ref]) {
      replaced = true;
      return to[ref];
    }
    if (Array.isArray(value)) return value.map((v) => walk(v, key));
    if (value && typeof value === 'object' && !Buffer.isBuffer(value) && !('file' in value)) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    }
    return value;
  };
  const out = walk(body);
  return { body: out, replaced };
}
