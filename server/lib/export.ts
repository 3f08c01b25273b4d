import ExcelJS from 'exceljs';
import { PassThrough, type Writable } from 'node:stream';
import { once } from 'node:events';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import { neutraliseCsvCell } from '../../contract/csv.ts';
import { createPause } from './eventLoop.ts';

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportColumn<T> {
  header: string;
  value: (row: T) => string | number | null;
  /** Column width in XLSX, in characters. */
  width?: number;
}

export interface ExportOptions<T> {
  format: ExportFormat;
  /** File name without the extension. */
  filename: string;
  /** The ASCII name for clients that do not read `filename*` (default: `filename` with other characters as `_`). */
  asciiFilename?: string;
  /** XLSX sheet name. */
  sheet?: string;
  columns: ExportColumn<T>[];
  /** Rows in batches, read lazily: only one batch is held at a time. */
  batches: AsyncIterable<T[]>;
  onError?: (err: unknown) => void;
}

const CONTENT_TYPE: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Waits while the stream's buffer is full, so that a slow client slows the reading down too. */
async function drained(stream: Writable, signal: AbortSignal) {
  signal.throwIfAborted();
  if (stream.writableNeedDrain) await once(stream, 'drain', { signal });
}

/**
 * Streams a table as CSV (UTF-8 with BOM and `;`, as Excel in the Ukrainian locale opens it) or
 * XLSX (ExcelJS's streaming writer) with no row cap: rows are written batch by batch as they are
 * read, with back-pressure, so memory stays flat whatever the row count. Sends the reply itself.
 * Text that a spreadsheet would run as a formula is neutralised in CSV (`neutraliseCsvCell`) and
 * written as plain text cells in XLSX (docs/security.md, section 7).
 *
 * Each export holds one of the user's and the process's work slots (server/lib/workSlots.ts) until
 * its last row is written or it stops: another export or import beyond the limits answers 429
 * before anything is sent. A client that goes away stops the reading of rows.
 */
export function sendExport<T>(reply: FastifyReply, opts: ExportOptions<T>): FastifyReply {
  const release = reply.server.workSlots.take(reply.request.user.id);
  const out = new PassThrough({ highWaterMark: 256 * 1024 });
  // The reply's stream closes when the download ends, fails or the client hangs up: no more rows then.
  const stop = new AbortController();
  out.once('close', () => stop.abort());
  const ascii = (opts.asciiFilename ?? opts.filename).replace(/[^\w.-]+/g, '_');
  reply
    .header('Content-Type', CONTENT_TYPE[opts.format])
    .header('Content-Disposition', `attachment; filename="${ascii}.${opts.format}"; filename*=UTF-8''${encodeURIComponent(opts.filename)}.${opts.format}`)
    .header('Cache-Control', 'no-store');

  const write = opts.format === 'csv' ? writeCsv(out, opts, stop.signal) : writeXlsx(out, opts, stop.signal);
  write
    .catch((err: unknown) => {
      if (stop.signal.aborted) return;
      opts.onError?.(err);
      // Headers are gone already: a cut-off download is how the client learns it failed.
      out.destroy(err instanceof Error ? err : new Error(String(err)));
    })
    .finally(release);
  return reply.send(out);
}

/** A CSV cell: numbers as they are, text neutralised so that no spreadsheet reads it as a formula. */
const csvCell = (value: string | number | null): string | number => (typeof value === 'number' ? value : neutraliseCsvCell(value ?? ''));

/** An XLSX cell: a number, or a plain text cell (never a formula, whatever the text starts with). */
const xlsxCell = (value: string | number | null): string | number | null => (typeof value === 'number' || value === null ? value : String(value));

async function writeCsv<T>(out: PassThrough, opts: ExportOptions<T>, signal: AbortSignal) {
  const csv = stringify({ delimiter: ';', bom: true, header: true, columns: opts.columns.map((c) => neutraliseCsvCell(c.header)) });
  csv.pipe(out);
  const pause = createPause();
  for await (const batch of opts.batches) {
    for (const row of batch) {
      if (!csv.write(opts.columns.map((c) => csvCell(c.value(row))))) await once(csv, 'drain', { signal });
    }
    await drained(out, signal);
    await pause();
  }
  csv.end();
}

async function writeXlsx<T>(out: PassThrough, opts: ExportOptions<T>, signal: AbortSignal) {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(opts.sheet ?? 'Аркуш1');
  sheet.columns = opts.columns.map((c) => ({ header: c.header, width: c.width ?? 20 }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  const pause = createPause();
  for await (const batch of opts.batches) {
    for (const row of batch) sheet.addRow(opts.columns.map((c) => xlsxCell(c.value(row)))).commit();
    await drained(out, signal);
    await pause();
  }
  sheet.commit();
  await workbook.commit();
}
