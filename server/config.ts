import path from 'node:path';
import { z } from 'zod';
import { isCommonPassword } from './lib/passwords.ts';
import { SECRET_MIN_LENGTH } from './lib/sealed.ts';
import type { S3Options } from './lib/storage.ts';
import type { WorkLimits } from './lib/workSlots.ts';

/** The demo accounts the README publishes: a production start refuses them (`productionRefusal`). */
export const DEMO_ADMIN = { email: 'admin@demo.ua', password: 'demo-admin-2026' };
export const DEMO_STAFF = { email: 'dispatcher@demo.ua', password: 'demo-staff-2026' };
/** Passwords anyone can read in this project: never an account's password on a production start. */
export const PUBLISHED_PASSWORDS: readonly string[] = [DEMO_ADMIN.password, DEMO_STAFF.password];

/** Runtime configuration, read from the environment once at start. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Listen address: this computer only unless set (`0.0.0.0`: every interface). */
  HOST: z.string().min(1).default('localhost'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  ADMIN_EMAIL: z.email().default(DEMO_ADMIN.email),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  /** An HTTP SMS gateway: POST {to, text} as JSON with `Authorization: Bearer SMS_GATEWAY_TOKEN`. */
  SMS_GATEWAY_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  SMS_GATEWAY_TOKEN: z.string().min(1).max(4096).optional(),
  /** `production`: a production start (refuses the demo, no development outbox) whatever PUBLIC_URL says. */
  NODE_ENV: z.string().optional(),
  PUBLIC_URL: z.url().optional(),
  SUPPORT_EMAIL: z.email().default('support@demo.ua'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TOKEN_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(12),
  /** Longest time a client may take to send one request (headers and body); then 408 and the connection is closed. */
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
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
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,50}$/, 'must be a region name such as eu-central-1')
    .default('us-east-1'),
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
  /** The secret meetings' voting links are sealed with; unset: one generated into DATA_DIR/link.key. */
  LINK_SECRET: z.string().min(SECRET_MIN_LENGTH, `must be at least ${SECRET_MIN_LENGTH} characters`).max(4096).optional(),
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
  /** Whether ADMIN_PASSWORD was set (otherwise adminPassword is the published demo one). */
  adminPasswordSet: boolean;
  smtpUrl?: string;
  /** The HTTP SMS gateway; undefined: no SMS transport. */
  smsGateway?: { url: string; token: string };
  publicUrl: string;
  /**
   * The development outbox: no mail or SMS transport and not production, so messages are kept
   * in the outbox, codes and links included, for a developer to read. Never on in production.
   */
  devOutbox: boolean;
  supportEmail: string;
  logLevel: Env['LOG_LEVEL'];
  tokenTtlSeconds: number;
  /** Longest time a client may take to send one request, headers and body. */
  requestTimeoutMs: number;
  seedDemo: boolean;
  /**
   * Why this is a production start — `NODE_ENV=production`, or a PUBLIC_URL that is not this
   * computer (localhost, 127.0.0.0/8, ::1) nor a name reserved for testing (*.localhost, *.test)
   * — or undefined for a local one (the demo, the test suites).
   */
  production?: string;
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
  /**
   * The secret meetings' voting links are sealed with (LINK_SECRET); undefined: the one kept in
   * DATA_DIR/link.key, generated on first use (server/modules/voting/linkTokens.ts).
   */
  linkSecret?: string;
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
  if (Boolean(e.SMS_GATEWAY_URL) !== Boolean(e.SMS_GATEWAY_TOKEN)) {
    throw new ConfigError(
      `Invalid configuration: ${e.SMS_GATEWAY_URL ? 'SMS_GATEWAY_TOKEN' : 'SMS_GATEWAY_URL'} is required with the other SMS gateway variable`,
    );
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const production = e.NODE_ENV === 'production' ? 'NODE_ENV=production' : !isDevelopmentUrl(publicUrl) ? `PUBLIC_URL=${publicUrl}` : undefined;
  const smsGateway = e.SMS_GATEWAY_URL && e.SMS_GATEWAY_TOKEN ? { url: e.SMS_GATEWAY_URL, token: e.SMS_GATEWAY_TOKEN } : undefined;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    uploadsDir: path.join(dataDir, 'uploads'),
    databaseUrl: e.DATABASE_URL,
    adminEmail: e.ADMIN_EMAIL.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD ?? DEMO_ADMIN.password,
    adminPasswordSet: e.ADMIN_PASSWORD !== undefined,
    smtpUrl: e.SMTP_URL,
    smsGateway,
    publicUrl,
    production,
    devOutbox: production === undefined && !e.SMTP_URL && !smsGateway,
    supportEmail: e.SUPPORT_EMAIL,
    logLevel: e.LOG_LEVEL,
    tokenTtlSeconds: e.TOKEN_TTL_HOURS * 3600,
    requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
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
    linkSecret: e.LINK_SECRET,
  };
}

/**
 * Whether a public address can only be a developer's: this machine (localhost, 127.0.0.0/8, ::1)
 * or a name that never resolves in public DNS (*.localhost, and *.test, reserved for testing by
 * RFC 6761). Anything else is where real people reach the product.
 */
export function isDevelopmentUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.test') || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Why a production start must not go ahead with this configuration, in one line naming what to
 * set; undefined when it may (and always for a local start, so `npm start` with nothing set
 * still seeds the demo). A production start needs SEED_DEMO=0 (the demo accounts' passwords are
 * published) and, when it is set, an ADMIN_PASSWORD that is neither published, nor common, nor
 * short. That the first admin of an empty database needs ADMIN_PASSWORD, and that no existing
 * account still has a published password, is checked against the database (`server/seed.ts`).
 */
export function productionRefusal(config: Pick<AppConfig, 'production' | 'seedDemo' | 'adminPassword' | 'adminPasswordSet'>): string | undefined {
  if (!config.production) return undefined;
  const start = `Production start (${config.production}) refused:`;
  if (config.seedDemo) {
    return `${start} set SEED_DEMO=0 (the demo accounts' passwords are published in the README).`;
  }
  if (config.adminPasswordSet) {
    const problem = passwordProblem(config.adminPassword);
    if (problem) return `${start} ADMIN_PASSWORD ${problem}; set ADMIN_PASSWORD to a password of your own.`;
  }
  return undefined;
}

/** The shortest ADMIN_PASSWORD a production start takes (the first admin's, set by hand once). */
export const PRODUCTION_PASSWORD_MIN = 12;

/** Why a password must not guard the first admin of a production installation, or undefined. */
export function passwordProblem(password: string): string | undefined {
  if (PUBLISHED_PASSWORDS.some((p) => p.toLowerCase() === password.toLowerCase())) return 'is a demo password published in the README';
  if (isCommonPassword(password)) return 'is among the most common passwords';
  if (password.length < PRODUCTION_PASSWORD_MIN) return `is shorter than ${PRODUCTION_PASSWORD_MIN} characters`;
  return undefined;
}
