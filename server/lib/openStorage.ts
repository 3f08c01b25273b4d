import { diskStorage, type FileStorage, type S3Options } from './storage.ts';

/**
 * Object storage when a bucket is configured, the uploads folder otherwise. The object storage
 * client (a large module) is loaded only then (server/lib/storageS3.ts).
 */
export async function createStorage(config: { uploadsDir: string; s3?: S3Options }): Promise<FileStorage> {
  return config.s3 ? (await import('./storageS3.ts')).s3Storage(config.s3) : diskStorage(config.uploadsDir);
}
