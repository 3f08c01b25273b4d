import { sql, type SQL } from 'drizzle-orm';
import { normaliseApostrophes, STREET_TYPES } from '../../../contract/reference.ts';
import { houses, settlements, streets } from '../../db/schema.ts';

/**
 * One-line house addresses, e.g. «м. Київ, вулиця Липова, 12А», written the same way in
 * TypeScript (for answers) and in SQL (for searching and filtering), so that whatever an
 * answer shows can be searched for.
 */

/** The word before a settlement's name, by KATOTTG category (М місто, К спецстатус, Х селище, С село). */
export const CITY_PREFIX: Record<string, string> = { М: 'м.', К: 'м.', Х: 'с-ще', С: 'с.' };

/** A building written right after the number («12А»): one letter. Anything else follows a comma. */
const LETTER_CLASS = 'A-Za-zА-Яа-яҐґЄєІіЇї';
const SINGLE_LETTER = new RegExp(`^[${LETTER_CLASS}]$`);

export function buildingSuffix(building: string): string {
  if (!building) return '';
  return SINGLE_LETTER.test(building) ? building : `, ${building}`;
}

export interface AddressParts {
  category: string;
  city: string;
  streetType: string | null;
  street: string;
  number: string;
  building: string;
}

export function formatAddress(p: AddressParts): string {
  const prefix = CITY_PREFIX[p.category];
  const city = prefix ? `${prefix} ${p.city}` : p.city;
  const street = p.streetType ? `${p.streetType} ${p.street}` : p.street;
  return `${city}, ${street}, ${p.number}${buildingSuffix(p.building)}`;
}

const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** The same address as an SQL expression; needs `houses`, `settlements` and `streets` in the FROM. */
export const addressSql: SQL<string> = (() => {
  const whens = Object.entries(CITY_PREFIX)
    .map(([category, prefix]) => `WHEN ${literal(category)} THEN ${literal(`${prefix} `)}`)
    .join(' ');
  const prefix = sql`CASE ${settlements.category} ${sql.raw(whens)} ELSE '' END`;
  const building = sql`CASE WHEN ${houses.building} = '' THEN ''
    WHEN ${houses.building} ~ ${sql.raw(literal(`^[${LETTER_CLASS}]$`))} THEN ${houses.building}
    ELSE ', ' || ${houses.building} END`;
  return sql<string>`(${prefix} || ${settlements.name} || ', ' || coalesce(nullif(${streets.type}, '') || ' ', '')
    || ${streets.name} || ', ' || ${houses.number} || ${building})`;
})();

/**
 * A search over the address: case-insensitive, any apostrophe matches any other
 * (the reference writes ’, people type ').
 */
export function addressMatches(pattern: string): SQL {
  return sql`translate(${addressSql}, ${sql.raw(literal("'ʼ`‘"))}, '’’’’') ILIKE ${pattern}`;
}

/** What a user typed into a search box, in the form addresses are compared in. */
export function searchText(query: string): string {
  return normaliseApostrophes(query).trim().replace(/\s+/g, ' ');
}

/** Short forms people write before a street name, mapped to the full type word. */
const ABBREVIATIONS: Record<string, (typeof STREET_TYPES)[number]> = {
  'вул.': 'вулиця',
  вул: 'вулиця',
  'пров.': 'провулок',
  'просп.': 'проспект',
  'пр-т': 'проспект',
  'бул.': 'бульвар',
  'бульв.': 'бульвар',
  'б-р': 'бульвар',
  'пл.': 'площа',
  'наб.': 'набережна',
  'узв.': 'узвіз',
  'туп.': 'тупик',
  'ш.': 'шосе',
};

/** One typed word as addresses write it: a street type abbreviation («вул.», «просп.») becomes its full word. */
export function expandStreetWord(word: string): string {
  return ABBREVIATIONS[word.toLowerCase()] ?? word;
}

/**
 * Splits a typed street into its type and name, as the reference keeps them: «вул. Нова» and
 * «Нова вулиця» → {type: 'вулиця', name: 'Нова'}; «Французький бульвар» → бульвар + Французький.
 * Without a recognised type word the name is kept whole and the type is «вулиця», the default
 * for streets admins add.
 */
export function splitStreetName(input: string): { name: string; type: string } {
  const value = input.trim().replace(/\s+/g, ' ');
  const words = value.split(' ');
  if (words.length >= 2) {
    const first = words[0].toLowerCase();
    const last = words[words.length - 1].toLowerCase();
    const firstType = (STREET_TYPES as readonly string[]).includes(normaliseApostrophes(first)) ? normaliseApostrophes(first) : ABBREVIATIONS[first];
    const rest = words.slice(1).join(' ');
    if (firstType && rest.length >= 2) return { type: firstType, name: rest };
    const lastType = (STREET_TYPES as readonly string[]).includes(normaliseApostrophes(last)) ? normaliseApostrophes(last) : undefined;
    const head = words.slice(0, -1).join(' ');
    if (lastType && head.length >= 2) return { type: lastType, name: head };
  }
  return { name: value, type: 'вулиця' };
}
