/**
 * Numbers as Ukrainian readers write them, whatever the browser's language: a decimal comma and a
 * (non-breaking) space between thousands — «69,2», «1 234,5».
 */
const formatter = new Intl.NumberFormat('uk-UA', { maximumFractionDigits: 2 });

export const formatNumber = (n: number | null | undefined): string => (n === null || n === undefined || !Number.isFinite(n) ? '' : formatter.format(n));
