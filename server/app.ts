import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import Fastify, { type FastifyServerOptions } from 'fastify';
import helmet from 'helmet';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppConfig } from './config.ts';
import { CrudRegistry } from './crud/registry.ts';
import type { Database, Db } from './db/index.ts';
import { confirmNow, requireAuth } from './lib/auth.ts';
import { createDelivery, type Delivery } from './lib/delivery.ts';
import { configuredTransports } from './lib/transports.ts';
import { HttpError, installErrorHandler } from './lib/errors.ts';
import { createRedactor, redactingLoggerOptions } from './lib/logging.ts';
import { requestTimeoutOptions } from './lib/timeouts.ts';
import { ENTITIES } from '../contract/entities.ts';
import { TOKEN_PAGES } from '../contract/links.ts';
import { openJobQueue, type JobQueue } from './lib/jobs.ts';
import { parseQueryString } from './lib/pagination.ts';
import { PURGE_JOB, PURGE_RULES, purgeExpired } from './lib/sessions.ts';
import { VACUUM_EVERY_SECONDS, VACUUM_JOB, vacuumDue } from './lib/maintenance.ts';
import { createStorage } from './lib/openStorage.ts';
import type { FileStorage } from './lib/storage.ts';
import { createWorkSlots, type WorkSlots } from './lib/workSlots.ts';
import { createLocalLiveBus, createPgLiveBus, type LiveBus } from './lib/live.ts';
import { LINK_ROUTES, PUBLIC_ROUTES, SECURED_ROUTES, type RouteDeps } from './modules/index.ts';
import type { SignatureProvider } from './modules/voting/signature.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    /**
     * Rows one statement reads or maps for long answers (exports, big pages): the embedded
     * database runs one statement at a time for the whole process, so there they are small enough
     * that no statement holds it long (docs/benchmarks.md, "Sharing the embedded database").
     */
    rowsPerStatement: number;
    config: AppConfig;
    delivery: Delivery;
    live: LiveBus;
    /** Background jobs in the database; server/main.ts starts picking them up (`jobs.work()`). */
    jobs: JobQueue;
    /** Uploaded files: the uploads folder, or object storage when configured. */
    storage: FileStorage;
    /** How many spreadsheet imports and exports may run at once (per process and per user). */
    workSlots: WorkSlots;
  }
}

export const API_PREFIX = '/api/admin';
/** `rowsPerStatement` on PGlite: 100 members with their units map in about 10–20 ms there. */
export const PGLITE_ROWS_PER_STATEMENT = 100;
/**
 * The API's paths. Every API answer is someone's own (their data, a sign-in token, a private file,
 * a link's page): no browser or proxy cache keeps a copy once it is shown (Cache-Control: no-store).
 */
const API_URL = /^\/api(\/|\?|$)/;

export interface BuildOptions {
  config: AppConfig;
  database: Database;
  /** Logger options (level, stream); the app adds what keeps secrets out of every line. */
  logger?: false | true | Omit<Exclude<FastifyServerOptions['logger'], boolean | undefined>, 'serializers' | 'hooks' | 'formatters'>;
  /** Folder with the built SPA; not served when absent (API-only tests). */
  spaDir?: string;
  /** Qualified electronic signature providers for co-owners' ballots (none by default). */
  signatureProviders?: SignatureProvider[];
}

