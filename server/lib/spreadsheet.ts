import { once } from 'node:events';
import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import { createPause } from './eventLoop.ts';

/**
 * Reading an uploaded table (CSV or the first sheet of an XLSX file) without letting one file
 * take the server: everything is read as a stream and stops at the first limit it passes, the
 * event loop gets a turn every few milliseconds, and an XLSX file's parts are checked against
 * the sizes its zip directory declares before a byte is unpacked (docs/security.md, section 5).
 */

/** The largest uploaded table we read, and how many data rows it may hold. */
export const MAX_TABLE_BYTES = 5 * 1024 * 1024;
export const MAX_TABLE_ROWS = 10_000;
/** Filled cells in all, and the rightmost column a filled cell may be in. */
export const MAX_TABLE_CELLS = 200_000;
export const MAX_TABLE_COLUMNS = 100;
/** What an XLSX file may unpack to in all, by the sizes its zip directory declares (a zip bomb unpacks to gigabytes). */
export const MAX_UNPACKED_BYTES = 50 * 1024 * 1024;
/** What the parts we read may unpack to: the sheet, its shared strings, and the small ones (workbook, styles). */
export const MAX_SHEET_XML_BYTES = 25 * 1024 * 1024;
export const MAX_SHARED_STRINGS_BYTES = 10 * 1024 * 1024;
const MAX_SMALL_PART_BYTES = 5 * 1024 * 1024;
const MAX_ZIP_ENTRIES = 2000;
/** `<row>` elements a sheet may hold, empty ones included (formatting alone makes rows). */
const MAX_SHEET_ROWS = 10 * MAX_TABLE_ROWS;

export class TableError extends Error {}

export interface TableRow {
  /** 1-based row number in the file (the header is 1). */
  line: number;
  cells: string[];
}

const MB = 1024 * 1024;
const unreadable = () => new TableError('Не вдалося прочитати файл Excel. Збережіть його як XLSX або CSV.');
const tooBig = () => new TableError(`Файл Excel після розпакування завеликий: не більше ${MAX_UNPACKED_BYTES / MB} МБ.`);
const partTooBig = (max: number) => new TableError(`Аркуш у файлі Excel після розпакування завеликий: не більше ${max / MB} МБ.`);
const tooManyRows = () => new TableError(`У файлі забагато рядків: не більше ${MAX_TABLE_ROWS}.`);
const tooManyCells = () => new TableError(`У файлі забагато заповнених клітинок: не більше ${MAX_TABLE_CELLS}.`);
const tooWide = () => new TableError(`У файлі забагато колонок: дані мають бути в перших ${MAX_TABLE_COLUMNS} колонках.`);

/** Counts what a table holds and stops at the first limit it passes. */
class Collector {
  readonly rows: TableRow[] = [];
  private cells = 0;

  /** Adds a row of trimmed cells (holes are empty cells); rows without any text are skipped. */
  add(line: number, cells: string[]) {
    let filled = 0;
    let width = 0;
    cells.forEach((c, i) => {
      if (!c) return;
      filled += 1;
      width = i + 1;
    });
    if (filled === 0) return;
    if (width > MAX_TABLE_COLUMNS) throw tooWide();
    this.cells += filled;
    if (this.cells > MAX_TABLE_CELLS) throw tooManyCells();
    // The header plus MAX_TABLE_ROWS data rows.
    if (this.rows.length >= MAX_TABLE_ROWS + 1) throw tooManyRows();
    this.rows.push({ line, cells: Array.from(cells.slice(0, width), (c) => c ?? '') });
  }

  result(): TableRow[] {
    if (this.rows.length < 2) throw new TableError('У файлі немає рядків з даними (перший рядок — назви колонок).');
    return this.rows;
  }
}

/**
 * Reads the first sheet of an XLSX file or a CSV file (UTF-8, with or without BOM; `;` or `,`
 * as Excel writes it in either locale) into rows of trimmed text. Throws TableError with a
 * Ukrainian message when the file cannot be read or passes a limit.
 */
export async function readTable(buf: Buffer): Promise<TableRow[]> {
  return isZip(buf) ? readXlsx(buf) : readCsv(buf);
}

// ---------------------------------------------------------------------------------------------
// CSV

async function readCsv(buf: Buffer): Promise<TableRow[]> {
  const text = buf.toString('utf8').replace(/^\uFEFF/, '');
  if (text.includes('\uFFFD') || text.includes('\u0000')) throw new TableError('Файл CSV має бути в кодуванні UTF-8.');
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const delimiter =
    (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : firstLine.includes('\t') && !firstLine.includes(',') ? '\t' : ',';
  const parser = parse({ delimiter, relax_column_count: true, skip_empty_lines: false, trim: true, bom: true });
  const pause = createPause();
  // The text goes in a slice at a time, so that the parser never holds more than a few slices' records.
  const writing = (async () => {
    for (let at = 0; at < text.length; at += 64 * 1024) {
      if (!parser.write(text.slice(at, at + 64 * 1024))) await once(parser, 'drain');
      await pause();
    }
    parser.end();
  })();
  writing.catch(() => undefined);
  const table = new Collector();
  let line = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      line += 1;
      table.add(line, record);
      await pause();
    }
  } catch (err) {
    parser.destroy();
    if (err instanceof TableError) throw err;
    throw new TableError('Не вдалося прочитати файл CSV: перевірте лапки та роздільники.');
  }
  return table.result();
}

