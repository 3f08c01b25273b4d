import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, createRole, createUser, setupApp, uid, type TestApp } from '../api/helpers.ts';
import { JPEG, multipartBody, PNG, type FormValue } from '../api/multipart.ts';
import { changedTables, fingerprint, rows } from './db.ts';
import { collectRoutes, FILE_ROUTES, fillPath, fillPaths, type OpenApiSchema, type Route } from './routes.ts';
import { buildWorld, FILE_KINDS, type FileFixture, type FileKind, type World } from './world.ts';

/**
 * Files (pictures, attachments, covers, documents, protocols) are served only through what holds
 * them, named by a random key; forms attach only their own files or the user's fresh uploads; a
 * staff chat link serves its own chat's files and ends with its holders' rights; every file is
 * offered under the extension and type judged by its content.
 */
let t: TestApp;
let w: World;
let routes: Route[];
beforeAll(async () => {
  t = await setupApp();
  w = await buildWorld(t);
  ({ routes } = await collectRoutes(t));
});
afterAll(() => t?.close());

const LINK_MEDIA = '/api/staff/chat/{token}/media/{key}';
const sides = () => [['A', w.A] as const, ['B', w.B] as const];
/** What `GET /media/{key}` may serve at all: pictures of content and fresh uploads. */
const CONTENT_PICTURES: FileKind[] = ['articleCover', 'eventPicture', 'adImage'];

async function tokenOf(overrides: Parameters<typeof createUser>[1]) {
  const user = await createUser(t.db, overrides);
  return { user, token: await t.login(user.email, user.password) };
}

