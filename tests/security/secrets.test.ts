import { eq, gt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_KINDS, type OutboxRecord } from '../../contract/outbox.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { outbox, users } from '../../server/db/schema.ts';
import { deliveryNotices } from '../../server/lib/delivery.ts';
import { fakeSmsGateway, fakeSmtp } from '../api/fakeTransports.ts';
import { ADMIN, API, createUser, expectFieldError, setupApp, uid, UKRAINIAN, type TestApp } from '../api/helpers.ts';
import { rows } from './db.ts';

/**
 * One-time secrets (reset and invitation links, sign-in and confirmation codes, co-owners' voting
 * codes) reach only their recipient. With a mail server and an SMS gateway nothing readable stays
 * behind: not in the outbox row, not in GET /outbox, not in the delivery job once it is done, not
 * in any table. The development outbox, which does show them, cannot be on in production, and a
 * channel without a transport is not offered (no SMS codes without a gateway).
 */

const PUBLIC = '/api/public/voting';
const post = (t: TestApp, path: string, body: unknown, token?: string) => t.call('POST', `${API}${path}`, { token, body });

async function until(check: () => Promise<boolean>, ms = 30_000) {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The demo meeting's link and a co-owner reachable by e-mail and one by phone only. */
async function demoMeeting(t: TestApp, admin: string) {
  const people = await rows<{ id: number; email: string | null; phone: string | null }>(
    t,
    sql`select v.id, m.email, m.phone from votings v
        join voting_participants p on p.voting_id = v.id join members m on m.id = p.member_id
        where v.organization_id = ${t.organizationId} order by p.id`,
  );
  const byEmail = people.find((p) => p.email)!;
  const byPhone = people.find((p) => p.phone && p.phone !== byEmail.phone)!;
  expect(byEmail && byPhone, 'the demo meeting has co-owners with an e-mail and with a phone').toBeTruthy();
  // The link as staff see it: the database keeps only its hash and a sealed copy.
  const link = await t.call('GET', `${API}/voting/${people[0].id}/deeplink`, { token: admin });
  expect(link.statusCode, link.body).toBe(200);
  return { id: people[0].id, token: (link.json().deeplink as string).split('/').pop()!, email: byEmail.email!, phone: byPhone.phone! };
}

/** The codes ("Код …: 123456") and link tokens ("?token=…") in message texts. */
function secretsIn(texts: string[]) {
  return {
    codes: [...new Set(texts.flatMap((x) => [...x.matchAll(/код[^:\n]*: (\d{6})\b/gi)].map((m) => m[1])))],
    tokens: [...new Set(texts.flatMap((x) => [...x.matchAll(/[?&]token=([A-Za-z0-9_-]{20,})/g)].map((m) => m[1])))],
  };
}

/** Tables whose rows (as text) contain any of the secrets: every table of the app, and the job queue's. */
async function tablesHolding(t: TestApp, secrets: { codes: string[]; tokens: string[] }): Promise<string[]> {
  // A 6-digit code counts where it stands alone ("…: 123456"), not inside a longer number, a
  // timestamp's fraction or a token; the address reference (ids up to a million) is left out.
  const parts = [
    ...(secrets.codes.length ? [`(^|[^0-9A-Za-z._+-])(${secrets.codes.join('|')})([^0-9A-Za-z]|$)`] : []),
    ...(secrets.tokens.length ? [`(${secrets.tokens.join('|')})`] : []),
  ];
  const pattern = parts.join('|');
  const tables = await rows<{ schema: string; name: string }>(
    t,
    sql`select table_schema as schema, table_name as name from information_schema.tables
        where table_type = 'BASE TABLE' and (table_schema = 'public' or (table_schema = 'pgboss' and table_name in ('job', 'archive')))
          and table_name not in ('settlements', 'streets') order by 1, 2`,
  );
  // pgboss.job is partitioned: its rows are read through the parent.
  const found: string[] = [];
  for (const { schema, name } of tables) {
    const [{ n }] = await rows<{ n: number }>(
      t,
      sql`select count(*)::int as n from ${sql.identifier(schema)}.${sql.identifier(name)} x where x::text ~ ${pattern}`,
    );
    if (n > 0) found.push(`${schema}.${name}`);
  }
  return found;
}

describe('with a mail server and an SMS gateway', () => {
  let t: TestApp;
  let admin: string;
  const smtp = fakeSmtp();
  const gateway = fakeSmsGateway();

  beforeAll(async () => {
    t = await setupApp({
      env: {
        SMTP_URL: await smtp.start(),
        SMS_GATEWAY_URL: await gateway.start(),
        SMS_GATEWAY_TOKEN: `gw-${uid()}`,
        JOB_RETRY_DELAY_SECONDS: '0',
        JOB_POLL_SECONDS: '0.5',
      },
    });
    expect(t.config).toMatchObject({ devOutbox: false });
    admin = await t.login(ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    await t?.close();
    await smtp.stop();
    await gateway.stop();
  });

  it('every kind of message reaches its recipient, and afterwards no secret is readable anywhere', async () => {
    const [{ max }] = await rows<{ max: number }>(t, sql`select coalesce(max(id), 0)::int as max from outbox`);
    const mine = () => t.db.select().from(outbox).where(gt(outbox.id, max));

    // One of each kind the product sends, each through its own route.
    const forgetful = await createUser(t.db, { organizationId: t.organizationId });
    expect((await post(t, '/forgot_password', { email: forgetful.email })).statusCode).toBe(200);
    // An invitation (a new colleague), a password link to an account that has a password (an
    // admin's), and the notice to the old address when an admin changes someone's e-mail.
    const roleId = (await t.call('GET', `${API}/staff_role`, { token: admin })).json().data[0].id as number;
    const colleague = await t.call('POST', `${API}/staff`, {
      token: admin,
      body: { name: 'Нова Колега', email: `new-colleague-${uid()}@test.ua`, role_id: roleId, complex_ids: [] },
    });
    expect(colleague.statusCode, colleague.body).toBe(200);
    const invited = await createUser(t.db, { organizationId: t.organizationId });
    expect((await post(t, `/staff/${invited.id}/invite`, {}, admin)).statusCode).toBe(200);
    const renamed = await t.call('PUT', `${API}/staff/${colleague.json().data.id}`, {
      token: admin,
      body: { name: 'Нова Колега', email: `renamed-${uid()}@test.ua`, role_id: roleId, complex_ids: [] },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const me = await createUser(t.db, { organizationId: t.organizationId });
    const myToken = await t.login(me.email, me.password);
    const newPhone = `+38067${String(1000000 + Math.floor(Math.random() * 8999999))}`;
    expect((await post(t, '/setting/request-code/phone', { phone: newPhone, current_password: me.password }, myToken)).statusCode).toBe(200);
    expect((await post(t, '/setting/request-code/email', { email: `new-${uid()}@test.ua`, current_password: me.password }, myToken)).statusCode).toBe(200);
    const twoStep = await createUser(t.db, { organizationId: t.organizationId, phone: `+38093${String(1000000 + Math.floor(Math.random() * 8999999))}` });
    await t.db.update(users).set({ twoFactor: 'phone' }).where(eq(users.id, twoStep.id));
    const signIn = await post(t, '/login', { email: twoStep.email, password: twoStep.password });
    expect(signIn.json()).toMatchObject({ two_factor: 'phone' });
    const meeting = await demoMeeting(t, admin);
    for (const contact of [meeting.email, meeting.phone])
      expect((await t.call('POST', `${PUBLIC}/${meeting.token}/code`, { body: { contact } })).statusCode).toBe(200);
    const invitations = await post(t, `/voting/${meeting.id}/replay-notification`, {}, admin);
    expect(invitations.statusCode, invitations.body).toBe(200);
    expect((await post(t, '/chat', { message: `Питання ${uid()}` }, admin)).statusCode).toBe(200);

    const written = await mine();
    const kinds = new Set(written.map((r) => r.kind));
    expect([...kinds].sort()).toEqual(
      Object.keys(MESSAGE_KINDS)
        .filter((k) => k !== 'message')
        .sort(),
    );
    expect(new Set(written.map((r) => r.channel))).toEqual(new Set(['email', 'sms']));

    // Queued: the rows hold recipient and kind only; the text waits in the delivery job, and
    // only there (this also shows that the scan finds a secret where one is).
    for (const r of written) expect(r, `outbox row ${r.id}`).toMatchObject({ status: 'queued', subject: '', body: null });
    const payloads = (await rows<{ data: { body?: string; subject?: string } }>(t, sql`select data from pgboss.job where name = 'outbox.send'`)).map(
      (j) => `${j.data.subject}\n${j.data.body}`,
    );
    const waiting = secretsIn(payloads);
    expect(waiting.codes.length).toBeGreaterThanOrEqual(5);
    expect(await tablesHolding(t, waiting)).toEqual(['pgboss.job']);

    await t.app.jobs.work();
    await until(async () => (await mine()).every((r) => r.status === 'sent'));

    // What the recipients got: codes and link tokens.
    const texts = [...smtp.messages().map((m) => `${m.headers}\n${m.text}`), ...gateway.requests.map((r) => String((r.body as { text: string }).text))];
    const secrets = secretsIn(texts);
    // Five codes (phone, e-mail, sign-in, two voting codes) and three links (reset, invitation, an
    // admin's password link): the ones that waited.
    expect(secrets.codes.length, texts.join('\n---\n')).toBe(5);
    expect(secrets.tokens.length).toBe(3);
    expect(new Set([...secrets.codes, ...secrets.tokens])).toEqual(new Set([...waiting.codes, ...waiting.tokens]));
    expect(gateway.requests.every((r) => r.authorization === `Bearer ${t.config.smsGateway!.token}`)).toBe(true);

    // The link really is the one that works (the scan below looks for live secrets).
    const reset = new URL(texts.find((x) => x.includes(`email=${encodeURIComponent(forgetful.email)}`))!.match(/https?:\/\/\S*ResetPassword\S*/)![0]);
    const resetDone = await post(t, '/reset_password', {
      token: reset.searchParams.get('token'),
      email: forgetful.email,
      password: 'зовсім-новий-пароль-2026',
      password_confirmation: 'зовсім-новий-пароль-2026',
    });
    expect(resetDone.statusCode, resetDone.body).toBe(200);

    // The admin's view: who, what kind, delivered; never the text.
    const list = await t.call('GET', `${API}/outbox?per_page=1000`, { token: admin });
    expect(list.statusCode).toBe(200);
    const shown = (list.json().data as OutboxRecord[]).filter((m) => m.id > max);
    expect(shown).toHaveLength(written.length);
    for (const m of shown) {
      expect(m).toMatchObject({ body: null, status: 'sent', subject: MESSAGE_KINDS[m.kind], error: null });
      expect(m.sent_at).not.toBeNull();
    }
    for (const secret of [...secrets.codes, ...secrets.tokens]) expect(list.body).not.toContain(secret);

    // Nowhere in the database: the outbox, the finished jobs, any other table.
    await until(async () => (await tablesHolding(t, secrets)).length === 0, 10_000).catch(() => undefined);
    expect(await tablesHolding(t, secrets)).toEqual([]);
  });

  it('text left readable by a development period is erased when the app starts with a transport', async () => {
    const [held] = await t.db
      .insert(outbox)
      .values({
        organizationId: t.organizationId,
        channel: 'sms',
        kind: 'login_code',
        recipient: '+380501112233',
        subject: 'Код: 424242',
        body: 'Ваш код для входу: 424242',
        status: 'held',
      })
      .returning();
    expect(await tablesHolding(t, { codes: ['424242'], tokens: [] })).toEqual(['public.outbox']);
    // A second process starting on the same database.
    const again = await buildApp({ config: t.config, database: { db: t.db, driver: t.driver, close: async () => {} } });
    await again.close();
    const [row] = await t.db.select().from(outbox).where(eq(outbox.id, held.id));
    expect(row).toMatchObject({ subject: '', body: null, status: 'failed' });
    expect(row.error).toMatch(UKRAINIAN);
    expect(await tablesHolding(t, { codes: ['424242'], tokens: [] })).toEqual([]);
  });
});

describe('in production without a mail server or an SMS gateway', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await setupApp({ env: { PUBLIC_URL: 'https://zhk.example.ua' } });
    expect(t.config).toMatchObject({ production: 'PUBLIC_URL=https://zhk.example.ua', devOutbox: false });
    admin = await t.login(ADMIN.email, ADMIN.password);
  });
  afterAll(() => t?.close());

  it('a mail is recorded as not sent, without its text, and the admin reads no link', async () => {
    const user = await createUser(t.db, { organizationId: t.organizationId });
    expect((await post(t, '/forgot_password', { email: user.email })).statusCode).toBe(200);
    const [row] = await t.db.select().from(outbox).where(eq(outbox.recipient, user.email));
    expect(row).toMatchObject({ kind: 'password_reset', status: 'failed', subject: '', body: null });
    expect(row.error).toMatch(/SMTP_URL/);
    const list = await t.call('GET', `${API}/outbox`, { token: admin });
    const shown = (list.json().data as OutboxRecord[]).find((m) => m.id === row.id)!;
    expect(shown).toMatchObject({ body: null, subject: MESSAGE_KINDS.password_reset, status: 'failed' });
    expect(list.body).not.toMatch(/token=/);
  });

  it('offers no SMS code: phone confirmation, SMS sign-in and voting codes by phone are refused alike', async () => {
    const me = await createUser(t.db, { organizationId: t.organizationId, phone: '+380671112299' });
    const token = await t.login(me.email, me.password);
    expect((await t.call('GET', `${API}/user`, { token })).json().data).toMatchObject({ sms_available: false });
    expectFieldError(await post(t, '/setting/request-code/phone', { phone: '+380671112200', current_password: me.password }, token), 'phone');
    expectFieldError(await post(t, '/setting/enable-two-factor/phone', { enable: true, current_password: me.password }, token), 'enable');

    // Someone who turned SMS sign-in on earlier gets the code by e-mail instead, and can turn it off with it.
    await t.db.update(users).set({ twoFactor: 'phone' }).where(eq(users.id, me.id));
    const signIn = await post(t, '/login', { email: me.email, password: me.password });
    expect(signIn.json()).toMatchObject({ two_factor: 'email' });
    const off = await post(t, '/setting/enable-two-factor/phone', { enable: false, current_password: me.password }, token);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().sent_to).toContain('@');
    expect(await t.db.select().from(outbox).where(eq(outbox.channel, 'sms'))).toEqual([]);

    const meeting = await demoMeeting(t, admin);
    expect((await t.call('GET', `${PUBLIC}/${meeting.token}`)).json().data.code_channels).toEqual(['email']);
    const registered = await t.call('POST', `${PUBLIC}/${meeting.token}/code`, { body: { contact: meeting.phone } });
    const unknown = await t.call('POST', `${PUBLIC}/${meeting.token}/code`, { body: { contact: '+380991234567' } });
    expectFieldError(registered, 'contact');
    expect(unknown.statusCode).toBe(registered.statusCode);
    expect(unknown.body).toBe(registered.body);
  });
});

