/**
 * CSV formula injection (OWASP "CSV Injection"): a spreadsheet program that opens a CSV file
 * reads a cell that starts with `=`, `+`, `-` or `@` as a formula (and a leading tab or carriage
 * return can hide such a start), so a resident called «=HYPERLINK(…)» would run in the
 * manager's Excel. Every CSV writer of the product — the API's exports and the SPA's own —
 * passes its text cells through this one function.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell as it is safe to write into a CSV file: values that start with one of the
 * dangerous characters get a leading single quote, which the spreadsheet shows and never
 * evaluates; anything else is unchanged. A phone number «+380…» therefore reads «'+380…»:
 * still whole and readable, and kept as text rather than turned into the number 3.8E+11.
 */
export function neutraliseCsvCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}
