import type { RealtyType } from '../../../contract/realty.ts';
import { expandStreetWord } from '../houses/address.ts';

/** Words that name a unit's type, as people write them before its number. */
const TYPE_WORDS: Record<string, RealtyType> = {
  кв: 'apartment',
  'кв.': 'apartment',
  квартира: 'apartment',
  паркомісце: 'parking',
  машиномісце: 'parking',
  паркінг: 'parking',
  'п/м': 'parking',
  'м/м': 'parking',
  комора: 'storage',
  комерційне: 'commercial',
  нежитлове: 'commercial',
  // The labels of the English interface
  flat: 'apartment',
  apartment: 'apartment',
  parking: 'parking',
  storage: 'storage',
  commercial: 'commercial',
};

/** Words of the labels that follow a type word and name nothing of their own («комерційне прим. 2», «parking space 3»). */
const FILLERS = new Set(['прим.', 'приміщення', 'space', 'room', 'unit']);

/** More words than this are searched as one phrase, as typed (each word costs a look-up of the houses). */
const MAX_WORDS = 6;

/** A number as houses and units are numbered: digits, perhaps one letter («12», «12А»). */
export const NUMBER_WORD = /^\d+\p{L}?$/u;

/** What may be a unit's number right after its type word: with a digit («12», «К-3») or a letter or two («Б»); not a street. */
const UNIT_NUMBER = /\d|^\p{L}{1,2}$/u;

export interface SearchWords {
  /** The type a word named («кв.», «паркомісце», «комора»). */
  type?: RealtyType;
  /** The word right after the type word, when it may be a number: the unit's («кв. 12»), not a house's. */
  number?: string;
  /** The other words: each part of the unit's number or of the house's address. */
  words: string[];
}

/**
 * A unit search split into words as a unit's label is written («кв. 12, вул. Липова, 5»): the
 * type named by a word such as «кв.» or «паркомісце», the unit's number after it, and the other
 * words (a street type abbreviation written out as the address has it: «вул.» → «вулиця»),
 * without «№» and the commas between the parts of an address.
 */
export function searchWords(text: string): SearchWords {
  const parts = text.split(' ').filter(Boolean);
  if (parts.length > MAX_WORDS) return { words: [text] };
  const out: SearchWords = { words: [] };
  let afterType = false;
  for (const raw of parts) {
    let word = raw.replace(/^[,;№]+|[,;]+$/g, '');
    // «кв.12» written together
    const glued = /^кв\.(\S+)$/i.exec(word);
    if (glued && !out.type) {
      out.type = 'apartment';
      word = glued[1];
      afterType = true;
    }
    if (!word) continue;
    const lower = word.toLowerCase();
    const named = TYPE_WORDS[lower];
    if (named && !out.type) {
      out.type = named;
      afterType = true;
    } else if (afterType && FILLERS.has(lower)) {
      continue;
    } else if (afterType && out.number === undefined && UNIT_NUMBER.test(word)) {
      out.number = word;
      afterType = false;
    } else {
      afterType = false;
      out.words.push(expandStreetWord(word));
    }
  }
  return out;
}
