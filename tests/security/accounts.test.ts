import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, users } from '../../server/db/schema.ts';
import { API, createUser, setupApp, uid, UKRAINIAN, type TestApp } from '../api/helpers.ts';
import { multipartBody } from '../api/multipart.ts';
import { rows } from './db.ts';
import { collectRoutes, fillPath, PUBLIC_ROUTES, type Route } from './routes.ts';
import { buildWorld, type World } from './world.ts';

/**
 * Account takeover by a colleague (docs/security.md, section 2). Whoever controls an account's
 * sign-in e-mail or phone, or receives a password link for it, owns it. So: only an admin changes
 * another user's e-mail or phone, or sends a password link to an account that has a password, and
 * the owner is told at the old address; a changed e-mail, phone or password ends the account's
 * sessions; and a password link dies once the password or e-mail it was sent for changes.
 */
let t: TestApp;
let w: World;
let routes: Route[];
let roleId: number;
beforeAll(async () => {
  t = await setupApp();
  w = await buildWorld(t);
  ({ routes } = await collectRoutes(t));
  // The weakest seeded role: any full-rights staff user may manage its holders.
  [{ id: roleId }] = await rows<{ id: number }>(t, sql`select id from staff_roles where organization_id = ${t.organizationId} order by id limit 1`);
});
afterAll(() => t?.close());

const post = (path: string, body: unknown, token?: string) => t.call('POST', `${API}${path}`, { body, token });
const NEW_PASSWORD = 'зовсім-новий-пароль-2026';

interface Account {
  id: number;
  email: string;
  password: string;
  token: string;
}

/** A colleague of complex A who has a password and is signed in. */
async function colleague(): Promise<Account> {
  const user = await createUser(t.db, { organizationId: t.organizationId, roleId, complexIds: [w.A.complexId], phone: null });
  return { id: user.id, email: user.email, password: user.password, token: await t.login(user.email, user.password) };
}

/** A full-rights staff user of complex A (every right on staff included), signed in afresh. */
async function attacker(): Promise<string> {
  return t.login(w.staffA.email, w.staffA.password);
}

/** The newest message to an address. */
async function lastMessage(recipient: string) {
  const [m] = await t.db.select().from(outbox).where(eq(outbox.recipient, recipient)).orderBy(desc(outbox.id)).limit(1);
  return m;
}
const messageCount = async (recipient: string) => (await t.db.select({ id: outbox.id }).from(outbox).where(eq(outbox.recipient, recipient))).length;
const lastCode = async (recipient: string) => /\b(\d{6})\b/.exec((await lastMessage(recipient)).body ?? '')![1];

/** The token of the newest password link mailed to an address. */
async function linkToken(recipient: string): Promise<string> {
  const mail = await lastMessage(recipient);
  expect(mail, `a password link to ${recipient}`).toBeDefined();
  const url = /https?:\/\/\S+ResetPassword\S*/.exec(mail.body ?? '')?.[0];
  expect(url, mail.body ?? '(no readable body)').toBeDefined();
  return new URL(url!).searchParams.get('token')!;
}

const useLink = (token: string, email: string, password = NEW_PASSWORD) => post('/reset_password', { token, email, password, password_confirmation: password });

async function credentials(id: number) {
  const [row] = await t.db.select({ email: users.email, phone: users.phone, passwordHash: users.passwordHash }).from(users).where(eq(users.id, id));
  return row;
}
const alive = async (token: string) => (await t.call('GET', `${API}/user`, { token })).statusCode === 200;

/** The staff form as the SPA sends it, with changes. */
async function staffBody(id: number, changes: Record<string, unknown> = {}) {
  const res = await t.call('GET', `${API}/staff/${id}`, { token: w.admin });
  expect(res.statusCode, res.body).toBe(200);
  const s = res.json().data;
  return { name: s.name, email: s.email, phone: s.phone, is_admin: s.is_admin, role_id: s.role_id, complex_ids: s.complex_ids, ...changes };
}

