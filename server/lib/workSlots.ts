import type { FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

/**
 * A limit on heavy work running at once — reading an uploaded spreadsheet, streaming an export:
 * each takes CPU and memory for seconds or minutes, so a handful started together (by one user
 * or by many) would slow every other request of the process. Work beyond the limit is refused at
 * once with 429 and a Ukrainian message instead of being queued.
 */
export interface WorkSlots {
  /**
   * Takes a slot for `userId` or throws 429 (the user's own limit first: their earlier import
   * or export is still running). Returns the function that gives the slot back; calling it more
   * than once is harmless.
   */
  take(userId: number): () => void;
  /** Slots in use: in all, or by one user. */
  inUse(userId?: number): number;
}

export interface WorkLimits {
  /** Imports and exports running at once in this process. */
  perProcess: number;
  /** Imports and exports running at once for one user. */
  perUser: number;
}

export const USER_BUSY = 'Ваш попередній імпорт або експорт ще виконується. Дочекайтеся його завершення й спробуйте знову.';
export const SERVER_BUSY = 'Сервер зараз виконує забагато імпортів і експортів. Спробуйте за хвилину.';

export function createWorkSlots(limits: WorkLimits): WorkSlots {
  let running = 0;
  const byUser = new Map<number, number>();
  return {
    take(userId) {
      const mine = byUser.get(userId) ?? 0;
      if (mine >= limits.perUser) throw new HttpError(429, USER_BUSY, undefined, { 'Retry-After': '10' });
      if (running >= limits.perProcess) throw new HttpError(429, SERVER_BUSY, undefined, { 'Retry-After': '60' });
      running += 1;
      byUser.set(userId, mine + 1);
      let given = false;
      return () => {
        if (given) return;
        given = true;
        running -= 1;
        const left = (byUser.get(userId) ?? 1) - 1;
        if (left > 0) byUser.set(userId, left);
        else byUser.delete(userId);
      };
    },
    inUse(userId) {
      return userId === undefined ? running : (byUser.get(userId) ?? 0);
    },
  };
}

/**
 * Runs `work` in a slot of the signed-in user of `request` (429 when none is free). The slot is
 * given back when the work ends, not when the client goes away: a client that hangs up does not
 * free room for more work while its own is still running.
 */
export async function withWorkSlot<T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> {
  const release = request.server.workSlots.take(request.user.id);
  try {
    return await work();
  } finally {
    release();
  }
}
