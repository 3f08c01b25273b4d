import { randomBytes, randomInt } from 'node:crypto';
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { votingCodes } from '../../db/schema.ts';
import { CODE_RULES, hashChallenge, hashCode, maskTarget, sameHash } from '../../lib/codes.ts';
import type { Delivery } from '../../lib/delivery.ts';
import { HttpError, unprocessable } from '../../lib/errors.ts';

/**
 * One-time codes for co-owners on the public voting page. Co-owners are members, not users, so
 * the codes live in a table of their own, with the rules of server/lib/codes.ts: 6 digits, a
 * salted hash, 10 minutes, single use, 5 wrong attempts void it, once a minute and 5 an hour.
 * A code belongs to the challenge the request answered with, so a code cannot be used on
 * someone else's request.
 */
export function createVotingCodes(db: Db, delivery: Delivery) {
  async function send(input: { votingId: number; participantId: number; organizationId: number; channel: 'email' | 'sms'; target: string; title: string }) {
    const now = Date.now();
    const recent = await db
      .select({ createdAt: votingCodes.createdAt })
      .from(votingCodes)
      .where(and(eq(votingCodes.participantId, input.participantId), gt(votingCodes.createdAt, new Date(now - 3600_000))))
      .orderBy(desc(votingCodes.createdAt));
    const last = recent[0]?.createdAt.getTime();
    if (last !== undefined && now - last < CODE_RULES.resendIntervalMs) {
      const wait = Math.ceil((last + CODE_RULES.resendIntervalMs - now) / 1000);
      throw new HttpError(429, `Новий код можна надіслати через ${wait} с.`, undefined, { 'Retry-After': String(wait) });
    }
    if (recent.length >= CODE_RULES.perHour) {
      const wait = Math.max(1, Math.ceil((recent[recent.length - 1].createdAt.getTime() + 3600_000 - now) / 1000));
      throw new HttpError(429, `Забагато кодів за годину. Спробуйте через ${Math.ceil(wait / 60)} хв.`, undefined, { 'Retry-After': String(wait) });
    }
    const code = String(randomInt(0, 10 ** CODE_RULES.digits)).padStart(CODE_RULES.digits, '0');
    const salt = randomBytes(16).toString('hex');
    const challenge = randomBytes(24).toString('base64url');
    await db.transaction(async (tx) => {
      await tx
        .update(votingCodes)
        .set({ voidedAt: new Date() })
        .where(and(eq(votingCodes.participantId, input.participantId), isNull(votingCodes.usedAt), isNull(votingCodes.voidedAt)));
      await tx.insert(votingCodes).values({
        votingId: input.votingId,
        participantId: input.participantId,
        channel: input.channel,
        target: input.target,
        salt,
        codeHash: hashCode(salt, code),
        challengeHash: hashChallenge(challenge),
        expiresAt: new Date(now + CODE_RULES.ttlMs),
      });
    });
    const body = `Код для голосування на загальних зборах «${input.title}»: ${code}\nКод діє 10 хвилин. Нікому його не повідомляйте.`;
    await delivery.send({ channel: input.channel, to: input.target, organizationId: input.organizationId, subject: `Код для голосування: ${code}`, body });
    return { challenge, sent_to: maskTarget(input.channel, input.target), resend_after: CODE_RULES.resendIntervalMs / 1000, expires_in: CODE_RULES.ttlMs / 1000 };
  }

  /** Checks the code of a challenge and uses it up; 422 under `code` otherwise. */
  async function check(votingId: number, challenge: string, code: string) {
    const fail = (message: string) => unprocessable({ code: [message] });
    const [row] = await db
      .select()
      .from(votingCodes)
      .where(and(eq(votingCodes.challengeHash, hashChallenge(challenge)), eq(votingCodes.votingId, votingId)))
      .limit(1);
    if (!row) throw fail('Невірний код або його не надсилали. Надішліть новий.');
    if (row.usedAt) throw fail('Код уже використано. Надішліть новий.');
    if (row.voidedAt) throw fail('Цей код більше не діє. Надішліть новий.');
    if (row.expiresAt.getTime() <= Date.now()) throw fail('Код застарів. Надішліть новий.');
    if (!sameHash(row.codeHash, hashCode(row.salt, code))) {
      const [after] = await db
        .update(votingCodes)
        .set({ attempts: row.attempts + 1 })
        .where(and(eq(votingCodes.id, row.id), eq(votingCodes.attempts, row.attempts)))
        .returning({ attempts: votingCodes.attempts });
      const used = after?.attempts ?? CODE_RULES.maxAttempts;
      if (used >= CODE_RULES.maxAttempts) {
        await db.update(votingCodes).set({ voidedAt: new Date() }).where(eq(votingCodes.id, row.id));
        throw fail('Забагато невдалих спроб: код анульовано. Надішліть новий.');
      }
      throw fail(`Невірний код. Залишилось спроб: ${CODE_RULES.maxAttempts - used}.`);
    }
    const usedUp = await db
      .update(votingCodes)
      .set({ usedAt: new Date() })
      .where(and(eq(votingCodes.id, row.id), isNull(votingCodes.usedAt), isNull(votingCodes.voidedAt)))
      .returning({ id: votingCodes.id });
    if (usedUp.length === 0) throw fail('Код уже використано. Надішліть новий.');
    return { participantId: row.participantId, channel: row.channel, target: row.target };
  }

  return { send, check };
}
