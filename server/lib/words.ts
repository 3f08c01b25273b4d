/**
 * Ukrainian plural: `forms` are for 1, 2–4 and 5+ (21 будинок, 22 будинки, 25 будинків, 11–14 будинків).
 */
export function plural(n: number, forms: [one: string, few: string, many: string]): string {
  const tens = Math.abs(n) % 100;
  const units = tens % 10;
  if (tens >= 11 && tens <= 14) return forms[2];
  if (units === 1) return forms[0];
  if (units >= 2 && units <= 4) return forms[1];
  return forms[2];
}
