import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { votingCodes } from '../../db/schema.ts';
import { CODE_RULES, consumeCode, hashChallenge, maskTarget, newCode, type CodeStore } from '../../lib/codes.ts';
import type { Delivery } from '../../lib/delivery.ts';
import { unprocessable } from '../../lib/errors.ts';

/**
 * One-time codes for co-owners on the public voting page. Co-owners are members, not users, so
 * the codes live in a table of their own, with the rules of server/lib/codes.ts: 6 digits, a
 * salted hash, 10 minutes, single use, 5 wrong attempts void it. How often a code may be asked
 * for (once a minute and 5 an hour per address) is the route's limit, which holds for unknown
 * addresses alike, so that a refusal does not tell a co-owner's address from any other.
 * A code belongs to the challenge the request answered with, so a code cannot be used on
 * someone else's request.
 */
export function createVotingCodes(db: Db, delivery: Delivery) {
  const store: CodeStore = {
    async countAttempt(id, seen) {
      const [after] = await db
        .update(votingCodes)
        .set({ attempts: seen + 1 })
        .where(and(eq(votingCodes.id, id), eq(votingCodes.attempts, seen)))
        .returning({ attempts: votingCodes.attempts });
      return after?.attempts;
    },
    async voidCode(id) {
      await db.update(votingCodes).set({ voidedAt: new Date() }).where(eq(votingCodes.id, id));
    },
    async useUp(id) {
      const rows = await db
        .update(votingCodes)
        .set({ usedAt: new Date() })
        .where(and(eq(votingCodes.id, id), isNull(votingCodes.usedAt), isNull(votingCodes.voidedAt)))
        .returning({ id: votingCodes.id });
      return rows.length > 0;
    },
  };
  /** The caller limits how often (per address, client and link, the same for unknown addresses). */
  async function send(input: { votingId: number; participantId: number; organizationId: number; channel: 'email' | 'sms'; target: string; title: string }) {
    const now = Date.now();
    const { code, salt, codeHash } = newCode();
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
        codeHash,
        challengeHash: hashChallenge(challenge),
        expiresAt: new Date(now + CODE_RULES.ttlMs),
      });
    });
    const body = `Код для голосування на загальних зборах «${input.title}»: ${code}\nКод діє 10 хвилин. Нікому його не повідомляйте.`;
    await delivery.send({
      channel: input.channel,
      kind: 'voting_code',
      to: input.target,
      organizationId: input.organizationId,
      subject: `Код для голосування: ${code}`,
      body,
    });
    return {
      challenge,
      sent_to: maskTarget(input.channel, input.target),
      resend_after: CODE_RULES.resendIntervalMs / 1000,
      expires_in: CODE_RULES.ttlMs / 1000,
    };
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
    await consumeCode(row, code, store, fail);
    return { participantId: row.participantId, channel: row.channel, target: row.target };
  }

  return { send, check };
}
