import { HttpError, type Identifier } from 'react-admin';
import type { BulkAnswer, BulkRefusal } from '../../contract/bulk';

/**
 * Some of the selected rows were not changed (or deleted): which were, and why the others were not
 * (the API's message for each, as its own change would have answered). The list's bulk actions
 * show it (src/components/bulk.tsx); the rows that could change have changed.
 */
export class BulkRefusalError extends HttpError {
  constructor(
    message: string,
    readonly done: Identifier[],
    readonly refused: BulkRefusal[],
  ) {
    super(message, 422, { done, refused });
    // react-admin's HttpError sets its own prototype, which would hide this class from `instanceof`.
    Object.setPrototypeOf(this, BulkRefusalError.prototype);
  }
}

const isBulkAnswer = (body: unknown): body is BulkAnswer =>
  !!body && typeof body === 'object' && Array.isArray((body as BulkAnswer).data?.refused) && Array.isArray((body as BulkAnswer).data?.updated);

/** A bulk change's answer as the ids changed, or the error that names the refused rows. */
export function bulkOutcome(answer: unknown): Identifier[] {
  if (!isBulkAnswer(answer)) return [];
  if (answer.data.refused.length) throw new BulkRefusalError(answer.message, answer.data.updated, answer.data.refused);
  return answer.data.updated;
}

/** A 422 that refused every row of a bulk change becomes a BulkRefusalError; any other error stays. */
export function bulkError(err: unknown): unknown {
  if (err instanceof HttpError && err.status === 422 && isBulkAnswer(err.body)) return new BulkRefusalError(err.message, [], err.body.data.refused);
  return err;
}

/**
 * Runs one call per id, a few at a time (deletes have no bulk route: each row's own DELETE checks
 * it), and answers the ids that went through, or the BulkRefusalError naming the others.
 */
export async function eachId(ids: Identifier[], run: (id: Identifier) => Promise<unknown>, atOnce = 4): Promise<Identifier[]> {
  const done: Identifier[] = [];
  const refused: BulkRefusal[] = [];
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      try {
        await run(id);
        done.push(id);
      } catch (err) {
        refused.push({ id: Number(id), message: err instanceof Error ? err.message : String(err) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, ids.length) }, worker));
  if (refused.length) throw new BulkRefusalError(refused[0].message, done, refused);
  return ids.filter((id) => done.includes(id));
}