// ---------------------------------------------------------------------------------------------
// XLSX

const isZip = (buf: Buffer) => buf.length > 4 && buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04;

interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated */
  method: number;
  compressedSize: number;
  /** The unpacked size the directory declares: checked before unpacking, enforced while unpacking. */
  size: number;
  dataStart: number;
}

/**
 * The zip's central directory, checked: no encryption, no ZIP64, only stored or deflated parts,
 * each part's data inside the file. Sizes are the declared ones; `unpack` holds each part to its
 * declared size, so a file cannot declare little and unpack to much.
 */
function zipDirectory(buf: Buffer): ZipEntry[] {
  const signature = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
  const eocd = buf.lastIndexOf(signature);
  if (eocd < 0 || eocd + 22 > buf.length || eocd < buf.length - 22 - 0xffff) throw unreadable();
  const count = buf.readUInt16LE(eocd + 10);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  if (count > MAX_ZIP_ENTRIES || cdOffset > eocd) throw unreadable();
  const entries: ZipEntry[] = [];
  let at = cdOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > eocd || buf.readUInt32LE(at) !== 0x02014b50) throw unreadable();
    const flags = buf.readUInt16LE(at + 8);
    const method = buf.readUInt16LE(at + 10);
    const compressedSize = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
    if (flags & 0x1 || (method !== 0 && method !== 8) || compressedSize === 0xffffffff || size === 0xffffffff) throw unreadable();
    if (method === 0 && compressedSize !== size) throw unreadable();
    if (local + 30 > cdOffset || buf.readUInt32LE(local) !== 0x04034b50) throw unreadable();
    const dataStart = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    if (dataStart + compressedSize > cdOffset) throw unreadable();
    entries.push({ name, method, compressedSize, size, dataStart });
  }
  return entries;
}

/** A part's bytes, unpacked a chunk at a time on the thread pool, never more than it declared. */
async function* unpack(buf: Buffer, entry: ZipEntry): AsyncGenerator<Buffer> {
  const data = buf.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
  if (entry.method === 0) {
    for (let at = 0; at < data.length; at += 64 * 1024) yield data.subarray(at, at + 64 * 1024);
    return;
  }
  const inflate = createInflateRaw({ chunkSize: 64 * 1024 });
  inflate.end(data);
  let total = 0;
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      total += chunk.length;
      // More than the directory said: the file lies about its sizes.
      if (total > entry.size) throw unreadable();
      yield chunk;
    }
  } catch (err) {
    if (err instanceof TableError) throw err;
    throw unreadable();
  } finally {
    inflate.destroy();
  }
  if (total !== entry.size) throw unreadable();
}

async function unpackText(buf: Buffer, entry: ZipEntry): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of unpack(buf, entry)) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** A stored part of the zip stream we hand to the reader: header, then exactly `size` bytes. */
function localHeader(name: string, size: number): Buffer {
  const nameBytes = Buffer.from(name);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(0x0800, 6);
  header.writeUInt32LE(size, 18);
  header.writeUInt32LE(size, 22);
  header.writeUInt16LE(nameBytes.length, 26);
  return Buffer.concat([header, nameBytes]);
}

interface Part {
  name: string;
  size: number;
  chunks: () => AsyncIterable<Buffer>;
}

const textPart = (name: string, text: string): Part => {
  const bytes = Buffer.from(text);
  return {
    name,
    size: bytes.length,
    chunks: async function* () {
      yield bytes;
    },
  };
};

/**
 * The zip stream the spreadsheet reader gets: only the parts it needs, stored, in the order that
 * lets it read the sheet as a stream (relations, workbook, styles and shared strings before the
 * sheet; otherwise it would first copy the sheet to a temporary file), and an end record.
 */
