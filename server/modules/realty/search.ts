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

/**
 * A unit search split into words: the type named by a word such as «кв.» or «паркомісце», and
 * the other words (a street type abbreviation written out as the address has it: «вул.» →
 * «вулиця»), without «№» and the commas between the parts of an address.
 */
export function searchWords(text: string): { words: string[]; type?: RealtyType } {
  const parts = text.split(' ').filter(Boolean);
  if (parts.length > MAX_WORDS) return { words: [text] };
  let type: RealtyType | undefined;
  const words: string[] = [];
  for (const raw of parts) {
    let word = raw.replace(/^[,;№]+|[,;]+$/g, '');
    // «кв.12» written together
    const glued = /^кв\.(\S+)$/i.exec(word);
    if (glued && !type) {
      type = 'apartment';
      word = glued[1];
    }
    if (!word) continue;
    const named = TYPE_WORDS[word.toLowerCase()];
    if (named && !type) type = named;
    else if (!(type && FILLERS.has(word.toLowerCase()))) words.push(expandStreetWord(word));
  }
  return { words, type };
}