/** Builds the whole application without listening, so tests can inject requests into it. */
export async function buildApp({ config, database, logger = false, spaDir, signatureProviders = [] }: BuildOptions) {
  // Links' tokens and tickets never reach the log: the SPA's link pages and every route with such
  // a parameter (added as it is registered, below) are known to the redactor.
  const redactor = createRedactor(Object.values(TOKEN_PAGES));
  const app = Fastify({
    logger: logger && { ...(logger === true ? {} : logger), ...redactingLoggerOptions(redactor) },
    ...requestTimeoutOptions(config.requestTimeoutMs),
    bodyLimit: 1024 * 1024,
    // Fastify also takes a hop count here, which its types leave out.
    trustProxy: config.trustProxy as boolean | string[],
    routerOptions: { querystringParser: parseQueryString, ignoreTrailingSlash: true },
    ajv: undefined,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app, confirmNow);
  app.addHook('onRoute', (route) => redactor.addRoute(route.url));

  app.decorate('db', database.db);
  app.decorate('rowsPerStatement', database.driver === 'pglite' ? PGLITE_ROWS_PER_STATEMENT : 1000);
  app.decorate('config', config);
  app.decorate('crud', new CrudRegistry(ENTITIES));
  app.decorate('storage', await createStorage(config));
  app.decorate('workSlots', createWorkSlots(config.workLimits));
  const jobs = await openJobQueue(database, {
    log: app.log,
    retries: config.jobRetries,
    retryDelaySeconds: config.jobRetryDelaySeconds,
    pollSeconds: config.jobPollSeconds,
  });
  app.decorate('jobs', jobs);
  app.addHook('onClose', async () => jobs.close());
  const delivery = createDelivery({ db: database.db, jobs, transports: configuredTransports(config), devOutbox: config.devOutbox, log: app.log });
  app.decorate('delivery', delivery);
  // Content left readable by a development period (or an older version) does not outlive it.
  await delivery.eraseStoredContent();
  // Ended sessions, used tickets, links and codes, old failed sign-ins: purged once an hour by one of the processes.
  jobs.every(PURGE_JOB, PURGE_RULES.everySeconds, async () => {
    app.log.info({ purged: await purgeExpired(database.db) }, 'expired sessions, links, codes and sign-in attempts purged');
  });

  // The embedded database has no autovacuum worker: dead rows and the planner's statistics are seen to here.
  if (database.driver === 'pglite')
    jobs.every(VACUUM_JOB, VACUUM_EVERY_SECONDS, async () => {
      const tables = await vacuumDue(database.db);
      if (tables.length) app.log.info({ tables }, 'tables vacuumed and analyzed');
    });

  // Several processes on one PostgreSQL share live updates through LISTEN/NOTIFY; PGlite is one process.
  const live = database.driver === 'postgres' && database.url ? await createPgLiveBus(database.url, app.log) : createLocalLiveBus(app.log);
  app.decorate('live', live);
  app.addHook('onClose', async () => live.close());

  // The security headers of every answer, the same for each, and on the API no-store: set in one
  // step (running helmet's dozen middlewares on every request took about a tenth of a light list's
  // Node time). An API answer is told by its matched route — the router also reaches one by a
  // path it decodes (/%61pi/…) or by an absolute-form target — or by the path when none matched.
  const headers = securityHeaders();
  const apiHeaders = { ...headers, 'cache-control': 'no-store' };
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(API_URL.test(request.routeOptions.url ?? request.url) ? apiHeaders : headers);
    done();
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'API адмін-панелі ЖК', version: process.env.npm_package_version ?? '0.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(async (docs) => {
    // The documentation's files are served with their own caching (public, max-age=0) over the
    // no-store set at the request: set again as they go out, here only.
    docs.addHook('onSend', (_request, reply, payload, done) => {
      reply.header('cache-control', 'no-store');
      done(null, payload);
    });
    await docs.register(swaggerUi, {
      routePrefix: `${API_PREFIX}/docs`,
      staticCSP: true,
      // Its own policy lets any page of this origin frame the documentation; no page may frame any of ours.
      transformStaticCSP: (header: string) => header.replace("frame-ancestors 'self'", "frame-ancestors 'none'"),
    });
  });
  app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());

  const deps: RouteDeps = { signatureProviders };
  await app.register(
    async (api) => {
      for (const r of PUBLIC_ROUTES) await api.register(r.plugin, r.options?.(deps));
      await api.register(async (secured) => {
        await secured.register(requireAuth, { db: database.db });
        for (const r of SECURED_ROUTES) await secured.register(r.plugin, r.options?.(deps));
      });
    },
    { prefix: API_PREFIX },
  );
  for (const r of LINK_ROUTES) await app.register(r.plugin, r.options?.(deps));

  const indexHtml = spaDir && fs.existsSync(path.join(spaDir, 'index.html')) ? path.join(spaDir, 'index.html') : undefined;
  if (indexHtml && spaDir) {
    await app.register(fastifyStatic, {
      root: spaDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies of scripts and styles (vite.config.ts); sent when accepted.
      preCompressed: true,
      setHeaders(reply, filePath) {
        reply.header('Cache-Control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  // The support address is runtime configuration, so it is written into the page as it is served.
  const indexPage = indexHtml
    ? fs
        .readFileSync(indexHtml, 'utf8')
        .replace('<meta name="support-email" content="" />', `<meta name="support-email" content="${escapeHtml(config.supportEmail)}" />`)
    : undefined;

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0];
    if (url.startsWith('/api/') || url === '/api') throw new HttpError(404, 'Такого методу API не існує.');
    if (indexPage && (request.method === 'GET' || request.method === 'HEAD')) {
      // Client-side routes: any other path gets the SPA, which shows its own 404 page when needed.
      return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(indexPage);
    }
    throw new HttpError(404, 'Не знайдено.');
  });

  return app;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The headers helmet sets on an answer, read once: none of them depends on the request (no
 * nonces), so every answer gets the same set. (The benchmark's floor sends them too: the same answer.)
 */
export function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  let done = false;
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // MUI (emotion) injects its styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
  })({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
    done = true;
  });
  if (!done || !headers['content-security-policy']) throw new Error('the security headers were not set');
  return headers;
}