async function* packed(parts: Part[]): AsyncGenerator<Buffer> {
  for (const part of parts) {
    yield localHeader(part.name, part.size);
    yield* part.chunks();
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  yield end;
}

const NS = 'http://schemas.openxmlformats.org';

/** The path of the workbook's first sheet: its first `<sheet>` and that sheet's relation. */
function firstSheetPath(workbookXml: string, relsXml: string | undefined, names: Set<string>): string | undefined {
  const sheet = /<(?:\w+:)?sheet\b[^>]*>/.exec(workbookXml)?.[0];
  const id = sheet && /\s\w+:id\s*=\s*"([^"]*)"/.exec(sheet)?.[1];
  if (id && relsXml) {
    for (const match of relsXml.matchAll(/<(?:\w+:)?Relationship\b[^>]*>/g)) {
      if (/\sId\s*=\s*"([^"]*)"/.exec(match[0])?.[1] !== id) continue;
      const target = /\sTarget\s*=\s*"([^"]*)"/.exec(match[0])?.[1];
      if (!target) break;
      const path = target.startsWith('/') ? target.slice(1) : `xl/${target}`.replace(/\/\.\//g, '/');
      if (names.has(path)) return path;
    }
  }
  // No usable relation: the sheet with the lowest number, as spreadsheet programs name them.
  return [...names]
    .map((name) => ({ name, n: /^xl\/worksheets\/sheet(\d+)\.xml$/.exec(name)?.[1] }))
    .filter((s) => s.n !== undefined)
    .sort((a, b) => Number(a.n) - Number(b.n))[0]?.name;
}

/** A cell as text: numbers as written, dates as DD.MM.YYYY, rich text and formulas by their value. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date)
    return `${String(value.getUTCDate()).padStart(2, '0')}.${String(value.getUTCMonth() + 1).padStart(2, '0')}.${value.getUTCFullYear()}`;
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('text' in value) return String(value.text);
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    if ('error' in value) return '';
  }
  return String(value);
}

async function readXlsx(buf: Buffer): Promise<TableRow[]> {
  const entries = zipDirectory(buf);
  if (entries.reduce((sum, e) => sum + e.size, 0) > MAX_UNPACKED_BYTES) throw tooBig();
  const byName = new Map(entries.map((e) => [e.name, e]));
  const small = (name: string) => {
    const entry = byName.get(name);
    if (entry && entry.size > MAX_SMALL_PART_BYTES) throw partTooBig(MAX_SMALL_PART_BYTES);
    return entry;
  };
  const workbook = small('xl/workbook.xml');
  if (!workbook) throw unreadable();
  const rels = small('xl/_rels/workbook.xml.rels');
  const styles = small('xl/styles.xml');
  const workbookXml = await unpackText(buf, workbook);
  const sheetPath = firstSheetPath(workbookXml, rels && (await unpackText(buf, rels)), new Set(byName.keys()));
  const sheet = sheetPath ? byName.get(sheetPath) : undefined;
  if (!sheet) throw new TableError('У файлі Excel немає жодного аркуша.');
  if (sheet.size > MAX_SHEET_XML_BYTES) throw partTooBig(MAX_SHEET_XML_BYTES);
  const strings = byName.get('xl/sharedStrings.xml');
  if (strings && strings.size > MAX_SHARED_STRINGS_BYTES) throw partTooBig(MAX_SHARED_STRINGS_BYTES);

  const part = (name: string, entry: ZipEntry): Part => ({ name, size: entry.size, chunks: () => unpack(buf, entry) });
  const parts: Part[] = [
    // The reader only needs to know that relations exist; the sheet is the one chosen above.
    textPart(
      'xl/_rels/workbook.xml.rels',
      `<Relationships xmlns="${NS}/package/2006/relationships">` +
        `<Relationship Id="rId1" Type="${NS}/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>` +
        '</Relationships>',
    ),
    textPart('xl/workbook.xml', workbookXml),
    ...(styles ? [part('xl/styles.xml', styles)] : []),
    strings ? part('xl/sharedStrings.xml', strings) : textPart('xl/sharedStrings.xml', `<sst xmlns="${NS}/spreadsheetml/2006/main"/>`),
    part('xl/worksheets/sheet1.xml', sheet),
  ];

  const source = Readable.from(packed(parts), { objectMode: false });
  // The reader does not hear of its source's errors (a part that lies about its size): race them.
  const failure = new Promise<never>((_resolve, reject) => source.once('error', reject));
  failure.catch(() => undefined);
  const next = <T>(iterator: AsyncIterator<T>) => Promise.race([iterator.next(), failure]);

  const reader = new ExcelJS.stream.xlsx.WorkbookReader(source, {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  const sheets = reader[Symbol.asyncIterator]();
  const table = new Collector();
  const pause = createPause();
  let rowsSeen = 0;
  try {
    const first = await next(sheets);
    if (first.done) throw new TableError('У файлі Excel немає жодного аркуша.');
    const rows = first.value[Symbol.asyncIterator]();
    for (let row = await next(rows); !row.done; row = await next(rows)) {
      rowsSeen += 1;
      if (rowsSeen > MAX_SHEET_ROWS) throw tooManyRows();
      const cells: string[] = [];
      row.value.eachCell({ includeEmpty: false }, (cell, column) => {
        const text = cellText(cell.value).trim();
        if (!text) return;
        if (column > MAX_TABLE_COLUMNS) throw tooWide();
        cells[column - 1] = text;
      });
      table.add(row.value.number, cells);
      await pause();
    }
  } catch (err) {
    if (err instanceof TableError) throw err;
    throw unreadable();
  } finally {
    source.destroy();
    void sheets.return?.(undefined).catch(() => undefined);
  }
  return table.result();
}