async function upload(token: string, file: FormValue = { file: PNG, name: 'фото.png', type: 'image/png' }, url = '/media') {
  const res = await t.call('POST', `${API}${url}`, { token, ...(await multipartBody({ file })) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; url: string; name: string };
}

describe('GET /media/{key}: a file only through a record the user may see', () => {
  it('answers each kind of user for each kind of file of both complexes as their rights say', async () => {
    const viewer = await tokenOf({ organizationId: t.organizationId, permissions: { articles: ['view'] }, complexIds: [w.A.complexId] });
    const nobody = await tokenOf({ organizationId: t.organizationId, permissions: {}, complexIds: [w.A.complexId] });
    const users: [string, string, (side: 'A' | 'B', kind: FileKind) => boolean][] = [
      // The admin sees all content, and their own fresh upload (B's), never the staff user's (A's).
      ['admin', w.admin, (side, kind) => CONTENT_PICTURES.includes(kind) || (side === 'B' && kind === 'upload')],
      ['staff of A with every right', w.staffA.token, (side, kind) => side === 'A' && (CONTENT_PICTURES.includes(kind) || kind === 'upload')],
      ['staff of A who may view news only', viewer.token, (side, kind) => side === 'A' && kind === 'articleCover'],
      ['staff of A without rights', nobody.token, () => false],
    ];
    const wrong: string[] = [];
    let served = 0;
    for (const [who, token, may] of users) {
      for (const [name, side] of sides()) {
        for (const kind of FILE_KINDS) {
          const file = side.files[kind];
          if (!file) continue;
          const res = await t.call('GET', `${API}/media/${file.key}`, { token });
          const expected = may(name, kind) ? 200 : 404;
          if (res.statusCode !== expected) wrong.push(`${who}: ${name}'s ${kind} → ${res.statusCode}, expected ${expected}`);
          if (expected === 200) {
            served++;
            if (!res.rawPayload.equals(PNG)) wrong.push(`${who}: ${name}'s ${kind} served other bytes`);
          } else if (res.statusCode === 404 && res.json().message !== 'Файл не знайдено.') wrong.push(`${who}: ${name}'s ${kind} → ${res.body}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    // Not vacuous: each user but the last was served something.
    expect(served).toBeGreaterThanOrEqual(7 + 4 + 1);
    // Every kind of file was tried on each side (B alone has a ballot).
    expect(FILE_KINDS.filter((k) => !w.A.files[k])).toEqual(['ballotSheet']);
    expect(FILE_KINDS.filter((k) => !w.B.files[k])).toEqual([]);
  });

  it('a replaced picture is served no more, and the new one comes under a new key', async () => {
    const { token } = await tokenOf({ organizationId: t.organizationId, permissions: { advertisements: ['view', 'edit'] }, complexIds: [w.A.complexId] });
    const url = `${API}/media/${w.A.files.adImage!.key}`;
    expect((await t.call('GET', url, { token })).statusCode).toBe(200);
    // The advertisement's picture is replaced: the old picture belongs to nothing any more.
    const form = await multipartBody({ name: 'Продам стіл', desc: 'Новий опис', image: { file: PNG, name: 'нове.png', type: 'image/png' } });
    const put = await t.call('PUT', `${API}/advertisement/${w.A.advertisementId}`, { token: w.admin, ...form });
    expect(put.statusCode, put.body).toBe(200);
    expect((await t.call('GET', url, { token })).statusCode).toBe(404);
    // The new one is served through the record, under its own new key.
    const fresh = put.json().data.image as string;
    expect(fresh).not.toBe(url);
    expect((await t.call('GET', fresh, { token })).statusCode).toBe(200);
    const [{ id }] = await rows<{ id: number }>(t, sql`select image_id as id from advertisements where id = ${w.A.advertisementId}`);
    w.A.files.adImage = { id, key: fresh.split('/').pop()! };
  });

  it('no URL names a file by its sequential id, and an id is no key', async () => {
    const reads = routes.filter((r) => r.method === 'GET' && !(r.path.includes('{') && !fillPath(r.path, w.A)) && !r.path.startsWith('/api/public'));
    const wrong: string[] = [];
    let urls = 0;
    for (const r of reads) {
      const url = r.path.includes('{') ? fillPath(r.path, w.A)! : r.path;
      const res = await t.call('GET', url, { token: w.admin });
      if (!String(res.headers['content-type']).startsWith('application/json')) continue;
      const found = res.body.match(/\/media\/[^"\\/?]+(?=["\\/?])/g) ?? [];
      urls += found.length;
      for (const f of found) if (!/^\/media\/[0-9a-f]{32}$/.test(f)) wrong.push(`${r.key}: ${f}`);
    }
    expect(wrong).toEqual([]);
    expect(urls).toBeGreaterThanOrEqual(5);
    for (const [, side] of sides()) {
      for (const file of Object.values(side.files)) {
        expect((await t.call('GET', `${API}/media/${file.id}`, { token: w.admin })).statusCode).toBe(422);
      }
    }
  });
});

describe('a form attaches by id only its own files or the fresh uploads of whoever sends it', () => {
  /** Body fields that name stored files by id. */
  const FILE_FIELD = /^(image|media|file|photo|picture|cover|sheet)_ids?$|_(media|file|image)_ids?$/;
  /** For an edit: the kind of file the record already holds in that field (kept as it is). */
  const OWN: Record<string, FileKind> = {
    [`POST ${API}/articles/{id}`]: 'articleCover',
    [`PUT ${API}/events/{id}`]: 'eventPicture',
    [`PUT ${API}/service_request/{id}`]: 'requestPhoto',
  };

  function fileFields(r: Route): { name: string; many: boolean }[] {
    const schema = r.op.requestBody?.content?.['application/json']?.schema;
    return Object.entries(schema?.properties ?? {})
      .filter(([name]) => FILE_FIELD.test(name))
      .map(([name, s]: [string, OpenApiSchema]) => ({ name, many: s.type === 'array' || Boolean(s.anyOf?.some((x) => x.type === 'array')) }));
  }

  it('every such field is known (so a new one is checked too)', () => {
    const found = routes
      .filter((r) => fileFields(r).length)
      .map(
        (r) =>
          `${r.key} ${fileFields(r)
            .map((f) => f.name)
            .join(',')}`,
      );
    expect(found.sort()).toEqual(
      [
        `POST ${API}/articles image_id`,
        `POST ${API}/articles/{id} image_id`,
        `POST ${API}/events image_id`,
        `PUT ${API}/events/{id} image_id`,
        `POST ${API}/service_request media_ids`,
        `PUT ${API}/service_request/{id} media_ids`,
      ].sort(),
    );
  });

  it("refuses every other kind of file, of either complex, with 422 and no change; takes the record's own file and a fresh upload", async () => {
    const wrong: string[] = [];
    let refused = 0;
    for (const r of routes.filter((x) => fileFields(x).length)) {
      const url = fillPath(r.path, w.A)!;
      const body = w.bodies[r.key] as Record<string, unknown>;
      expect(body, r.key).toBeDefined();
      for (const field of fileFields(r)) {
        const send = (file: FileFixture | { id: number }) =>
          t.call(r.method, url, { token: w.staffA.token, body: { ...body, [field.name]: field.many ? [file.id] : file.id } });
        for (const [name, side] of sides()) {
          for (const kind of FILE_KINDS) {
            const file = side.files[kind];
            if (!file || (name === 'A' && (kind === 'upload' || kind === OWN[r.key]))) continue;
            const before = await fingerprint(t);
            const res = await send(file);
            const changed = changedTables(before, await fingerprint(t));
            if (res.statusCode !== 422 || !res.json().errors?.[field.name])
              wrong.push(`${r.key} ${field.name} = ${name}'s ${kind} → ${res.statusCode} ${res.body.slice(0, 160)}`);
            if (changed.length) wrong.push(`${r.key} ${field.name} = ${name}'s ${kind} changed ${changed.join(', ')}`);
            refused++;
          }
        }
        // Control: the record's own file is kept, and the sender's fresh upload is taken.
        const own = OWN[r.key] && w.A.files[OWN[r.key]];
        if (own) {
          const res = await send(own);
          if (res.statusCode !== 200) wrong.push(`${r.key} keeping its own ${OWN[r.key]} → ${res.statusCode} ${res.body.slice(0, 160)}`);
        }
        const fresh = await upload(w.staffA.token);
        const res = await send(fresh);
        if (res.statusCode !== 200) wrong.push(`${r.key} with a fresh upload → ${res.statusCode} ${res.body.slice(0, 160)}`);
        else if (!res.body.includes(`"${field.name}":${field.many ? `[${fresh.id}]` : fresh.id}`))
          wrong.push(`${r.key} did not take the fresh upload: ${res.body.slice(0, 200)}`);
        // Taken, the upload is the record's: nobody takes it into another record.
        const again = await send(fresh);
        if (OWN[r.key] === undefined && again.statusCode !== 422) wrong.push(`${r.key} took an upload a record already holds → ${again.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThanOrEqual(6 * 19);
  });
});

describe('a staff chat link', () => {
  const INVALID = /недійсне/;

  it("serves its own chat's attachments only: not the resident chat's, not the gallery's, not another request's", async () => {
    const wrong: string[] = [];
    for (const [name, side] of sides()) {
      for (const kind of FILE_KINDS) {
        const file = side.files[kind];
        if (!file) continue;
        const res = await t.call('GET', `/api/staff/chat/${w.A.chatLinkToken}/media/${file.key}`);
        const expected = name === 'A' && FILE_ROUTES[LINK_MEDIA].includes(kind) ? 200 : 404;
        if (res.statusCode !== expected) wrong.push(`A's link, ${name}'s ${kind} → ${res.statusCode}, expected ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
    // The route table's own filling agrees (B's link, B's files).
    for (const v of fillPaths(LINK_MEDIA, w.B)!) expect((await t.call('GET', v.url)).statusCode, `${v.file}`).toBe(v.serves ? 200 : 404);
  });

  it('shows the staff chat only: no resident chat message, no gallery, no key of their files', async () => {
    const res = await t.call('GET', `/api/staff/chat/${w.A.chatLinkToken}`);
    expect(res.statusCode, res.body).toBe(200);
    const chat = res.json().staff_chat;
    expect(chat.messages.length).toBeGreaterThan(0);
    expect(chat.messages.every((m: { chat_type: string }) => m.chat_type === 'staff_chat')).toBe(true);
    expect(chat.request.media).toBeUndefined();
    for (const kind of ['memberChatPhoto', 'requestPhoto'] as const) expect(res.body).not.toContain(w.A.files[kind]!.key);
    expect(res.body).toContain(w.A.files.staffChatPhoto!.key);
  });

  it("ends when its performer's or its maker's rights change, checked at every use", async () => {
    const performerRole = await createRole(t.db, t.organizationId, { service_requests: ['view'] });
    const makerRole = await createRole(t.db, t.organizationId, { service_requests: ['view', 'edit'] });
    const noRequests = await createRole(t.db, t.organizationId, { articles: ['view'] });
    const performer = await createUser(t.db, { organizationId: t.organizationId, roleId: performerRole.id, complexIds: [w.A.complexId] });
    const maker = await createUser(t.db, { organizationId: t.organizationId, roleId: makerRole.id, complexIds: [w.A.complexId] });
    const makerToken = await t.login(maker.email, maker.password);
    const made = await t.call('POST', `${API}/service_request/${w.A.requestId}/chat_links`, { token: makerToken, body: { user_id: performer.id } });
    expect(made.statusCode, made.body).toBe(200);
    const { token, id: linkId } = made.json().data as { token: string; id: number };
    const photo = w.A.files.staffChatPhoto!.key;

    const uses = async () => {
      const form = await multipartBody({ message: `Перевірка ${uid()}` });
      return [
        await t.call('GET', `/api/staff/chat/${token}`),
        await t.call('POST', `/api/staff/chat/${token}`, form),
        await t.call('GET', `/api/staff/chat/${token}/media/${photo}`),
      ];
    };
    const active = async () =>
      ((await t.call('GET', `${API}/service_request/${w.A.requestId}`, { token: w.admin })).json().data.chat_links as { id: number; active: boolean }[]).find(
        (l) => l.id === linkId,
      )?.active;
    const expectWorks = async (when: string) => {
      for (const res of await uses()) expect(res.statusCode, `${when}: ${res.body.slice(0, 160)}`).toBe(200);
      expect(await active(), when).toBe(true);
    };
    const expectEnded = async (when: string) => {
      const before = await fingerprint(t);
      for (const res of await uses()) {
        expect(res.statusCode, `${when}: ${res.body.slice(0, 160)}`).toBe(404);
        expect(res.json().message, when).toMatch(INVALID);
      }
      expect(changedTables(before, await fingerprint(t)), when).toEqual([]);
      expect(await active(), when).toBe(false);
    };
    const putStaff = async (user: typeof performer, change: { role_id?: number; complex_ids?: number[] }) => {
      const res = await t.call('PUT', `${API}/staff/${user.id}`, {
        token: w.admin,
        body: { name: user.name, email: user.email, role_id: user.roleId, complex_ids: [w.A.complexId], ...change },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const putRole = async (role: { id: number; name: string }, permissions: Record<string, readonly string[]>) => {
      const res = await t.call('PUT', `${API}/staff_role/${role.id}`, { token: w.admin, body: { name: role.name, permissions } });
      expect(res.statusCode, res.body).toBe(200);
    };

    await expectWorks('at first');
    for (const [who, user, role, rights] of [
      ['performer', performer, performerRole, { service_requests: ['view'] }],
      ['maker', maker, makerRole, { service_requests: ['view', 'edit'] }],
    ] as const) {
      await putStaff(user, { complex_ids: [w.B.complexId] });
      await expectEnded(`${who}'s complex unassigned`);
      await putStaff(user, {});
      await expectWorks(`${who}'s complex given back`);
      await putStaff(user, { role_id: noRequests.id });
      await expectEnded(`${who} given a role without requests`);
      await putStaff(user, {});
      await expectWorks(`${who}'s role given back`);
      // The maker keeps viewing requests but may no longer manage links; the performer may not view them.
      await putRole(role, who === 'maker' ? { service_requests: ['view'] } : { articles: ['view'] });
      await expectEnded(`${who}'s role lost the right`);
      await putRole(role, rights);
      await expectWorks(`${who}'s role got the right back`);
    }
    expect((await t.call('DELETE', `${API}/staff/${maker.id}`, { token: w.admin })).statusCode).toBe(200);
    await expectEnded("maker's account deleted");

    const second = await t.call('POST', `${API}/service_request/${w.A.requestId}/chat_links`, { token: w.admin, body: { user_id: performer.id } });
    expect(second.statusCode, second.body).toBe(200);
    const secondToken = second.json().data.token as string;
    expect((await t.call('GET', `/api/staff/chat/${secondToken}`)).statusCode).toBe(200);
    expect((await t.call('DELETE', `${API}/staff/${performer.id}`, { token: w.admin })).statusCode).toBe(200);
    const gone = await t.call('GET', `/api/staff/chat/${secondToken}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toMatch(INVALID);
  });
});

describe('files are offered under the type judged by their content', () => {
  /** A PDF that is also a web page: sniffed as PDF, it must never download as .html. */
  const POLYGLOT = Buffer.from('%PDF-1.4\n<html><body><script>alert(document.domain)</script></body></html>\n%%EOF\n');
  const PICTURE = Buffer.concat([JPEG, Buffer.from('<html><script>alert(1)</script></html>')]);

  function expectSafe(res: Awaited<ReturnType<TestApp['call']>>, what: string, mime: string, ext: string) {
    expect(res.statusCode, `${what}: ${res.body.slice(0, 160)}`).toBe(200);
    expect(res.headers['content-type'], what).toBe(mime);
    expect(res.headers['x-content-type-options'], what).toBe('nosniff');
    const disposition = String(res.headers['content-disposition']);
    expect(disposition, what).toMatch(mime.startsWith('image/') ? /^inline;/ : /^attachment;/);
    expect(disposition, what).toMatch(new RegExp(`filename="[^"]*\\.${ext}"; filename\\*=UTF-8''[^;'"]*\\.${ext}$`));
    expect(disposition, what).not.toMatch(/html/i);
  }

  it('every upload that keeps its file serves it back with the sniffed extension and type, attachment unless a picture', async () => {
    const send = async (method: 'POST' | 'PUT', url: string, fields: Record<string, FormValue | FormValue[]>, token: string | undefined = w.admin) => {
      const res = await t.call(method, url, { token, ...(await multipartBody(fields)) });
      expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 200)}`).toBe(200);
      return res.json();
    };
    const pdf = { file: POLYGLOT, name: 'рахунок.html', type: 'text/html' };
    const jpeg = { file: PICTURE, name: 'фото.html', type: 'text/html' };
    const get = (url: string, token: string | undefined = w.admin) => t.call('GET', url, { token });
    const tried = new Set<string>();
    const check = async (key: string, name: string | null, url: string, kind: 'pdf' | 'jpg', token?: string) => {
      tried.add(key);
      if (name !== null) expect(name, key).toBe(kind === 'pdf' ? 'рахунок.pdf' : 'фото.jpg');
      expectSafe(await get(url, token), key, kind === 'pdf' ? 'application/pdf' : 'image/jpeg', kind);
    };

    let r = await send('POST', `${API}/media`, { file: jpeg });
    await check(`POST ${API}/media`, r.data.name, r.data.url, 'jpg');
    r = await send('POST', `${API}/media/document`, { file: pdf });
    await check(`POST ${API}/media/document`, r.data.name, r.data.url, 'pdf');
    r = await send('POST', `${API}/documents`, { name: 'Рахунок', file: pdf, 'complexIds[]': [w.A.complexId] });
    await check(`POST ${API}/documents`, r.data.file_name, r.data.file_url, 'pdf');
    r = await send('PUT', `${API}/documents/${r.data.id}`, { name: 'Рахунок', file: pdf, 'complexIds[]': [w.A.complexId] });
    await check(`PUT ${API}/documents/{id}`, r.data.file_name, r.data.file_url, 'pdf');
    r = await send('POST', `${API}/advertisement`, { name: 'Продам', desc: 'Стіл', house_id: w.A.houseId, image: jpeg });
    await check(`POST ${API}/advertisement`, null, r.data.image, 'jpg');
    r = await send('PUT', `${API}/advertisement/${r.data.id}`, { name: 'Продам', desc: 'Стіл', image: jpeg });
    await check(`PUT ${API}/advertisement/{id}`, null, r.data.image, 'jpg');
    r = await send('POST', `${API}/service_request/chat/${w.A.requestId}`, { chat_type: 'staff_chat', message: 'Акт', 'files[]': [pdf] });
    await check(`POST ${API}/service_request/chat/{id}`, r.data.files[0].name, r.data.files[0].url, 'pdf');
    r = await send('POST', `/api/staff/chat/${w.A.chatLinkToken}`, { message: 'Фото', photo: jpeg }, undefined);
    await check('POST /api/staff/chat/{token}', r.data.files[0].name, r.data.files[0].url, 'jpg');
    r = await send('POST', `${API}/voting/${w.A.votingId}/protocol`, { file: pdf, type: 'protocol' });
    expect(r.data.protocol.name).toBe('рахунок.pdf');
    await check(`POST ${API}/voting/{id}/protocol`, null, `${API}/voting/${w.A.votingId}/protocol`, 'pdf');
    const [question] = await rows<{ id: number }>(t, sql`select id from voting_questions where voting_id = ${w.A.votingId} order by position limit 1`);
    r = await send('POST', `${API}/voting/${w.A.votingId}/resident/${w.A.memberId}/upload_sheet`, {
      file: pdf,
      type: 'sheet',
      [`answer_${question.id}`]: 'for',
    });
    const sheet = r.data.ballots.at(-1).sheet;
    await check(`POST ${API}/voting/{votingId}/resident/{residentId}/upload_sheet`, sheet.name, sheet.url, 'pdf');

    // Every route that takes a multipart form is either above or keeps no file.
    const KEEPS_NO_FILE: Record<string, string> = {
      [`POST ${API}/members/import`]: 'reads a table into rows; the file itself is not kept',
      [`POST ${API}/advertisement/{id}`]: 'published 0/1 only',
      [`POST ${API}/contacts_groups`]: 'text fields only',
      [`POST ${API}/contacts_groups/{id}`]: 'text fields only',
      [`POST ${API}/contacts_section`]: 'text fields only',
      [`PUT ${API}/contacts_section/{id}`]: 'text fields only',
    };
    // Multipart routes say so in their description (the OpenAPI document carries no form schema).
    const multipart = routes.filter((x) => /multipart/i.test((x.op as { description?: string }).description ?? ''));
    expect(multipart.map((x) => x.key)).toEqual(expect.arrayContaining(Object.keys(w.forms)));
    expect(multipart.filter((x) => !tried.has(x.key) && !(x.key in KEEPS_NO_FILE)).map((x) => x.key)).toEqual([]);
  });

  it('a name that is not a file type keeps its dots; a hidden-file name loses its leading dot', async () => {
    const a = await upload(w.admin, { file: POLYGLOT, name: 'Акт від 01.02.2026', type: 'application/pdf' }, '/media/document');
    expect(a.name).toBe('Акт від 01.02.2026.pdf');
    const b = await upload(w.admin, { file: POLYGLOT, name: '.htaccess', type: 'application/pdf' }, '/media/document');
    expect(b.name).toBe('htaccess.pdf');
    expectSafe(await t.call('GET', b.url, { token: w.admin }), 'hidden name', 'application/pdf', 'pdf');
    const c = await upload(w.admin, { file: PICTURE, name: 'photo.JPEG', type: 'image/jpeg' });
    expect(c.name).toBe('photo.JPEG');
  });
});
