import path from 'node:path';
import { z } from 'zod';
import type { S3Options } from './lib/storage.ts';
import type { WorkLimits } from './lib/workSlots.ts';

/** Runtime configuration, read from the environment once at start. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  ADMIN_EMAIL: z.email().default('admin@demo.ua'),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').default('demo-admin-2026'),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  PUBLIC_URL: z.url().optional(),
  SUPPORT_EMAIL: z.email().default('support@demo.ua'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TOKEN_TTL_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(12),
  SEED_DEMO: z.enum(['0', '1']).default('1'),
  /** Behind a reverse proxy: the number of proxy hops, or their addresses, whose X-Forwarded-For is believed. */
  TRUST_PROXY: z
    .string()
    .regex(/^(false|true|\d+|[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*)$/, 'must be false, true, a hop count or a list of proxy addresses')
    .default('false'),
  /** S3-compatible object storage for uploads; without S3_BUCKET files stay under DATA_DIR/uploads. */
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3-63 characters: a-z, 0-9, dots and hyphens)')
    .optional(),
  S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  S3_REGION: z.string().regex(/^[a-z0-9-]{1,50}$/, 'must be a region name such as eu-central-1').default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z.enum(['0', '1', 'false', 'true'], { error: 'must be 0, 1, false or true' }).optional(),
  /** Background jobs (mail delivery): attempts after the first failure, and whether this process runs them. */
  JOB_RETRIES: z.coerce.number().int().min(0).max(20).default(5),
  JOB_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  JOB_POLL_SECONDS: z.coerce.number().min(0.5).max(60).default(2),
  JOB_WORKERS: z.enum(['0', '1'], { error: 'must be 0 or 1' }).default('1'),
  /** Spreadsheet imports and exports running at once: in the process, and for one user. */
  IMPORT_EXPORT_LIMIT: z.coerce.number().int().min(1).max(100).default(4),
  IMPORT_EXPORT_LIMIT_PER_USER: z.coerce.number().int().min(1).max(100).default(1),
});

export type Env = z.infer<typeof envSchema>;

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  uploadsDir: string;
  databaseUrl?: string;
  adminEmail: string;
  adminPassword: string;
  smtpUrl?: string;
  publicUrl: string;
  supportEmail: string;
  logLevel: Env['LOG_LEVEL'];
  tokenTtlSeconds: number;
  seedDemo: boolean;
  trustProxy: boolean | number | string[];
  /** S3-compatible object storage for uploads; undefined: the uploads folder. */
  s3?: S3Options;
  /** Retries of a failed background job (mail delivery) before it is marked failed. */
  jobRetries: number;
  /** Seconds before the first retry of a failed job; doubled for each further one. */
  jobRetryDelaySeconds: number;
  /** How often an idle process looks for background jobs. */
  jobPollSeconds: number;
  /** Whether this process picks up background jobs (all processes do by default). */
  jobWorkers: boolean;
  /** Spreadsheet imports and exports running at once (server/lib/workSlots.ts). */
  workLimits: WorkLimits;
  /** argon2 cost; lowered only by the test suite. */
  passwordHashCost?: { memoryCost: number; timeCost: number };
}

export class ConfigError extends Error {}

/** Parses the environment; throws ConfigError with one readable line when it is invalid. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid configuration: ${issue.path.join('.')} ${issue.message}`);
  }
  const e = parsed.data;
  const s3Vars = (['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'] as const).filter((k) => e[k] !== undefined);
  if (!e.S3_BUCKET && s3Vars.length) throw new ConfigError(`Invalid configuration: S3_BUCKET is required when ${s3Vars[0]} is set`);
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(`Invalid configuration: ${e.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'} is required with the other S3 key`);
  }
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    uploadsDir: path.join(dataDir, 'uploads'),
    databaseUrl: e.DATABASE_URL,
    adminEmail: e.ADMIN_EMAIL.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    smtpUrl: e.SMTP_URL,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    supportEmail: e.SUPPORT_EMAIL,
    logLevel: e.LOG_LEVEL,
    tokenTtlSeconds: e.TOKEN_TTL_HOURS * 3600,
    seedDemo: e.SEED_DEMO === '1',
    trustProxy:
      e.TRUST_PROXY === 'false' ? false : e.TRUST_PROXY === 'true' ? true : /^\d+$/.test(e.TRUST_PROXY) ? Number(e.TRUST_PROXY) : e.TRUST_PROXY.split(','),
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT?.replace(/\/$/, ''),
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE === '1' || e.S3_FORCE_PATH_STYLE === 'true',
        }
      : undefined,
    jobRetries: e.JOB_RETRIES,
    jobRetryDelaySeconds: e.JOB_RETRY_DELAY_SECONDS,
    jobPollSeconds: e.JOB_POLL_SECONDS,
    jobWorkers: e.JOB_WORKERS === '1',
    workLimits: { perProcess: e.IMPORT_EXPORT_LIMIT, perUser: e.IMPORT_EXPORT_LIMIT_PER_USER },
  };
}
