import { and, count, eq, gt, inArray, isNull, lt, ne } from 'drizzle-orm';
import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { authTokens, passwordResets, signInClients, userComplexes, complexes, users, staffRoles } from '../../db/schema.ts';
import { FULL_RULES, normaliseRules } from '../../../contract/permissions.ts';
import { CODE_RULES, createCodeService } from '../../lib/codes.ts';
import type { Delivery } from '../../lib/delivery.ts';
import { unprocessable } from '../../lib/errors.ts';
import { accessChanged, type LiveBus } from '../../lib/live.ts';
import { assertUncommonPassword } from '../../lib/passwords.ts';
import { dummyPasswordHash, hashPassword, hashToken, newToken, verifyPassword } from '../../lib/secrets.ts';
import { accountStamp, endSessions, openSession } from '../../lib/sessions.ts';
import { clientNetwork, createThrottle, MINUTE_MS, tooManyAttempts, type Check } from '../../lib/throttle.ts';
import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Sign-in throttling (docs/decisions.md, "Throttling"). A client is a browser known by its device
 * cookie, else its network (an IPv4 address or an IPv6 /64). A client is *known* to an account
 * once it signed in to it successfully (within KNOWN_CLIENT_TTL_MS).
 */
export const SIGN_IN_LIMITS = {
  /** failures of one account from one client, whether known or not */
  pair: { windowMs: 60 * MINUTE_MS, free: 5, firstWaitMs: MINUTE_MS, maxWaitMs: 15 * MINUTE_MS },
  /** failures of one account from clients it does not know; only such clients wait for it */
  account: { windowMs: 60 * MINUTE_MS, free: 5, firstWaitMs: MINUTE_MS, maxWaitMs: 15 * MINUTE_MS },
  /** failures from one network on accounts that do not know it (password spraying); only such attempts wait */
  network: { windowMs: 15 * MINUTE_MS, free: 20, firstWaitMs: MINUTE_MS, maxWaitMs: 15 * MINUTE_MS },
};
/** A client stays known this long after its last successful sign-in; so lives the device cookie. */
export const KNOWN_CLIENT_TTL_MS = 90 * 24 * 60 * MINUTE_MS;
/** The browser's device cookie: a random value, sent back only to the sign-in routes. */
export const DEVICE_COOKIE = 'zhk_device';
const DEVICE_VALUE = /^[A-Za-z0-9_-]{43}$/;

/** Who is signing in, as far as throttling is concerned. */
export interface SignInClient {
  ip: string;
  /** the device cookie the browser sent, if any (checked here) */
  device?: string;
}

const tooManySignIns = (seconds: number) => tooManyAttempts(seconds, 'Забагато невдалих спроб входу.');

export const RESET_TTL_MS = 60 * 60_000;
/** An invitation link lasts longer than a reset link: the new colleague may read it days later. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60_000;
const RESETS_PER_HOUR = 3;

/**
 * The reset_token that GET /user shows a user who must change their password: derived from
 * the current password hash (secret, server-side), so it is stable while the password stays
 * and dies with the change — reading it never writes, and it cannot be used twice.
 */
