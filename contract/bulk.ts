import { z } from 'zod';
import { idSchema } from './common.ts';

/**
 * Changing many records at once (`PATCH <path>` of a declared entity with `bulkInput`): the ids
 * of the list's selected rows and the fields to set. Each row is checked as its own update would
 * be; the rows that cannot change say why, the others change (docs/architecture.md, "Bulk changes").
 */

/** At most as many rows as react-admin's «select all» takes at once. */
export const BULK_MAX = 250;

export const bulkIds = z
  .array(idSchema, { error: 'Записи — список ідентифікаторів.' })
  .min(1, 'Оберіть хоча б один запис.')
  .max(BULK_MAX, `Не більше ${BULK_MAX} записів за раз.`);

/** A row that was not changed, and why (the message its own update would have answered). */
export const bulkRefusal = z.object({ id: z.number(), message: z.string() });
export type BulkRefusal = z.infer<typeof bulkRefusal>;

/** What a bulk change answers: 200 when some rows changed, 422 when none did. */
export const bulkAnswer = z.object({
  message: z.string(),
  data: z.object({ updated: z.array(z.number()), refused: z.array(bulkRefusal) }),
});
export type BulkAnswer = z.infer<typeof bulkAnswer>;
