import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

/** Region assumed for numbers written without a country code («067 123 45 67»). */
export const DEFAULT_PHONE_REGION: CountryCode = 'UA';

/**
 * A phone number in E.164 («+380671234567»), or null when the text is not a valid number.
 * Spaces, dashes, brackets and a leading 0 or 8 0 are all accepted, as people type them.
 */
export function normalisePhone(input: string, region: CountryCode = DEFAULT_PHONE_REGION): string | null {
  const text = input.trim();
  if (!text || text.length > 40 || !/^[+\d\s().-]+$/.test(text)) return null;
  const parsed = parsePhoneNumberFromString(text, region);
  if (!parsed || !parsed.isValid()) return null;
  return parsed.number;
}

/**
 * The digits a search for a phone should look for: without separators and without the trunk 0,
 * so that «067 123» finds «+380671234…». Empty when the query is not phone-like.
 */
export function phoneSearchDigits(query: string): string {
  if (!/^[+\d\s().-]+$/.test(query.trim())) return '';
  const digits = query.replace(/\D/g, '');
  return digits.replace(/^0+/, '');
}
