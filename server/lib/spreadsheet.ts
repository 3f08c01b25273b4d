import { inflateRawSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';

/** The largest uploaded table we read, and how many data rows it may hold. */
export const MAX_TABLE_BYTES = 5 * 1024 * 1024;
export const MAX_TABLE_ROWS = 10_000;
/** What an XLSX file may unpack to in all (a zip bomb unpacks to gigabytes), and how many parts it may hold. */
export const MAX_UNPACKED_BYTES = 50 * 1024 * 1024;
const MAX_ZIP_ENTRIES = 2000;

export class TableError extends Error {}

const unreadable = () => new TableError('Не вдалося прочитати файл Excel. Збережіть його як XLSX або CSV.');

/**
 * Unpacks every part of a zip into nothing, counting: refuses the file before the spreadsheet
 * reader would hold it all in memory. Sizes written in the zip are not trusted, the bytes are.
 */
function assertUnpackedSize(buf: Buffer) {
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || eocd + 22 > buf.length) throw unreadable();
  const entries = buf.readUInt16LE(eocd + 10);
  if (entries > MAX_ZIP_ENTRIES) throw unreadable();
  let at = buf.readUInt32LE(eocd + 16);
  let total = 0;
  const tooBig = () => new TableError(`Файл Excel після розпакування завеликий: не більше ${MAX_UNPACKED_BYTES / 1024 / 1024} МБ.`);
  for (let i = 0; i < entries; i++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50) throw unreadable();
    const method = buf.readUInt16LE(at + 10);
    const compressed = buf.readUInt32LE(at + 20);
    const local = buf.readUInt32LE(at + 42);
    at += 46 + buf.readUInt16LE(at + 28) + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50) throw unreadable();
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    if (compressed === 0xffffffff || start + compressed > buf.length) throw unreadable();
    const data = buf.subarray(start, start + compressed);
    if (method === 0) total += data.length;
    else if (method === 8) {
      try {
        total += inflateRawSync(data, { maxOutputLength: MAX_UNPACKED_BYTES - total + 1 }).length;
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) throw tooBig();
        throw unreadable();
      }
    } else throw unreadable();
    if (total > MAX_UNPACKED_BYTES) throw tooBig();
  }
}

const isZip = (buf: Buffer) => buf.length > 4 && buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04;

/** A cell as text: numbers as written, dates as DD.MM.YYYY, rich text and formulas by their value. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return `${String(value.getUTCDate()).padStart(2, '0')}.${String(value.getUTCMonth() + 1).padStart(2, '0')}.${value.getUTCFullYear()}`;
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('text' in value) return String(value.text);
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    if ('error' in value) return '';
  }
  return String(value);
}

/**
 * Reads the first sheet of an XLSX file or a CSV file (UTF-8, with or without BOM; `;` or `,`
 * as Excel writes it in either locale) into rows of trimmed text. Throws TableError with a
 * Ukrainian message when the file cannot be read.
 */
export interface TableRow {
  /** 1-based row number in the file (the header is 1). */
  line: number;
  cells: string[];
}

export async function readTable(buf: Buffer): Promise<TableRow[]> {
  let rows: string[][];
  if (isZip(buf)) {
    assertUnpackedSize(buf);
    const workbook = new ExcelJS.Workbook();
    try {
      await workbook.xlsx.load(buf as unknown as ArrayBuffer);
    } catch {
      throw unreadable();
    }
    const sheet = workbook.worksheets[0];
    if (!sheet) throw new TableError('У файлі Excel немає жодного аркуша.');
    rows = [];
    sheet.eachRow({ includeEmpty: true }, (row) => {
      const values = row.values as ExcelJS.CellValue[];
      rows.push(values.slice(1).map((v) => cellText(v).trim()));
    });
  } else {
    const text = buf.toString('utf8').replace(/^\uFEFF/, '');
    if (text.includes('\uFFFD') || text.includes('\u0000')) throw new TableError('Файл CSV має бути в кодуванні UTF-8.');
    const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
    const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : firstLine.includes('\t') && !firstLine.includes(',') ? '\t' : ',';
    try {
      rows = parse(text, { delimiter, relax_column_count: true, skip_empty_lines: false, trim: true, bom: true }) as string[][];
    } catch {
      throw new TableError('Не вдалося прочитати файл CSV: перевірте лапки та роздільники.');
    }
  }
  const nonEmpty = rows.map((cells, i) => ({ line: i + 1, cells })).filter((r) => r.cells.some((c) => c !== ''));
  if (nonEmpty.length < 2) throw new TableError('У файлі немає рядків з даними (перший рядок — назви колонок).');
  if (nonEmpty.length - 1 > MAX_TABLE_ROWS) throw new TableError(`У файлі забагато рядків: не більше ${MAX_TABLE_ROWS}.`);
  return nonEmpty;
}
