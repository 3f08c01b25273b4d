import type { RealtyType } from '../../contract/realty';

/** Street types as a unit's label shortens them («вулиця Липова» → «вул. Липова»). */
const STREET_SHORT: Record<string, string> = {
  вулиця: 'вул.',
  проспект: 'просп.',
  бульвар: 'бульв.',
  провулок: 'пров.',
  площа: 'пл.',
  набережна: 'наб.',
  узвіз: 'узв.',
  шосе: 'ш.',
  тупик: 'туп.',
};

/**
 * A house address without its settlement, the street type shortened: «м. Київ, вулиця Липова,
 * 12, секція 1» → «вул. Липова, 12, секція 1». The units one picks from share the settlement
 * (one complex); the address is written by the API as «settlement, street, number…».
 */
export function shortAddress(address: string): string {
  const parts = address.split(', ');
  const [street, ...tail] = parts.length >= 3 ? parts.slice(1) : parts;
  const [first, ...name] = street.split(' ');
  const short = STREET_SHORT[first.toLowerCase()];
  return [short && name.length ? `${short} ${name.join(' ')}` : street, ...tail].join(', ');
}

export interface UnitLike {
  type: RealtyType;
  number: string;
  address?: string | null;
}

/**
 * How a unit is named wherever one is chosen: its kind and number first, so that a flat, a
 * parking place and a storeroom of one house tell apart («кв. 12, вул. Липова, 5», «паркомісце 3,
 * вул. Липова, 5», «комора 7, …»), then the house.
 */
export function unitLabel(unit: UnitLike, translate: (key: string, options?: Record<string, unknown>) => string): string {
  const kind = translate(`resources.realty.short.${unit.type}`, { number: unit.number });
  return unit.address ? `${kind}, ${shortAddress(unit.address)}` : kind;
}
