/**
 * Counting co-owners' votes under Ukrainian law after Law 3270-IX (docs/voting-rules.md):
 * weights by area, the switch to one-person-one-vote for a dominant owner, thresholds out of
 * ALL co-owners, "за"/"проти" only, and the written poll of up to 45 days.
 *
 * Pure functions over exact fractions (BigInt), so that the boundaries the law draws
 * ("більше 50 %", "50 % або більше", "не менш як 2/3") are decided exactly, never by
 * floating-point rounding.
 */

/** ОСББ house (Law 2866-III) or a house without an ОСББ (Law 417-VIII); docs/voting-rules.md §2.2. */
export type Regime = 'osbb' | 'no_osbb';

/**
 * A question's threshold (docs/voting-rules.md §2.1):
 * - `majority`: more than 50 % (the default in both regimes);
 * - `qualified`: more than 75 % (the questions the law names);
 * - `statute`: more than `percent` %, set by an ОСББ statute (50–75 %, at most 67 % for the
 *   capped questions — the contract checks those bounds);
 * - `two_thirds`: "не менш як 2/3" of an old statute: at least two thirds.
 */
export type Threshold = { kind: 'majority' } | { kind: 'qualified' } | { kind: 'statute'; percent: number } | { kind: 'two_thirds' };

export type Answer = 'for' | 'against';

/** An exact non-negative fraction. */
export interface Fraction {
  num: bigint;
  den: bigint;
}

const gcd = (a: bigint, b: bigint): bigint => {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y) [x, y] = [y, x % y];
  return x || 1n;
};
export const frac = (num: bigint | number, den: bigint | number = 1n): Fraction => {
  const n = BigInt(num);
  const d = BigInt(den);
  if (d === 0n) throw new RangeError('zero denominator');
  const g = gcd(n, d);
  return d < 0n ? { num: -n / g, den: -d / g } : { num: n / g, den: d / g };
};
const ZERO = frac(0);
const add = (a: Fraction, b: Fraction) => frac(a.num * b.den + b.num * a.den, a.den * b.den);
const sub = (a: Fraction, b: Fraction) => frac(a.num * b.den - b.num * a.den, a.den * b.den);
const mul = (a: Fraction, b: Fraction) => frac(a.num * b.num, a.den * b.den);
const div = (a: Fraction, b: Fraction) => frac(a.num * b.den, a.den * b.num);
/** -1, 0 or 1 as a < b, a = b, a > b */
export const compare = (a: Fraction, b: Fraction) => {
  const l = a.num * b.den;
  const r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
};
/** num/den rounded half up, for non-negative fractions. */
const roundDiv = (num: bigint, den: bigint) => (2n * num + den) / (2n * den);
/** A fraction as a percentage with two decimals (for display only). */
export const percent = (f: Fraction) => Number(roundDiv(f.num * 10000n, f.den)) / 100;
/** Hundredths of m² → m² with two decimals (for display only). */
export const squareMetres = (centi: Fraction) => Number(roundDiv(centi.num, centi.den)) / 100;

/** The threshold as a fraction and whether reaching it exactly is enough. */
export function thresholdOf(t: Threshold): { value: Fraction; inclusive: boolean } {
  switch (t.kind) {
    case 'majority':
      return { value: frac(1, 2), inclusive: false };
    case 'qualified':
      return { value: frac(3, 4), inclusive: false };
    case 'statute':
      return { value: frac(Math.round(t.percent * 100), 10000), inclusive: false };
    case 'two_thirds':
      return { value: frac(2, 3), inclusive: true };
  }
}

export const passes = (share: Fraction, t: Threshold) => {
  const { value, inclusive } = thresholdOf(t);
  const c = compare(share, value);
  return c > 0 || (inclusive && c === 0);
};

/** One unit of the house: every apartment and non-residential unit counts in the total area. */
export interface UnitArea {
  unitId: number;
  /** hundredths of m² (an area of 45.5 m² is 4550) */
  areaCentiM2: number;
}

/** A person's ownership of a unit; `share` null means a joint owner (equal shares with the others). */
export interface Ownership {
  personId: number;
  unitId: number;
  share: Fraction | null;
}

export interface Participant {
  personId: number;
  /** the person's area, hundredths of m²: sum over their units of area × share */
  area: Fraction;
  /** area over the total area of all units */
  weight: Fraction;
  units: number[];
}

export interface Electorate {
  regime: Regime;
  /** total area of all units, hundredths of m² */
  totalArea: Fraction;
  participants: Participant[];
  /** true when one owner dominates and every co-owner has one vote */
  headcount: boolean;
  /** the largest weight by area, which decided `headcount` */
  largestWeight: Fraction;
}

/**
 * Who votes and with what weight. Units with no registered owner still count in the total
 * area (the thresholds are out of all co-owners). Several owners of one unit without shares
 * own it in equal parts; with shares, their shares are used as given (a unit whose shares add
 * up to less than 1 leaves the rest unrepresented, never redistributed). docs/voting-rules.md §1.2–1.3.
 */
