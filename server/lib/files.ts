import crypto from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, unprocessable } from './errors.ts';
import type { FileStorage } from './storage.ts';

/** What a file is, judged by its first bytes (and, for container formats, by its extension). */
export interface FileType {
  mime: string;
  ext: string;
}

export type FileKind = 'image' | 'document';
/** What an upload field accepts: a stored media kind, or `attachment` (photos and PDF files). */
export type UploadKind = FileKind | 'attachment';

const MB = 1024 * 1024;

/** Upload rules per kind: the size cap and the types accepted (named in the error message). */
export const UPLOAD_RULES: Record<UploadKind, { maxBytes: number; accepted: string; types: (head: Buffer, ext: string) => FileType | undefined }> = {
  image: { maxBytes: 5 * MB, accepted: 'JPEG, PNG, WEBP або GIF', types: (head) => imageType(head) },
  document: {
    maxBytes: 20 * MB,
    accepted: 'PDF, DOC, DOCX, XLS, XLSX, ODT, ODS, JPEG або PNG',
    types: (head, ext) => documentType(head, ext) ?? pickImage(imageType(head)),
  },
  attachment: {
    maxBytes: 10 * MB,
    accepted: 'JPEG, PNG, WEBP, GIF або PDF',
    types: (head) => imageType(head) ?? (head.subarray(0, 5).toString('latin1') === '%PDF-' ? { mime: 'application/pdf', ext: 'pdf' } : undefined),
  },
};

const startsWith = (head: Buffer, bytes: number[], offset = 0) => bytes.every((b, i) => head[offset + i] === b);

function imageType(head: Buffer): FileType | undefined {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', ext: 'jpg' };
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: 'image/png', ext: 'png' };
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP') return { mime: 'image/webp', ext: 'webp' };
  if (/^GIF8[79]a/.test(head.subarray(0, 6).toString('latin1'))) return { mime: 'image/gif', ext: 'gif' };
  return undefined;
}

/** Bytes read before anything is stored: the type's signature and, for PNG, GIF and WEBP, the picture's size. */
const HEAD_BYTES = 32;
/** A picture larger than this is a decompression bomb for whoever opens it (a browser, a PDF writer). */
export const MAX_IMAGE_PIXELS = 100_000_000;

/** Width × height as written in the first bytes of a PNG, GIF or WEBP (VP8X) file. */
function imagePixels(head: Buffer, type: FileType): number | undefined {
  if (type.ext === 'png' && head.length >= 24) return head.readUInt32BE(16) * head.readUInt32BE(20);
  if (type.ext === 'gif' && head.length >= 10) return head.readUInt16LE(6) * head.readUInt16LE(8);
  if (type.ext === 'webp' && head.length >= 30 && head.subarray(12, 16).toString('latin1') === 'VP8X') {
    return (head.readUIntLE(24, 3) + 1) * (head.readUIntLE(27, 3) + 1);
  }
  return undefined;
}

/** Documents may also be photos of paper, but not animations. */
const pickImage = (t: FileType | undefined) => (t && (t.ext === 'jpg' || t.ext === 'png') ? t : undefined);

const ZIP_TYPES: Record<string, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
};
const OLE_TYPES: Record<string, string> = { doc: 'application/msword', xls: 'application/vnd.ms-excel' };

function documentType(head: Buffer, ext: string): FileType | undefined {
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return { mime: 'application/pdf', ext: 'pdf' };
  // Office files are containers: the signature says "zip" or "OLE", the extension says which.
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) && ZIP_TYPES[ext]) return { mime: ZIP_TYPES[ext], ext };
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) && OLE_TYPES[ext]) return { mime: OLE_TYPES[ext], ext };
  return undefined;
}

export interface StoredUpload {
  /** Random name: the key in the file storage (a file name under the uploads folder). */
  storedName: string;
  /** The name the user's file had, cleaned for display and download. */
  originalName: string;
  mime: string;
  size: number;
}

/** Other spellings of a type's extension that a name may keep. */
const EXT_ALIASES: Record<string, string[]> = { jpg: ['jpg', 'jpeg', 'jpe'] };

