const hryvnias = new Intl.NumberFormat('uk-UA', { style: 'currency', currency: 'UAH', minimumFractionDigits: 2 });

/** Kopiyky (integers on the wire) shown as hryvnias: 125050 → «1 250,50 грн». */
export const formatMoney = (kopiyky: number) => hryvnias.format(kopiyky / 100);

/** Hryvnias typed by a person («1 250,5») as kopiyky; null when it is not a sum. */
export function toKopiyky(text: string | number | null | undefined): number | null {
  if (text === null || text === undefined) return null;
  const clean = String(text).replace(/\s/g, '').replace(',', '.');
  if (!/^\d+(\.\d{1,2})?$/.test(clean)) return null;
  return Math.round(Number(clean) * 100);
}