export function electorate(regime: Regime, units: UnitArea[], ownerships: Ownership[]): Electorate {
  const areaOf = new Map(units.map((u) => [u.unitId, frac(u.areaCentiM2)]));
  const totalArea = units.reduce((s, u) => add(s, frac(u.areaCentiM2)), ZERO);
  const jointCount = new Map<number, number>();
  for (const o of ownerships) if (o.share === null) jointCount.set(o.unitId, (jointCount.get(o.unitId) ?? 0) + 1);

  const byPerson = new Map<number, { area: Fraction; units: number[] }>();
  for (const o of ownerships) {
    const unitArea = areaOf.get(o.unitId);
    if (!unitArea) continue;
    const share = o.share ?? frac(1, jointCount.get(o.unitId) ?? 1);
    const p = byPerson.get(o.personId) ?? { area: ZERO, units: [] };
    p.area = add(p.area, mul(unitArea, share));
    if (!p.units.includes(o.unitId)) p.units.push(o.unitId);
    byPerson.set(o.personId, p);
  }
  const participants = [...byPerson.entries()]
    .map(([personId, p]) => ({ personId, area: p.area, weight: totalArea.num === 0n ? ZERO : div(p.area, totalArea), units: p.units }))
    .sort((a, b) => a.personId - b.personId);
  const largestWeight = participants.reduce((m, p) => (compare(p.weight, m) > 0 ? p.weight : m), ZERO);
  const half = frac(1, 2);
  // ОСББ: more than 50 % (Law 2866, Art. 6(15)); no ОСББ: 50 % or more (Law 417, Art. 10(14)).
  const headcount = regime === 'osbb' ? compare(largestWeight, half) > 0 : compare(largestWeight, half) >= 0;
  return { regime, totalArea, participants, headcount, largestWeight };
}

/** The weight a participant's vote carries in the count: by area, or one of N heads. */
export function voteWeight(e: Electorate, personId: number): Fraction {
  const p = e.participants.find((x) => x.personId === personId);
  if (!p) return ZERO;
  return e.headcount ? frac(1, e.participants.length) : p.weight;
}

export const POLL_DAYS = 45;

export type QuestionStatus =
  /** "за" passed the threshold of all co-owners */
  | 'adopted'
  /** "проти" passed the threshold */
  | 'rejected'
  /** neither yet; those who have not voted are polled until the poll ends */
  | 'open'
  /** the poll ended (45 days after the meeting) without "за" passing */
  | 'not_adopted';

export interface Tally {
  status: QuestionStatus;
  headcount: boolean;
  threshold: { percent: number; inclusive: boolean };
  for: { count: number; area: number; percent: number; share: Fraction };
  against: { count: number; area: number; percent: number; share: Fraction };
  outstanding: { count: number; area: number; percent: number; share: Fraction };
  /** whether "за" can still pass with every outstanding vote */
  reachable: boolean;
}

/**
 * The count of one question. `votes` maps a person to their answer (one per person: the caller
 * keeps the double-vote rule). `pollEnded` is true from the end of the 45-day poll on.
 * Statuses: docs/voting-rules.md §3.5.
 */
export function tally(e: Electorate, threshold: Threshold, votes: ReadonlyMap<number, Answer>, pollEnded: boolean): Tally {
  const sums = {
    for: { count: 0, area: ZERO, share: ZERO },
    against: { count: 0, area: ZERO, share: ZERO },
    outstanding: { count: 0, area: ZERO, share: ZERO },
  };
  for (const p of e.participants) {
    const answer = votes.get(p.personId);
    const bucket = answer === 'for' ? sums.for : answer === 'against' ? sums.against : sums.outstanding;
    bucket.count += 1;
    bucket.area = add(bucket.area, p.area);
    bucket.share = add(bucket.share, voteWeight(e, p.personId));
  }
  // By area the outstanding part also holds units nobody is registered for: all co-owners count.
  if (!e.headcount) {
    sums.outstanding.share = sub(frac(1), add(sums.for.share, sums.against.share));
    sums.outstanding.area = sub(e.totalArea, add(sums.for.area, sums.against.area));
  }
  const adopted = passes(sums.for.share, threshold);
  const rejected = !adopted && passes(sums.against.share, threshold);
  const status: QuestionStatus = adopted ? 'adopted' : rejected ? 'rejected' : pollEnded ? 'not_adopted' : 'open';
  const t = thresholdOf(threshold);
  const out = (b: { count: number; area: Fraction; share: Fraction }) => ({
    count: b.count,
    area: squareMetres(b.area),
    percent: percent(b.share),
    share: b.share,
  });
  return {
    status,
    headcount: e.headcount,
    threshold: { percent: percent(t.value), inclusive: t.inclusive },
    for: out(sums.for),
    against: out(sums.against),
    outstanding: out(sums.outstanding),
    reachable: passes(add(sums.for.share, sums.outstanding.share), threshold),
  };
}

/** Deadlines the law sets around a meeting (calendar days, dates as YYYY-MM-DD). */
export function deadlines(meetingDate: string) {
  const shift = (days: number) => {
    const d = new Date(`${meetingDate}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + days);
    return d.toISOString().slice(0, 10);
  };
  return {
    /** the notice must reach co-owners no later than 10 days before the meeting */
    noticeBy: shift(-10),
    /** a co-owner's written request for e-mail delivery: at least 15 days before */
    deliveryRequestsBy: shift(-15),
    /** the written poll of those who did not vote lasts up to 45 calendar days */
    pollEnds: shift(POLL_DAYS),
  };
}

/** Results must reach every co-owner within 15 days of the meeting or of the end of the poll. */
export function resultsNoticeBy(endDate: string) {
  const d = new Date(`${endDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 15);
  return d.toISOString().slice(0, 10);
}