/** The extension of each type a stored file can have (the types `UPLOAD_RULES` accept). */
const EXT_OF_MIME: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'application/pdf': 'pdf',
  ...Object.fromEntries(Object.entries({ ...ZIP_TYPES, ...OLE_TYPES }).map(([ext, mime]) => [mime, ext])),
};

/**
 * The name a file is offered under: the client's name with the extension of the type judged by
 * content, so a PDF named `page.html` downloads as `page.pdf` and never opens as a web page.
 * A last "extension" that is not a file type (a date, «№ 3.2») is kept and the type's added.
 */
export function downloadName(name: string, mime: string): string {
  const ext = EXT_OF_MIME[mime] ?? 'bin';
  // No hidden-file names (a leading dot) and no trailing dots or spaces, which Windows drops.
  const cleaned = cleanFileName(name).replace(/^[.\s]+/, '') || 'файл';
  const dot = cleaned.lastIndexOf('.');
  const current = dot > 0 ? cleaned.slice(dot + 1) : '';
  if ((EXT_ALIASES[ext] ?? [ext]).includes(current.toLowerCase())) return cleaned;
  const looksLikeType = /^[a-z0-9]{1,10}$/i.test(current) && /[a-z]/i.test(current);
  const base = (looksLikeType ? cleaned.slice(0, dot) : cleaned).replace(/[.\s]+$/, '') || 'файл';
  return `${base.slice(0, 190)}.${ext}`;
}

/** A `Content-Disposition` value that no file name can break: an ASCII fallback and the RFC 5987 UTF-8 name. */
export function contentDisposition(disposition: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\;%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The client's file name without folders, control characters or anything that breaks a header. */
export function cleanFileName(name: string, fallback = 'файл'): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f"<>|*?:]/g, '')
    .trim()
    .slice(0, 200);
  return cleaned || fallback;
}

/** Removes a stored upload; a missing name or file is not an error. */
export async function removeStored(storage: FileStorage, storedName: string | undefined) {
  if (storedName) await storage.delete(storedName);
}

export interface MultipartForm {
  /** Text fields; `name[]` (or `name[0]`) fields and repeated names become arrays. */
  fields: Record<string, string | string[]>;
  /** The uploaded file of `fileField`, already stored, type-checked. */
  file?: StoredUpload;
  /** Every uploaded file of `fileField` (also sent as `name[]`), when `maxFiles` allows several. */
  files: StoredUpload[];
}

const tooLarge = (kind: UploadKind) => new HttpError(413, `Файл завеликий: не більше ${UPLOAD_RULES[kind].maxBytes / MB} МБ.`);

/**
 * Reads a multipart form: text fields into `fields`, the one file of `fileField` streamed to the
 * file storage under a random name, with the size cap and type check of `kind`. Anything wrong
 * answers 4xx with a Ukrainian message and leaves no file behind.
 */
