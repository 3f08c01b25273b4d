import { and, eq, ne } from 'drizzle-orm';
import { formatShare, parseShare, addShares, type Share } from '../../../contract/share.ts';
import type { Db } from '../../db/index.ts';
import { realty, residents } from '../../db/schema.ts';
import type { CurrentUser } from '../../lib/auth.ts';
import { unprocessable } from '../../lib/errors.ts';
import { residentRoleById } from './roles.ts';
import { unitScope } from './scope.ts';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface LinkInput {
  memberId: number;
  realtyId: number;
  roleId: number;
  share: string | null;
}

export type Errors = Record<string, string[]>;

/**
 * Checks a member↔unit link and answers the values to store, or the field errors: the unit must
 * be one the user may see, the role the organization's; owners and co-owners hold a share
 * (an owner without one owns the whole unit), other roles none; a member is linked to a unit
 * once; and the shares of a unit never add up to more than 1. The unit row is locked, so that
 * two links saved at once cannot together exceed it.
 */
export async function checkLink(
  tx: Tx,
  user: CurrentUser,
  input: LinkInput,
  exceptId?: number,
): Promise<
  { values: { roleId: number; realtyId: number; shareNumerator: number | null; shareDenominator: number | null }; errors?: undefined } | { errors: Errors }
> {
  const errors: Errors = {};
  const [unit] = await tx
    .select({ id: realty.id })
    .from(realty)
    .where(and(unitScope(tx, user), eq(realty.id, input.realtyId)))
    .for('update')
    .limit(1);
  if (!unit) errors.realty_id = ['Приміщення не знайдено.'];
  const role = await residentRoleById(tx, user.organizationId, input.roleId);
  if (!role) errors.role_id = ['Роль не знайдено.'];
  let share: Share | null = null;
  if (role) {
    if (!role.holdsShare && input.share !== null) {
      errors.ownership_share = ['Частку у власності мають лише власник і співвласник.'];
    } else if (role.holdsShare) {
      if (input.share === null) {
        if (role.code === 'owner') share = { numerator: 1, denominator: 1 };
        else errors.ownership_share = ['Вкажіть частку у власності, наприклад 1/2.'];
      } else {
        share = parseShare(input.share);
        if (!share) errors.ownership_share = ['Частка — дріб від 0 до 1: 1/3, 0,5 або 50%.'];
      }
    }
  }
  if (unit) {
    const others = await tx
      .select({ memberId: residents.memberId, n: residents.shareNumerator, d: residents.shareDenominator })
      .from(residents)
      .where(and(eq(residents.realtyId, input.realtyId), exceptId === undefined ? undefined : ne(residents.id, exceptId)));
    if (others.some((o) => o.memberId === input.memberId)) errors.realty_id = ["Цього мешканця вже пов'язано з цим приміщенням."];
    if (share) {
      const taken = others.flatMap((o) => (o.n !== null && o.d !== null ? [{ numerator: o.n, denominator: o.d }] : []));
      const total = addShares([...taken, share]);
      if (total.numerator > total.denominator) {
        const used = addShares(taken);
        const usedText = used.numerator === 0n ? '0' : formatShare({ numerator: Number(used.numerator), denominator: Number(used.denominator) });
        errors.ownership_share = [`Сума часток власників приміщення перевищить 1: вже розподілено ${usedText}.`];
      }
    }
  }
  if (Object.keys(errors).length > 0) return { errors };
  return { values: { roleId: input.roleId, realtyId: input.realtyId, shareNumerator: share?.numerator ?? null, shareDenominator: share?.denominator ?? null } };
}

/** checkLink that throws the 422 itself. */
export async function requireLink(tx: Tx, user: CurrentUser, input: LinkInput, exceptId?: number) {
  const result = await checkLink(tx, user, input, exceptId);
  if (result.errors) throw unprocessable(result.errors);
  return result.values;
}