export function forcedChangeToken(userId: number, passwordHash: string): string {
  return createHash('sha256').update(`forced-change:${userId}:${passwordHash}`).digest('base64url');
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A second-factor code goes out on every correct password, so sign-in has its own limits. */
const LOGIN_CODE_LIMITS = { resendIntervalMs: 0, perHour: 10 };

/** The account a password link is issued for: the link is bound to its password and e-mail. */
interface LinkAccount {
  id: number;
  name: string;
  email: string;
  organizationId: number;
  passwordHash: string;
}

export function createAuthService(db: Db, config: AppConfig, delivery: Delivery, live: LiveBus) {
  const hashCost = config.passwordHashCost;
  const codes = createCodeService(db, delivery);
  const throttle = createThrottle(db);

  /**
   * First step of a two-factor sign-in: a code to the user's channel and a challenge to come back
   * with. SMS sign-in falls back to the account's e-mail while no SMS can be sent (no gateway), so
   * nobody is locked out and no code waits where only an admin could read it.
   */
  async function sendLoginCode(
    user: { id: number; organizationId: number; email: string; phone: string | null; twoFactor: 'phone' | 'email' },
    limits = LOGIN_CODE_LIMITS,
  ) {
    const challenge = newToken().token;
    const bySms = user.twoFactor === 'phone' && user.phone !== null && delivery.canSend('sms');
    const target = bySms ? user.phone! : user.email;
    const channel = bySms ? 'sms' : 'email';
    const sent = await codes.send({ userId: user.id, organizationId: user.organizationId, purpose: 'login', channel, target, challenge, limits });
    return {
      two_factor: channel === 'sms' ? ('phone' as const) : ('email' as const),
      challenge,
      message: `Код для входу надіслано на ${sent.sent_to}.`,
      ...sent,
    };
  }

  async function issueToken(user: { id: number; organizationId: number }) {
    const token = await openSession(db, live, user, config.tokenTtlSeconds);
    return { access_token: token, token_type: 'bearer' as const, expires_in: config.tokenTtlSeconds };
  }

  async function createReset(account: LinkAccount, ttlMs = RESET_TTL_MS) {
    const { token, hash } = newToken();
    await db
      .insert(passwordResets)
      .values({ userId: account.id, tokenHash: hash, expiresAt: new Date(Date.now() + ttlMs), accountStamp: accountStamp(account) });
    return token;
  }

  /** The clients among `candidates` that signed in to the account of `email` lately (none for an unknown e-mail). */
  async function knownClients(email: string, candidates: string[]): Promise<string[]> {
    const rows = await db
      .select({ client: signInClients.client })
      .from(signInClients)
      .innerJoin(users, eq(users.id, signInClients.userId))
      .where(
        and(eq(users.email, email), inArray(signInClients.client, candidates), gt(signInClients.lastSuccessAt, new Date(Date.now() - KNOWN_CLIENT_TTL_MS))),
      );
    return rows.map((r) => r.client);
  }

  /**
   * After a successful sign-in: this network and this browser are known to the account from now
   * on. The browser keeps its device cookie when the server issued it before (one browser, one
   * value, whichever accounts sign in on it), otherwise it gets a new one. Returns the value.
   */
  async function rememberClient(userId: number, client: SignInClient): Promise<string> {
    let device = client.device && DEVICE_VALUE.test(client.device) ? client.device : undefined;
    if (device) {
      const [issued] = await db
        .select({ userId: signInClients.userId })
        .from(signInClients)
        .where(eq(signInClients.client, `device:${hashToken(device)}`))
        .limit(1);
      if (!issued) device = undefined;
    }
    device ??= newToken().token;
    const now = new Date();
    await db
      .insert(signInClients)
      .values([`device:${hashToken(device)}`, `ip:${clientNetwork(client.ip)}`].map((c) => ({ userId, client: c, lastSuccessAt: now })))
      .onConflictDoUpdate({ target: [signInClients.userId, signInClients.client], set: { lastSuccessAt: now } });
    await db.delete(signInClients).where(and(eq(signInClients.userId, userId), lt(signInClients.lastSuccessAt, new Date(now.getTime() - KNOWN_CLIENT_TTL_MS))));
    return device;
  }

  /** A new password is in place: every session of the user ends, and so do their live streams. */
  async function passwordReplaced(userId: number, organizationId: number) {
    await endSessions(db, userId);
    await accessChanged(live, organizationId, [userId]);
  }

  const resetLink = (token: string, email: string) => `${config.publicUrl}/ResetPassword?token=${encodeURIComponent(token)}&email=${encodeURIComponent(email)}`;

  return {
    /**
     * First (or only) step of a sign-in. The answer is the same for an unknown e-mail as for a
     * known one reached from a client it does not know: the same limits, checks and wait.
     * `device` is the device cookie to set when the sign-in issued a token.
     */
    async login(
      email: string,
      password: string,
      client: SignInClient,
    ): Promise<{ answer: Awaited<ReturnType<typeof issueToken | typeof sendLoginCode>>; device?: string }> {
      const network = `ip:${clientNetwork(client.ip)}`;
      const device = client.device && DEVICE_VALUE.test(client.device) ? `device:${hashToken(client.device)}` : undefined;
      const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
      const known = await knownClients(email, device ? [device, network] : [network]);
      const clientKey = device && known.includes(device) ? device : network;
      const pairKey = `pair:${email} ${clientKey}`;
      const checks: Check[] = [{ key: pairKey, limit: SIGN_IN_LIMITS.pair }];
      if (known.length === 0) checks.push({ key: `account:${email}`, limit: SIGN_IN_LIMITS.account }, { key: network, limit: SIGN_IN_LIMITS.network });
      const attempt = await throttle.begin(checks, tooManySignIns);
      const ok = user ? await verifyPassword(user.passwordHash, password) : (await verifyPassword(await dummyPasswordHash(hashCost), password), false);
      if (!user || !ok) throw unprocessable({ email: ['Невірний e-mail або пароль.'] });
      // The right password from this client: its own failures are forgiven, other clients' are not.
      await attempt.passed([pairKey]);
      if (user.twoFactor) return { answer: await sendLoginCode({ ...user, twoFactor: user.twoFactor }) };
      return { answer: await issueToken(user), device: await rememberClient(user.id, client) };
    },

    /** Second step of a two-factor sign-in: the code for the challenge issues the token. */
    async loginWithCode(challenge: string, code: string, client: SignInClient) {
      const row = await codes.loginChallenge(challenge);
      if (!row) throw unprocessable({ code: ['Почніть вхід спочатку.'] });
      await codes.check({ userId: row.userId, purpose: 'login', code, challenge });
      const [user] = await db.select({ id: users.id, organizationId: users.organizationId }).from(users).where(eq(users.id, row.userId));
      if (!user) throw unprocessable({ code: ['Почніть вхід спочатку.'] });
      return { answer: await issueToken(user), device: await rememberClient(user.id, client) };
    },

    /** A new sign-in code (and challenge) for a challenge of the last 10 minutes. */
    async resendLoginCode(challenge: string) {
      const row = await codes.loginChallenge(challenge);
      if (!row || row.createdAt.getTime() < Date.now() - CODE_RULES.ttlMs) throw unprocessable({ code: ['Почніть вхід спочатку.'] });
      const [user] = await db.select().from(users).where(eq(users.id, row.userId));
      if (!user?.twoFactor) throw unprocessable({ code: ['Почніть вхід спочатку.'] });
      return sendLoginCode({ ...user, twoFactor: user.twoFactor }, { resendIntervalMs: CODE_RULES.resendIntervalMs, perHour: LOGIN_CODE_LIMITS.perHour });
    },

    async logout(user: { id: number; organizationId: number; tokenId: number }) {
      await db.update(authTokens).set({ revokedAt: new Date() }).where(eq(authTokens.id, user.tokenId));
      await accessChanged(live, user.organizationId, [user.id]);
    },

    async profile(userId: number) {
      const [user] = await db
        .select({
          id: users.id,
          name: users.name,
          email: users.email,
          phone: users.phone,
          isAdmin: users.isAdmin,
          organizationId: users.organizationId,
          mustChangePassword: users.mustChangePassword,
          tutorialCompleted: users.tutorialCompleted,
          twoFactor: users.twoFactor,
          passwordHash: users.passwordHash,
          permissions: staffRoles.permissions,
        })
        .from(users)
        .leftJoin(staffRoles, eq(staffRoles.id, users.roleId))
        .where(eq(users.id, userId));
      const visible = user.isAdmin
        ? await db
            .select({ id: complexes.id, name: complexes.name })
            .from(complexes)
            .where(eq(complexes.organizationId, user.organizationId))
            .orderBy(complexes.id)
        : await db
            .select({ id: complexes.id, name: complexes.name })
            .from(complexes)
            .innerJoin(userComplexes, eq(userComplexes.complexId, complexes.id))
            .where(eq(userComplexes.userId, userId))
            .orderBy(complexes.id);
      return {
        id: user.id,
        name: user.name,
        email: user.email,
        phone: user.phone,
        reset_token: user.mustChangePassword ? forcedChangeToken(userId, user.passwordHash) : null,
        tutorial_completed: user.tutorialCompleted,
        rules: user.isAdmin ? FULL_RULES : normaliseRules(user.permissions ?? {}),
        complexes: visible,
        two_factor: user.twoFactor,
        is_admin: user.isAdmin,
        sms_available: delivery.canSend('sms'),
      };
    },

    async forgotPassword(email: string) {
      const [user] = await db
        .select({ id: users.id, name: users.name, email: users.email, organizationId: users.organizationId, passwordHash: users.passwordHash })
        .from(users)
        .where(eq(users.email, email))
        .limit(1);
      if (!user) return;
      const [{ recent }] = await db
        .select({ recent: count() })
        .from(passwordResets)
        .where(and(eq(passwordResets.userId, user.id), gt(passwordResets.createdAt, new Date(Date.now() - 60 * 60_000))));
      if (recent >= RESETS_PER_HOUR) return;
      const link = resetLink(await createReset(user), email);
      await delivery.send({
        channel: 'email',
        kind: 'password_reset',
        to: email,
        organizationId: user.organizationId,
        subject: 'Відновлення пароля',
        body:
          `Вітаємо, ${user.name}!\n\nЩоб задати новий пароль, перейдіть за посиланням (діє 60 хвилин):\n${link}\n\nЯкщо ви не ` +
          `просили відновити пароль, просто проігноруйте цей лист.`,
      });
    },

    /**
     * A password link sent by a colleague. To an account whose owner has not chosen a password
     * yet it is the invitation (the same single-use mechanism as «Забули пароль?», valid 7 days).
     * To an account that has a password (only an admin sends that) it is a 60-minute link to set
     * a new one, and the mail says who sent it: the current password keeps working until then.
     */
    async invite(user: LinkAccount & { passwordSetAt: Date | null }, invitedBy: string) {
      if (user.passwordSetAt === null) {
        const link = resetLink(await createReset(user, INVITE_TTL_MS), user.email);
        await delivery.send({
          channel: 'email',
          kind: 'staff_invitation',
          to: user.email,
          organizationId: user.organizationId,
          subject: 'Запрошення до адмін-панелі ЖК',
          body:
            `Вітаємо, ${user.name}!\n\n${invitedBy} запрошує вас до адмін-панелі керуючої компанії. Щоб задати пароль і увійти, ` +
            `перейдіть за посиланням (діє 7 днів):\n${link}\n\nВаш логін — ця адреса e-mail.`,
        });
        return;
      }
      const link = resetLink(await createReset(user), user.email);
      await delivery.send({
        channel: 'email',
        kind: 'password_link',
        to: user.email,
        organizationId: user.organizationId,
        subject: 'Посилання для зміни пароля',
        body:
          `Вітаємо, ${user.name}!\n\nАдміністратор ${invitedBy} надіслав вам посилання, щоб задати новий пароль до адмін-панелі ` +
          `керуючої компанії (діє 60 хвилин):\n${link}\n\nДоки ви не задасте новий пароль, діє поточний. Якщо ви про це не просили, ` +
          `проігноруйте лист і повідомте адміністратора.`,
      });
    },

    /**
     * A new password by an e-mailed link (or the forced change). The link proves the mailbox, so
     * the client that used it becomes known to the account, as after a sign-in: the way back in
     * for an owner whose new browser waits while someone guesses at the account. Returns the
     * device cookie to set.
     */
    async resetPassword(input: { token: string; email: string; password: string }, client: SignInClient): Promise<{ device: string }> {
      assertUncommonPassword(input.password);
      const invalid = () => unprocessable({ token: ['Посилання для відновлення недійсне або застаріле. Надішліть запит ще раз.'] });
      const [row] = await db
        .select({
          id: passwordResets.id,
          stamp: passwordResets.accountStamp,
          userId: users.id,
          organizationId: users.organizationId,
          email: users.email,
          passwordHash: users.passwordHash,
        })
        .from(passwordResets)
        .innerJoin(users, eq(users.id, passwordResets.userId))
        .where(and(eq(passwordResets.tokenHash, hashToken(input.token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date())))
        .limit(1);
      // A link serves only the account as it was when the link was sent: a password or e-mail
      // changed since (by anyone, in any way) voids it.
      const linkValid = row !== undefined && row.email === input.email && row.stamp !== null && safeEqual(row.stamp, accountStamp(row));
      if (!linkValid) {
        const [forced] = await db
          .select({ id: users.id, organizationId: users.organizationId, passwordHash: users.passwordHash, must: users.mustChangePassword })
          .from(users)
          .where(eq(users.email, input.email))
          .limit(1);
        if (!forced?.must || !safeEqual(forcedChangeToken(forced.id, forced.passwordHash), input.token)) throw invalid();
        const passwordHash = await hashPassword(input.password, hashCost);
        // Guarded by the old hash, so the same token cannot be used twice.
        const changed = await db
          .update(users)
          .set({ passwordHash, mustChangePassword: false, passwordSetAt: new Date(), updatedAt: new Date() })
          .where(and(eq(users.id, forced.id), eq(users.passwordHash, forced.passwordHash)))
          .returning({ id: users.id });
        if (changed.length === 0) throw invalid();
        await passwordReplaced(forced.id, forced.organizationId);
        return { device: await rememberClient(forced.id, client) };
      }
      const passwordHash = await hashPassword(input.password, hashCost);
      await db.transaction(async (tx) => {
        // Marking used inside the transaction with a guard makes the token single-use even under races.
        const used = await tx
          .update(passwordResets)
          .set({ usedAt: new Date() })
          .where(and(eq(passwordResets.id, row.id), isNull(passwordResets.usedAt)))
          .returning({ id: passwordResets.id });
        if (used.length === 0) throw invalid();
        // …and guarded by the account as the link was checked against: a change meanwhile voids it.
        const changed = await tx
          .update(users)
          .set({ passwordHash, mustChangePassword: false, passwordSetAt: new Date(), updatedAt: new Date() })
          .where(and(eq(users.id, row.userId), eq(users.passwordHash, row.passwordHash), eq(users.email, row.email)))
          .returning({ id: users.id });
        if (changed.length === 0) throw invalid();
        await endSessions(tx, row.userId);
        await tx
          .update(passwordResets)
          .set({ usedAt: new Date() })
          .where(and(eq(passwordResets.userId, row.userId), isNull(passwordResets.usedAt), ne(passwordResets.id, row.id)));
      });
      await accessChanged(live, row.organizationId, [row.userId]);
      return { device: await rememberClient(row.userId, client) };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
