/**
 * Named data scales for benchmarks and the EXPLAIN test. Counts are of generated rows, added on
 * top of the demo seed (one organization, 5 complexes, ~30 houses, a few hundred members).
 */
export interface Scale {
  complexes: number;
  houses: number;
  /** Units per house; units = houses × unitsPerHouse. */
  unitsPerHouse: number;
  members: number;
  staff: number;
  requests: number;
  articles: number;
}

export const SCALES = {
  /** About the demo's own size again: quick, for PGlite and smoke runs. */
  small: { complexes: 5, houses: 20, unitsPerHouse: 50, members: 1_500, staff: 10, requests: 2_000, articles: 100 },
  /** A large management company: 1,000,000 members, 200,000 units, requests and 50,000 news. */
  large: { complexes: 100, houses: 2_000, unitsPerHouse: 100, members: 1_000_000, staff: 200, requests: 200_000, articles: 50_000 },
} satisfies Record<string, Scale>;

export type ScaleName = keyof typeof SCALES;

export function isScaleName(name: string): name is ScaleName {
  return Object.hasOwn(SCALES, name);
}

/** Deterministic 32-bit PRNG (mulberry32) for choices made in TypeScript (scenario parameters). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
