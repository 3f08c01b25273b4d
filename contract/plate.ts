/**
 * Vehicle plates are kept in one form: capitals, no spaces or dashes, and the Cyrillic letters
 * that Ukrainian plates use folded to the Latin ones they look like (А→A, В→B, …), so
 * «аа 1234 вх», «AA-1234-BX» and «АА1234ВХ» are the same plate.
 */
const LOOK_ALIKES: Record<string, string> = {
  А: 'A',
  В: 'B',
  Е: 'E',
  І: 'I',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  У: 'Y',
};

export const PLATE_PATTERN = /^[A-Z0-9А-ЯҐЄІЇ]{2,12}$/;

export function normalisePlate(input: string): string {
  return input
    .toUpperCase()
    .replace(/[\s\-_.·]/g, '')
    .replace(/[АВЕІКМНОРСТХУ]/g, (c) => LOOK_ALIKES[c] ?? c);
}
