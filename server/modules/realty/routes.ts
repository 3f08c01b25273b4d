import { and, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import { realtyEntity, type Realty, type RealtyInput } from '../../../contract/realty.ts';
import { houses, realty, settlements, streets } from '../../db/schema.ts';
import { crudRoutes } from '../../crud/routes.ts';
import { unprocessable } from '../../lib/errors.ts';
import { likePattern } from '../../lib/list.ts';
import { addressMatches, addressSql, formatAddress, searchText } from '../houses/address.ts';
import { NUMBER_WORD, searchWords } from './search.ts';
import { naturalKeys, ordered } from '../../lib/order.ts';
import { selectHouses } from '../houses/records.ts';
import { houseJoins, isoSql, LIST_PAGE, pageArray } from '../../lib/jsonSql.ts';

const NUMBER_TAKEN = { number: ['У цьому будинку вже є приміщення цього типу з таким номером.'] };

const areaOut = (area: string | null) => (area === null ? null : Number(area));
const areaIn = (area: number | null) => (area === null ? null : area.toFixed(2));

/** Units of houses: the generic CRUD of their declaration (contract/realty.ts), scoped like their houses. */
export const realtyRoutes = crudRoutes(realtyEntity, {
  table: realty,
  columns: { number: realty.number, type: realty.type, house_id: realty.houseId, area: realty.area, floor: realty.floor },
  houseColumn: realty.houseId,
  /** Numbers in natural order: 2 before 10. */
  sortKeys: {
    number: (order) => ordered(naturalKeys(realty.number), order),
    /** Units grouped by house (in the order houses were added), numbers naturally within each. */
    house: (order) => ordered([realty.houseId, ...naturalKeys(realty.number)], order),
    area: (order) => ordered([realty.area], order),
    floor: (order) => ordered([realty.floor], order),
  },
  /**
   * Words of a unit's label or address, in any order (searchWords): the type a word names
   * («кв.», «паркомісце», «комора»), the unit's number after it (its start: «кв. 1» is 1, 10–19,
   * 100…), and each other word part of the number or of the house's address («вул. Липова»); a
   * number among them is a whole number of the address («Липова 12»: house 12, not 112) or the
   * start of the unit's.
   */
  async searchReading({ db, user }, text) {
    const { words, type, number } = searchWords(searchText(text));
    if (!words.length && !type && number === undefined) return undefined;
    /** The organization's houses whose address matches (thousands at most): with their ids in the query the condition stays indexable. */
    const housesWhere = async (condition: SQL) =>
      (
        await db
          .select({ id: houses.id })
          .from(houses)
          .innerJoin(settlements, eq(settlements.id, houses.settlementId))
          .innerJoin(streets, eq(streets.id, houses.streetId))
          .where(and(eq(houses.organizationId, user.organizationId), condition))
      ).map((h) => h.id);
    /** The unit's number starts with the word (the LIKE pattern without its leading %). */
    const startsWith = (word: string) => sql`${realty.number} ILIKE ${likePattern(word).slice(1)}`;
    /** A whole number of the address, between its commas and spaces (NUMBER_WORD holds no regex character). */
    const wholeNumber = (word: string) => sql`${addressSql} ~* ${`(^|[ ,])${word}($|[ ,])`}`;
    const conditions = await Promise.all(
      words.map(async (word) => {
        const numeric = NUMBER_WORD.test(word);
        const houseIds = await housesWhere(numeric ? wholeNumber(word) : addressMatches(likePattern(word)));
        const byAddress = houseIds.length ? inArray(realty.houseId, houseIds) : undefined;
        // A unit number is at most 20 characters: a longer word can only be part of an address.
        if (word.length > 20) return byAddress ?? sql`false`;
        return or(numeric ? startsWith(word) : sql`${realty.number} ILIKE ${likePattern(word)}`, byAddress);
      }),
    );
    return and(...conditions, type ? eq(realty.type, type) : undefined, number === undefined ? undefined : startsWith(number));
  },
  /** A number is unique in its house among units of its type, whatever its case. */
  async check({ db }, body: RealtyInput, id) {
    const [taken] = await db
      .select({ id: realty.id })
      .from(realty)
      .where(
        and(
          eq(realty.houseId, body.house_id),
          eq(realty.type, body.type),
          sql`lower(${realty.number}) = lower(${body.number})`,
          id === undefined ? undefined : ne(realty.id, id),
        ),
      )
      .limit(1);
    if (taken) throw unprocessable(NUMBER_TAKEN);
  },
  uniqueViolation: NUMBER_TAKEN,
  values: (b: RealtyInput) => ({ houseId: b.house_id, type: b.type, number: b.number, area: areaIn(b.area), floor: b.floor, entrance: b.entrance }),
  recordsJson: () =>
    pageArray(
      sql`json_build_object('id', ${realty.id}, 'house_id', ${realty.houseId}, 'complex_id', ${houses.complexId}, 'address', ${addressSql},
        'type', ${realty.type}, 'number', ${realty.number}, 'area', ${realty.area}::float8, 'floor', ${realty.floor}, 'entrance', ${realty.entrance},
        'created_at', ${isoSql(realty.createdAt)}, 'updated_at', ${isoSql(realty.updatedAt)})`,
      sql`join ${realty} on ${realty.id} = ${LIST_PAGE}.id ${houseJoins(realty.houseId)}`,
    ),
  /** One query for the houses of the whole page (address, complex). */
  async toRecords({ db }, rows) {
    const houseIds = [...new Set(rows.map((r) => r.houseId))];
    const byId = new Map((houseIds.length ? await selectHouses(db).where(inArray(houses.id, houseIds)) : []).map((h) => [h.id, h]));
    // A house deleted between the two reads takes its units with it: leave them out.
    return rows.flatMap((r) => {
      const house = byId.get(r.houseId);
      if (!house) return [];
      return {
        id: r.id,
        house_id: r.houseId,
        complex_id: house.complexId,
        address: formatAddress(house),
        type: r.type,
        number: r.number,
        area: areaOut(r.area),
        floor: r.floor,
        entrance: r.entrance,
        created_at: r.createdAt.toISOString(),
        updated_at: r.updatedAt.toISOString(),
      } satisfies Realty;
    });
  },
});