export async function readMultipartForm(
  request: FastifyRequest,
  opts: { storage: FileStorage; fileField?: string; kind?: UploadKind; maxFiles?: number },
): Promise<MultipartForm> {
  if (!request.isMultipart()) throw new HttpError(415, 'Очікується форма multipart/form-data.');
  const fields: Record<string, string | string[]> = {};
  const files: StoredUpload[] = [];
  const maxFiles = opts.maxFiles ?? 1;
  let partial: string | undefined;
  const kind = opts.kind ?? 'image';
  const rules = UPLOAD_RULES[kind];
  const { storage } = opts;
  try {
    const parts = request.parts({ limits: { fileSize: rules.maxBytes, files: maxFiles, fields: 200, parts: 201, fieldSize: 200_000 } });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.valueTruncated) throw unprocessable({ [part.fieldname]: ['Значення поля задовге.'] });
        const value = String(part.value ?? '');
        if (value.includes('\u0000')) throw unprocessable({ [part.fieldname]: ['Поле містить недопустимі символи.'] });
        const arrayMatch = /^(.+?)\[\d*\]$/.exec(part.fieldname);
        const key = arrayMatch ? arrayMatch[1] : part.fieldname;
        if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
        const existing = fields[key];
        if (arrayMatch || existing !== undefined) {
          fields[key] = existing === undefined ? [value] : Array.isArray(existing) ? [...existing, value] : [existing, value];
        } else {
          fields[key] = value;
        }
        continue;
      }
      const fileFieldName = maxFiles > 1 ? part.fieldname.replace(/\[\d*\]$/, '') : part.fieldname;
      if (!opts.fileField || fileFieldName !== opts.fileField) {
        part.file.resume();
        throw unprocessable({ [part.fieldname]: ['Файл у цьому полі не очікується.'] });
      }
      const ext = path
        .extname(part.filename ?? '')
        .slice(1)
        .toLowerCase();
      // The type is judged from the first bytes, before anything is stored: it names the object.
      const chunks = part.file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
      const first: Buffer[] = [];
      let head = Buffer.alloc(0);
      let size = 0;
      try {
        while (head.length < HEAD_BYTES) {
          const next = await chunks.next();
          if (next.done) break;
          first.push(next.value);
          size += next.value.length;
          if (head.length < HEAD_BYTES) head = Buffer.concat([head, next.value.subarray(0, HEAD_BYTES - head.length)]);
        }
        const type = size > 0 ? rules.types(head, ext) : undefined;
        const pixels = type ? imagePixels(head, type) : undefined;
        if (pixels !== undefined && pixels > MAX_IMAGE_PIXELS) {
          part.file.resume();
          throw unprocessable({ [part.fieldname]: [`Зображення завелике: не більше ${MAX_IMAGE_PIXELS / 1_000_000} мегапікселів.`] });
        }
        async function* rest() {
          yield* first;
          for (;;) {
            const next = await chunks.next();
            if (next.done) return;
            if (next.value.length) size += next.value.length;
            yield next.value;
          }
        }
        if (!type) {
          // Read to the end anyway, so that a file too large is still told as such.
          for await (const chunk of rest()) void chunk;
          if (part.file.truncated) throw tooLarge(kind);
          if (size === 0) throw unprocessable({ [part.fieldname]: ['Файл порожній.'] });
          throw new HttpError(415, `Непідтримуваний тип файлу. Дозволено: ${rules.accepted}.`);
        }
        const storedName = `${crypto.randomBytes(16).toString('hex')}.${type.ext}`;
        partial = storedName;
        await storage.put(storedName, Readable.from(rest(), { objectMode: false }), { contentType: type.mime });
        if (part.file.truncated) throw tooLarge(kind);
        partial = undefined;
        files.push({ storedName, originalName: downloadName(part.filename ?? '', type.mime), mime: type.mime, size });
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(kind);
        throw err;
      }
    }
  } catch (err) {
    await removeStored(storage, partial);
    for (const stored of files) await removeStored(storage, stored.storedName);
    const code = (err as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') {
      throw unprocessable({ [opts.fileField ?? 'file']: [maxFiles > 1 ? `Не більше ${maxFiles} файлів.` : 'Можна надіслати лише один файл.'] });
    }
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') throw new HttpError(413, 'Забагато полів у формі.');
    if (code === 'FST_PROTO_VIOLATION') throw new HttpError(400, 'Некоректна назва поля форми.');
    if (
      code === 'FST_MP_PREMATURE_CLOSE' ||
      /Unexpected end of (form|multipart)|Malformed part header|Multipart: Boundary not found/i.test(String((err as Error).message))
    ) {
      throw new HttpError(400, 'Форму передано не повністю або з помилками.');
    }
    throw err;
  }
  return { fields, file: files[0], files };
}

/**
 * Sends a stored file as the type judged by its content, under a name with that type's extension
 * (`downloadName`), with `nosniff`. Only pictures may be shown in place (`inline`); everything
 * else is an attachment, which browsers save rather than open.
 */
export async function sendStored(
  reply: FastifyReply,
  storage: FileStorage,
  file: { storedName: string; originalName: string; mime: string; size: number },
  disposition: 'inline' | 'attachment' = 'inline',
) {
  const body = await storage.get(file.storedName);
  if (!body) throw new HttpError(404, 'Файл не знайдено.');
  const shown = disposition === 'inline' && file.mime.startsWith('image/') ? 'inline' : 'attachment';
  return reply
    .header('Content-Type', file.mime)
    .header('Content-Length', file.size)
    .header('Content-Disposition', contentDisposition(shown, downloadName(file.originalName, file.mime)))
    .header('Cache-Control', 'no-store')
    .header('X-Content-Type-Options', 'nosniff')
    .send(body);
}
