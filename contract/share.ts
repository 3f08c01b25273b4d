/**
 * Ownership shares are exact fractions (numerator/denominator), so that shares such as 1/3
 * add up to exactly 1 when a general meeting counts votes by area.
 */
export interface Share {
  numerator: number;
  denominator: number;
}

export const MAX_SHARE_DENOMINATOR = 1_000_000;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

export function reduceShare(numerator: number, denominator: number): Share {
  const d = gcd(numerator, denominator) || 1;
  return { numerator: numerator / d, denominator: denominator / d };
}

/**
 * Reads «1/3», «0,5», «0.25», «50%» or a number into a share in (0, 1]; null when the text is
 * none of these or is outside (0, 1].
 */
export function parseShare(input: string | number): Share | null {
  const text = String(input).trim().replace(',', '.').replace(/\s+/g, '');
  let share: Share | null = null;
  const fraction = /^(\d{1,7})\/(\d{1,7})$/.exec(text);
  const decimal = /^(\d{1,7})(?:\.(\d{1,6}))?(%?)$/.exec(text);
  if (fraction) {
    share = { numerator: Number(fraction[1]), denominator: Number(fraction[2]) };
  } else if (decimal) {
    const decimals = decimal[2] ?? '';
    const scale = 10 ** decimals.length * (decimal[3] ? 100 : 1);
    share = { numerator: Number(decimal[1] + decimals), denominator: scale };
  }
  if (!share || share.denominator === 0 || share.numerator === 0 || share.numerator > share.denominator) return null;
  const reduced = reduceShare(share.numerator, share.denominator);
  return reduced.denominator > MAX_SHARE_DENOMINATOR ? null : reduced;
}

export const formatShare = (s: Share) => (s.numerator === s.denominator ? '1' : `${s.numerator}/${s.denominator}`);

/** Sum of shares as a reduced fraction (BigInt inside: denominators multiply). */
export function addShares(shares: Share[]): { numerator: bigint; denominator: bigint } {
  let n = 0n;
  let d = 1n;
  for (const s of shares) {
    n = n * BigInt(s.denominator) + BigInt(s.numerator) * d;
    d = d * BigInt(s.denominator);
    const g = bigGcd(n, d);
    n /= g;
    d /= g;
  }
  return { numerator: n, denominator: d };
}

const bigGcd = (a: bigint, b: bigint): bigint => (b === 0n ? (a === 0n ? 1n : a) : bigGcd(b, a % b));