describe('the development outbox', () => {
  const base = { LOG_LEVEL: 'silent' };
  it.each([
    ['no transport, localhost', {}, true],
    ['no transport, PUBLIC_URL on a .test name', { PUBLIC_URL: 'https://zhk.test' }, true],
    ['no transport, 127.0.0.1', { PUBLIC_URL: 'http://127.0.0.1:8080' }, true],
    ['NODE_ENV=production, even on localhost', { NODE_ENV: 'production' }, false],
    ['a public PUBLIC_URL', { PUBLIC_URL: 'https://zhk.example.ua' }, false],
    ['a LAN address', { PUBLIC_URL: 'http://192.168.1.10:8080' }, false],
    ['a look-alike of localhost', { PUBLIC_URL: 'https://localhost.example.ua' }, false],
    ['a mail server', { SMTP_URL: 'smtp://mail.test:25' }, false],
    ['an SMS gateway', { SMS_GATEWAY_URL: 'http://localhost:9000/send', SMS_GATEWAY_TOKEN: 'x' }, false],
  ])('%s: %s', (_name, env, on) => {
    const config = loadConfig({ ...base, ...env });
    expect(config.devOutbox).toBe(on);
    const notices = deliveryNotices(config);
    // When it is on, the start says so in one clear line.
    expect(notices.some((line) => /режим розробки/.test(line) && /outbox/.test(line))).toBe(on);
  });

  it('production without transports warns at start that mail and SMS do not go out', () => {
    const notices = deliveryNotices(loadConfig({ ...base, NODE_ENV: 'production' }));
    expect(notices.join('\n')).toMatch(/SMTP_URL/);
    expect(notices.join('\n')).toMatch(/SMS_GATEWAY_URL/);
    expect(
      deliveryNotices(
        loadConfig({ ...base, NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example.ua', SMS_GATEWAY_URL: 'https://sms.example.ua', SMS_GATEWAY_TOKEN: 'x' }),
      ),
    ).toEqual([]);
  });
});