describe('a colleague with every staff right cannot take an account over', () => {
  it("the review's attack: e-mail changed to the attacker's, then a password link — both refused, nothing changes", async () => {
    const victim = await colleague();
    const token = await attacker();
    const mine = `attacker-${uid()}@test.ua`;
    const before = await credentials(victim.id);

    const put = await t.call('PUT', `${API}/staff/${victim.id}`, { token, body: await staffBody(victim.id, { email: mine }) });
    expect(put.statusCode, put.body).toBe(403);
    expect(put.json().message).toMatch(UKRAINIAN);
    const invite = await post(`/staff/${victim.id}/invite`, {}, token);
    expect(invite.statusCode, invite.body).toBe(403);
    expect(invite.json().message).toMatch(/адміністратор/);

    expect(await credentials(victim.id)).toEqual(before);
    expect(await messageCount(mine)).toBe(0);
    expect(await messageCount(victim.email)).toBe(0);
    expect(await alive(victim.token)).toBe(true);
    // The record tells the SPA not to offer the button.
    expect((await t.call('GET', `${API}/staff/${victim.id}`, { token })).json().data.invitation_pending).toBe(false);
  });

  it("the phone (the SMS sign-in factor) is the admin's to change too", async () => {
    const victim = await colleague();
    const token = await attacker();
    const res = await t.call('PUT', `${API}/staff/${victim.id}`, { token, body: await staffBody(victim.id, { phone: '+380671112233' }) });
    expect(res.statusCode, res.body).toBe(403);
    expect((await credentials(victim.id)).phone).toBeNull();
    expect(await alive(victim.token)).toBe(true);
  });

  it('other fields of a colleague still change (the refusal is about sign-in data only)', async () => {
    const victim = await colleague();
    const res = await t.call('PUT', `${API}/staff/${victim.id}`, {
      token: await attacker(),
      body: await staffBody(victim.id, { name: 'Перейменований Колега' }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.name).toBe('Перейменований Колега');
    expect(await alive(victim.token)).toBe(true);
  });

  it('a pending invitation may still be sent again by the colleague, to the address an admin gave', async () => {
    const created = await t.call('POST', `${API}/staff`, {
      token: await attacker(),
      body: { name: 'Новенька Колега', email: `pending-${uid()}@test.ua`, role_id: roleId, complex_ids: [w.A.complexId] },
    });
    expect(created.statusCode, created.body).toBe(200);
    const pending = created.json().data;
    expect(pending.invitation_pending).toBe(true);
    const again = await post(`/staff/${pending.id}/invite`, {}, await attacker());
    expect(again.statusCode, again.body).toBe(200);
    // …but not to another address: that is the e-mail change the admin alone makes.
    const moved = await t.call('PUT', `${API}/staff/${pending.id}`, {
      token: await attacker(),
      body: await staffBody(pending.id, { email: `elsewhere-${uid()}@test.ua` }),
    });
    expect(moved.statusCode).toBe(403);
    // Once the invitation is accepted the account has a password, and the colleague can send no more links.
    expect((await useLink(await linkToken(pending.email), pending.email)).statusCode).toBe(200);
    expect((await t.call('GET', `${API}/staff/${pending.id}`, { token: w.admin })).json().data.invitation_pending).toBe(false);
    expect((await post(`/staff/${pending.id}/invite`, {}, await attacker())).statusCode).toBe(403);
  });

  it('no write route lets the colleague change another account’s e-mail, phone or password, end its sessions or mail it a password link', async () => {
    // The victim is complex A's colleague whom every `{id}` of /staff names; they accepted their invitation.
    const [victim] = await rows<{ email: string }>(t, sql`select email from users where id = ${w.A.staffId}`);
    if ((await rows(t, sql`select 1 from users where id = ${w.A.staffId} and password_set_at is null`)).length) {
      expect((await useLink(await linkToken(victim.email), victim.email, 'пароль-колеги-2026')).statusCode).toBe(200);
    }
    const victimToken = await t.login(victim.email, 'пароль-колеги-2026');
    const links = async () => (await rows<{ n: number }>(t, sql`select count(*)::int as n from password_resets where user_id = ${w.A.staffId}`))[0].n;
    const state = async () => JSON.stringify({ ...(await credentials(w.A.staffId)), links: await links(), mails: await messageCount(victim.email) });

    const writes = routes.filter((r) => !(r.key in PUBLIC_ROUTES) && (r.method === 'POST' || r.method === 'PUT' || r.method === 'PATCH'));
    const wrong: string[] = [];
    let succeeded = 0;
    for (const r of writes) {
      const token = await attacker();
      const url = fillPath(r.path, w.A) ?? r.path.replace(/\{\w+\}/g, '1');
      const form = w.forms[r.key];
      const before = await state();
      const res = await t.call(r.method, url, form ? { token, ...(await multipartBody(form)) } : { token, body: w.bodies[r.key] });
      if (res.statusCode < 300) succeeded++;
      if (res.statusCode >= 500) wrong.push(`${r.key} → ${res.statusCode}`);
      if ((await state()) !== before) wrong.push(`${r.key} → ${res.statusCode}: changed the victim's sign-in data or mailed them`);
      if (!(await alive(victimToken))) wrong.push(`${r.key} → ${res.statusCode}: ended the victim's session`);
    }
    expect(wrong).toEqual([]);
    expect(writes.some((r) => r.key === `PUT ${API}/staff/{id}`)).toBe(true);
    expect(succeeded).toBeGreaterThan(30);
  });
});

describe('an admin may, and the owner is told', () => {
  it("changes a colleague's e-mail: a notice goes to the old address, every session ends, the password stays", async () => {
    const victim = await colleague();
    const second = await t.login(victim.email, victim.password);
    const email = `moved-${uid()}@test.ua`;
    const res = await t.call('PUT', `${API}/staff/${victim.id}`, { token: w.admin, body: await staffBody(victim.id, { email }) });
    expect(res.statusCode, res.body).toBe(200);
    const notice = await lastMessage(victim.email);
    expect(notice.subject).toMatch(/дані для входу/);
    expect(notice.body).toContain(email);
    expect(notice.body).toMatch(/сеанси завершено/);
    expect(await alive(victim.token)).toBe(false);
    expect(await alive(second)).toBe(false);
    expect((await post('/login', { email, password: victim.password })).statusCode).toBe(200);
  });

  it("changes a colleague's phone: a notice by e-mail, every session ends", async () => {
    const victim = await colleague();
    const res = await t.call('PUT', `${API}/staff/${victim.id}`, { token: w.admin, body: await staffBody(victim.id, { phone: '+380509998877' }) });
    expect(res.statusCode, res.body).toBe(200);
    expect((await lastMessage(victim.email)).body).toContain('+380509998877');
    expect(await alive(victim.token)).toBe(false);
  });

  it('sends a password link to an account that has a password; the mail names the admin and says the old password still works', async () => {
    const victim = await colleague();
    const res = await post(`/staff/${victim.id}/invite`, {}, w.admin);
    expect(res.statusCode, res.body).toBe(200);
    const mail = await lastMessage(victim.email);
    expect(mail.subject).toBe('Посилання для зміни пароля');
    expect(mail.body).toMatch(/Адміністратор/);
    expect(mail.body).toMatch(/діє поточний/);
    expect(await alive(victim.token)).toBe(true);
  });

  it('nobody changes their own e-mail or phone through the staff form: that takes the code in the personal settings', async () => {
    const me = await t.call('GET', `${API}/user`, { token: w.admin });
    const own = me.json().data.id as number;
    const res = await t.call('PUT', `${API}/staff/${own}`, {
      token: w.admin,
      body: await staffBody(own, { email: `self-${uid()}@test.ua`, phone: '+380661234567' }),
    });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.errors.email[0]).toMatch(/особистих налаштуваннях/);
    expect(body.errors.phone[0]).toMatch(/особистих налаштуваннях/);
  });
});

/** Ways a password link is sent, each giving the account and the link. */
const LINKS = {
  'forgotten-password link': async () => {
    const me = await colleague();
    expect((await post('/forgot_password', { email: me.email })).statusCode).toBe(200);
    return { me, token: await linkToken(me.email) };
  },
  "admin's password link": async () => {
    const me = await colleague();
    expect((await post(`/staff/${me.id}/invite`, {}, w.admin)).statusCode).toBe(200);
    return { me, token: await linkToken(me.email) };
  },
};

/** Ways the password or the sign-in e-mail changes after the link went out; each answers the e-mail the account has now. */
const CHANGES: Record<string, (me: Account) => Promise<string>> = {
  'password changed in the settings': async (me) => {
    const res = await post(
      '/setting/change/password',
      { current_password: me.password, password: 'інший-пароль-2026', password_confirmation: 'інший-пароль-2026' },
      me.token,
    );
    expect(res.statusCode, res.body).toBe(200);
    return me.email;
  },
  'password set through a newer link': async (me) => {
    expect((await post('/forgot_password', { email: me.email })).statusCode).toBe(200);
    expect((await useLink(await linkToken(me.email), me.email, 'ще-інший-пароль-2026')).statusCode).toBe(200);
    return me.email;
  },
  'e-mail changed by an admin': async (me) => {
    const email = `changed-${uid()}@test.ua`;
    expect((await t.call('PUT', `${API}/staff/${me.id}`, { token: w.admin, body: await staffBody(me.id, { email }) })).statusCode).toBe(200);
    return email;
  },
  'e-mail changed in the settings': async (me) => {
    const email = `mine-${uid()}@test.ua`;
    expect((await post('/setting/request-code/email', { email, current_password: me.password }, me.token)).statusCode).toBe(200);
    expect((await post('/setting/change/email', { email, code: await lastCode(email) }, me.token)).statusCode).toBe(200);
    return email;
  },
};

describe('a password link dies once the password or e-mail it was sent for changes', () => {
  for (const [link, issue] of Object.entries(LINKS)) {
    for (const [change, apply] of Object.entries(CHANGES)) {
      it(`${link}, then ${change}`, async () => {
        const { me, token } = await issue();
        const email = await apply(me);
        const before = await credentials(me.id);
        // Neither with the address the link was sent to, nor with the one the account has now.
        for (const address of new Set([me.email, email])) {
          const res = await useLink(token, address);
          expect(res.statusCode, `${address}: ${res.body}`).toBe(422);
          expect(res.json().errors.token[0]).toMatch(UKRAINIAN);
        }
        expect(await credentials(me.id)).toEqual(before);
      });
    }
  }

  it('an invitation dies once the invited person has set a password by another link', async () => {
    const created = await t.call('POST', `${API}/staff`, {
      token: w.admin,
      body: { name: 'Запрошена Колега', email: `inv-${uid()}@test.ua`, role_id: roleId, complex_ids: [w.A.complexId] },
    });
    const { email } = created.json().data;
    const invitation = await linkToken(email);
    expect((await post('/forgot_password', { email })).statusCode).toBe(200);
    expect((await useLink(await linkToken(email), email)).statusCode).toBe(200);
    expect((await useLink(invitation, email, 'чужий-пароль-2026')).statusCode).toBe(422);
    expect((await post('/login', { email, password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('control: an untouched link works', async () => {
    const { me, token } = await LINKS['forgotten-password link']();
    expect((await useLink(token, me.email)).statusCode).toBe(200);
  });
});

/** Changes of the sign-in data, who makes them, and which sessions survive. */
const SESSION_CHANGES: Record<string, { run: (me: Account) => Promise<void>; keepsOwn: boolean }> = {
  'own password in the settings': { run: async (me) => void (await CHANGES['password changed in the settings'](me)), keepsOwn: true },
  'own e-mail in the settings': { run: async (me) => void (await CHANGES['e-mail changed in the settings'](me)), keepsOwn: true },
  'own phone in the settings': {
    run: async (me) => {
      const phone = `+38067${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
      expect((await post('/setting/request-code/phone', { phone, current_password: me.password }, me.token)).statusCode).toBe(200);
      const res = await post('/setting/change/phone', { phone, code: await lastCode(phone) }, me.token);
      expect(res.statusCode, res.body).toBe(200);
    },
    keepsOwn: true,
  },
  'password by a reset link': { run: async (me) => void (await CHANGES['password set through a newer link'](me)), keepsOwn: false },
  'e-mail by an admin': { run: async (me) => void (await CHANGES['e-mail changed by an admin'](me)), keepsOwn: false },
  'phone by an admin': {
    run: async (me) => {
      expect((await t.call('PUT', `${API}/staff/${me.id}`, { token: w.admin, body: await staffBody(me.id, { phone: '+380931112233' }) })).statusCode).toBe(200);
    },
    keepsOwn: false,
  },
};

describe('a changed e-mail, phone or password ends the sessions of the account', () => {
  for (const [name, change] of Object.entries(SESSION_CHANGES)) {
    it(`${name}: ${change.keepsOwn ? 'every other session ends, the one that made it stays' : 'every session ends'}`, async () => {
      const me = await colleague();
      const others = [await t.login(me.email, me.password), await t.login(me.email, me.password)];
      await change.run(me);
      for (const other of others) expect(await alive(other)).toBe(false);
      expect(await alive(me.token)).toBe(change.keepsOwn);
    });
  }

  it('control: a change of name ends nothing', async () => {
    const me = await colleague();
    const other = await t.login(me.email, me.password);
    expect((await t.call('PUT', `${API}/staff/${me.id}`, { token: w.admin, body: await staffBody(me.id, { name: 'Нове Імʼя Колеги' }) })).statusCode).toBe(200);
    expect(await alive(other)).toBe(true);
    expect(await alive(me.token)).toBe(true);
  });
});
