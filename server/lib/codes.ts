import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { and, count, desc, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { verificationCodes, type CodePurpose } from '../db/schema.ts';
import type { Delivery } from './delivery.ts';
import { HttpError, unprocessable } from './errors.ts';

export const CODE_RULES = {
  digits: 6,
  ttlMs: 10 * 60_000,
  maxAttempts: 5,
  /** a new code for the same purpose at most once a minute… */
  resendIntervalMs: 60_000,
  /** …and at most this many an hour */
  perHour: 5,
} as const;

export const hashCode = (salt: string, code: string) => createHash('sha256').update(`${salt}:${code}`).digest('hex');
export const hashChallenge = (challenge: string) => createHash('sha256').update(`challenge:${challenge}`).digest('hex');

export function sameHash(a: string, b: string) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** «+380 67 *** ** 67» / «o***a@gmail.com»: where the code went, without giving the address away. */
export function maskTarget(channel: 'email' | 'sms', target: string): string {
  if (channel === 'sms') return target.length > 6 ? `${target.slice(0, 6)}*****${target.slice(-2)}` : target;
  const [local, domain] = target.split('@');
  return `${local.slice(0, 1)}***${local.length > 1 ? local.slice(-1) : ''}@${domain}`;
}

/** 429 when a code for the same thing went out less than a minute ago, or `perHour` went out this hour. */
export function assertResendAllowed(recentNewestFirst: Date[], limits: { resendIntervalMs: number; perHour: number } = CODE_RULES, now = Date.now()) {
  const last = recentNewestFirst[0]?.getTime();
  if (last !== undefined && now - last < limits.resendIntervalMs) {
    const wait = Math.ceil((last + limits.resendIntervalMs - now) / 1000);
    throw new HttpError(429, `Новий код можна надіслати через ${wait} с.`, undefined, { 'Retry-After': String(wait) });
  }
  if (recentNewestFirst.length >= limits.perHour) {
    const oldest = recentNewestFirst[recentNewestFirst.length - 1].getTime();
    const wait = Math.max(1, Math.ceil((oldest + 3600_000 - now) / 1000));
    throw new HttpError(429, `Забагато кодів за годину. Спробуйте через ${Math.ceil(wait / 60)} хв.`, undefined, { 'Retry-After': String(wait) });
  }
}

/** A fresh code with the salt and hash to store (the code itself only goes into the message). */
export function newCode() {
  const code = String(randomInt(0, 10 ** CODE_RULES.digits)).padStart(CODE_RULES.digits, '0');
  const salt = randomBytes(16).toString('hex');
  return { code, salt, codeHash: hashCode(salt, code) };
}

/** The stored code a check compares with, and the guarded updates its table offers. */
export interface StoredCode {
  id: number;
  attempts: number;
  salt: string;
  codeHash: string;
  expiresAt: Date;
}
export interface CodeStore {
  /** attempts + 1 where attempts is still `seen`; the new count, or undefined when another guess got there first */
  countAttempt(id: number, seen: number): Promise<number | undefined>;
  voidCode(id: number): Promise<void>;
  /** marks it used where it is still live; false when it was not */
  useUp(id: number): Promise<boolean>;
}

/**
 * Compares a code with the stored one and uses it up: expired, wrong (5 wrong void it) or
 * already used throw `fail(message)`. Attempts are counted in one guarded statement, so
 * parallel guesses cannot get past the limit.
 */
export async function consumeCode(row: StoredCode, code: string, store: CodeStore, fail: (message: string) => Error): Promise<void> {
  if (row.expiresAt.getTime() <= Date.now()) throw fail('Код застарів. Надішліть новий.');
  if (!sameHash(row.codeHash, hashCode(row.salt, code))) {
    const used = (await store.countAttempt(row.id, row.attempts)) ?? CODE_RULES.maxAttempts;
    if (used >= CODE_RULES.maxAttempts) {
      await store.voidCode(row.id);
      throw fail('Забагато невдалих спроб: код анульовано. Надішліть новий.');
    }
    throw fail(`Невірний код. Залишилось спроб: ${CODE_RULES.maxAttempts - used}.`);
  }
  if (!(await store.useUp(row.id))) throw fail('Код уже використано. Надішліть новий.');
}

const WHAT: Record<CodePurpose, string> = {
  phone: 'підтвердження нового номера телефону',
  email: 'підтвердження нової адреси e-mail',
  two_factor_phone: 'зміни двоетапного входу',
  two_factor_email: 'зміни двоетапного входу',
  login: 'входу',
};

export interface SendCodeInput {
  userId: number;
  organizationId: number;
  purpose: CodePurpose;
  channel: 'email' | 'sms';
  target: string;
  /** sign-in only: the challenge the client will come back with */
  challenge?: string;
  /** limits other than the defaults (sign-in sends a code on every correct password) */
  limits?: { resendIntervalMs: number; perHour: number };
}

export interface CheckCodeInput {
  userId: number;
  purpose: CodePurpose;
  code: string;
  /** when given, the code must have been sent to this phone or e-mail */
  target?: string;
  /** sign-in only: the code must belong to this challenge */
  challenge?: string;
  /** the field the SPA shows the error under */
  field?: string;
}

/**
 * One-time codes: 6 random digits, stored as a salted hash, valid 10 minutes, single use; five
 * wrong attempts void the code; a new code replaces the previous one of the same purpose and
 * may be asked for once a minute and five times an hour (429 with Retry-After). The code is
 * only ever in the message body, never in a log line.
 */
export function createCodeService(db: Db, delivery: Delivery) {
  const store: CodeStore = {
    async countAttempt(id, seen) {
      const [after] = await db
        .update(verificationCodes)
        .set({ attempts: seen + 1 })
        .where(and(eq(verificationCodes.id, id), eq(verificationCodes.attempts, seen)))
        .returning({ attempts: verificationCodes.attempts });
      return after?.attempts;
    },
    async voidCode(id) {
      await db.update(verificationCodes).set({ voidedAt: new Date() }).where(eq(verificationCodes.id, id));
    },
    async useUp(id) {
      const rows = await db
        .update(verificationCodes)
        .set({ usedAt: new Date() })
        .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.usedAt), isNull(verificationCodes.voidedAt)))
        .returning({ id: verificationCodes.id });
      return rows.length > 0;
    },
  };
  async function send(input: SendCodeInput): Promise<{ resend_after: number; expires_in: number; sent_to: string }> {
    const now = Date.now();
    const recent = await db
      .select({ createdAt: verificationCodes.createdAt })
      .from(verificationCodes)
      .where(
        and(
          eq(verificationCodes.userId, input.userId),
          eq(verificationCodes.purpose, input.purpose),
          gt(verificationCodes.createdAt, new Date(now - 3600_000)),
        ),
      )
      .orderBy(desc(verificationCodes.createdAt));
    assertResendAllowed(
      recent.map((r) => r.createdAt),
      input.limits ?? CODE_RULES,
      now,
    );
    const { code, salt, codeHash } = newCode();
    await db.transaction(async (tx) => {
      await tx
        .update(verificationCodes)
        .set({ voidedAt: new Date() })
        .where(
          and(
            eq(verificationCodes.userId, input.userId),
            eq(verificationCodes.purpose, input.purpose),
            isNull(verificationCodes.usedAt),
            isNull(verificationCodes.voidedAt),
          ),
        );
      await tx.insert(verificationCodes).values({
        userId: input.userId,
        purpose: input.purpose,
        channel: input.channel,
        target: input.target,
        salt,
        codeHash,
        challengeHash: input.challenge ? hashChallenge(input.challenge) : null,
        expiresAt: new Date(now + CODE_RULES.ttlMs),
      });
    });
    const body = `Ваш код для ${WHAT[input.purpose]}: ${code}\nКод діє 10 хвилин. Нікому його не повідомляйте.`;
    await delivery.send({
      channel: input.channel,
      kind: input.purpose === 'login' ? 'login_code' : 'confirmation_code',
      to: input.target,
      organizationId: input.organizationId,
      subject: `Код підтвердження: ${code}`,
      body,
    });
    return { resend_after: CODE_RULES.resendIntervalMs / 1000, expires_in: CODE_RULES.ttlMs / 1000, sent_to: maskTarget(input.channel, input.target) };
  }

  /** Checks and uses up the latest live code of the purpose; throws 422 under `field` when it does not match. */
  async function check(input: CheckCodeInput): Promise<{ target: string; channel: 'email' | 'sms' }> {
    const field = input.field ?? 'code';
    const fail = (message: string) => unprocessable({ [field]: [message] });
    const [row] = await db
      .select()
      .from(verificationCodes)
      .where(
        and(
          eq(verificationCodes.userId, input.userId),
          eq(verificationCodes.purpose, input.purpose),
          isNull(verificationCodes.usedAt),
          isNull(verificationCodes.voidedAt),
        ),
      )
      .orderBy(desc(verificationCodes.createdAt))
      .limit(1);
    if (!row || (input.challenge !== undefined && row.challengeHash !== hashChallenge(input.challenge))) throw fail('Спершу надішліть код.');
    if (input.target !== undefined && row.target !== input.target) throw fail('Код надіслано на іншу адресу. Надішліть код ще раз.');
    await consumeCode(row, input.code, store, fail);
    return { target: row.target, channel: row.channel };
  }

  /** The live sign-in code row for a challenge (first step of a two-factor sign-in). */
  async function loginChallenge(challenge: string) {
    const [row] = await db
      .select({
        userId: verificationCodes.userId,
        channel: verificationCodes.channel,
        target: verificationCodes.target,
        createdAt: verificationCodes.createdAt,
      })
      .from(verificationCodes)
      .where(and(eq(verificationCodes.challengeHash, hashChallenge(challenge)), eq(verificationCodes.purpose, 'login')))
      .limit(1);
    return row;
  }

  async function sentWithin(userId: number, purpose: CodePurpose, ms: number) {
    const [{ n }] = await db
      .select({ n: count() })
      .from(verificationCodes)
      .where(and(eq(verificationCodes.userId, userId), eq(verificationCodes.purpose, purpose), gt(verificationCodes.createdAt, new Date(Date.now() - ms))));
    return n;
  }

  return { send, check, loginChallenge, sentWithin };
}

export type CodeService = ReturnType<typeof createCodeService>;
