/** Uploads in an S3-compatible bucket (S3_BUCKET): loaded only when one is configured. */
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { checkKey, type FileStorage, type S3Options } from './storage.ts';

/** Smallest part S3 accepts in a multipart upload (except the last one). */
const PART_SIZE = 5 * 1024 * 1024;

/**
 * An S3-compatible bucket. Bodies of unknown length are sent in one request when they fit in
 * one part and as a multipart upload otherwise, so memory stays at one part per upload.
 */
export function s3Storage(opts: S3Options): FileStorage & { client: S3Client } {
  const client = new S3Client({
    region: opts.region,
    endpoint: opts.endpoint,
    forcePathStyle: opts.forcePathStyle,
    credentials: opts.accessKeyId && opts.secretAccessKey ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } : undefined,
    // Many S3-compatible servers do not take the newer default checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = opts.bucket;
  const missing = (err: unknown) => {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
  };

  return {
    kind: 's3',
    client,
    async put(key, body, meta = {}) {
      const Key = checkKey(key);
      const ContentType = meta.contentType;
      let buffered: Buffer[] = [];
      let length = 0;
      let uploadId: string | undefined;
      const parts: { ETag?: string; PartNumber: number }[] = [];
      const flush = async () => {
        uploadId ??= (await client.send(new CreateMultipartUploadCommand({ Bucket, Key, ContentType }))).UploadId;
        const PartNumber = parts.length + 1;
        const chunk = Buffer.concat(buffered);
        buffered = [];
        length = 0;
        const { ETag } = await client.send(new UploadPartCommand({ Bucket, Key, UploadId: uploadId, PartNumber, Body: chunk, ContentLength: chunk.length }));
        parts.push({ ETag, PartNumber });
      };
      try {
        for await (const chunk of body) {
          const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
          buffered.push(b);
          length += b.length;
          if (length >= PART_SIZE) await flush();
        }
        if (uploadId === undefined) {
          const whole = Buffer.concat(buffered);
          await client.send(new PutObjectCommand({ Bucket, Key, Body: whole, ContentLength: whole.length, ContentType }));
          return;
        }
        if (length > 0 || parts.length === 0) await flush();
        await client.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
      } catch (err) {
        body.destroy();
        if (uploadId) await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: uploadId })).catch(() => {});
        throw err;
      }
    },
    async get(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: checkKey(key) }));
        return res.Body instanceof Readable ? res.Body : Readable.fromWeb(res.Body!.transformToWebStream() as never);
      } catch (err) {
        if (missing(err)) return undefined;
        throw err;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: checkKey(key) }));
    },
  };
}
