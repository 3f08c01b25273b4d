import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/** An error whose status and message are meant for the client. */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly errors?: Record<string, string[]>,
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = (message = 'Запис не знайдено.') => new HttpError(404, message);
export const forbidden = (message = 'Недостатньо прав для цієї дії.') => new HttpError(403, message);
export const conflict = (message: string) => new HttpError(409, message);
export const unprocessable = (errors: Record<string, string[]>, message?: string) =>
  new HttpError(422, message ?? Object.values(errors)[0]?.[0] ?? 'Дані не пройшли перевірку.', errors);

const STATUS_MESSAGES: Record<number, string> = {
  400: 'Некоректний запит.',
  401: 'Unauthenticated.',
  403: 'Недостатньо прав для цієї дії.',
  404: 'Не знайдено.',
  405: 'Метод не підтримується.',
  406: 'Неприйнятний формат відповіді.',
  413: 'Запит завеликий.',
  415: 'Непідтримуваний тип вмісту.',
  429: 'Забагато запитів. Спробуйте пізніше.',
};

export const DATABASE_UNAVAILABLE = 'База даних тимчасово недоступна. Спробуйте за хвилину.';

/** PostgreSQL's unique_violation (23505), on the error or the driver's error it wraps. */
export const isUniqueViolation = (err: unknown) =>
  (err as { code?: string })?.code === '23505' || (err as { cause?: { code?: string } })?.cause?.code === '23505';

/** PostgreSQL's foreign_key_violation (23503), on the error or the driver's error it wraps. */
export const isForeignKeyViolation = (err: unknown) =>
  (err as { code?: string })?.code === '23503' || (err as { cause?: { code?: string } })?.cause?.code === '23503';

/** Network errors and PostgreSQL codes meaning "the server is gone or not accepting connections". */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const CONNECTION_MESSAGES =
  /timeout exceeded when trying to connect|connection terminated|connection timeout|timeout expired|not queryable|server closed the connection/i;

/** Whether an error (or what it wraps: the driver's error under the ORM's) means the database cannot be reached. */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (CONNECTION_CODES.has(e.code) || /^08/.test(e.code))) return true;
  if (typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message) && !(err instanceof HttpError)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

type Issue = { path: PropertyKey[]; message: string };

/** Turns zod issues into Laravel-style `errors`: field (dotted path) → messages. */
export function issuesToErrors(issues: readonly Issue[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || '_';
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
}

/**
 * One error handler for the whole API: clients get `{message}` (+`errors` on 422), never internals.
 * `confirmNow` reads a request's session that was not read for it (server/lib/auth.ts).
 */
export function installErrorHandler(app: FastifyInstance, confirmNow: (db: FastifyInstance['db'], request: FastifyRequest) => Promise<void>) {
  app.setErrorHandler(async (err: FastifyError | HttpError, request, reply) => {
    // A request started with a session not read for it (server/lib/auth.ts) is refused only once
    // the session is: an ended one answers 401 whatever else went wrong.
    if (request.session && !request.session.confirmed && !(err instanceof HttpError && err.statusCode === 401)) {
      try {
        await confirmNow(app.db, request);
      } catch (confirmErr) {
        if (confirmErr instanceof HttpError) return reply.code(confirmErr.statusCode).send({ message: confirmErr.message });
        throw confirmErr;
      }
    }
    if (err instanceof HttpError) {
      if (err.headers) reply.headers(err.headers);
      return reply.code(err.statusCode).send(err.errors ? { message: err.message, errors: err.errors } : { message: err.message });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = err.validation.map((v) => ({
        path: v.instancePath.split('/').filter(Boolean),
        message: v.message ?? 'Некоректне значення.',
      }));
      const errors = issuesToErrors(issues);
      return reply.code(422).send({ message: Object.values(errors)[0]?.[0] ?? 'Дані не пройшли перевірку.', errors });
    }
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      // Framework-level client errors (bad JSON, body too large, bad content type, ...).
      const message =
        err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'Тіло запиту не є коректним JSON.'
          : (STATUS_MESSAGES[status] ?? 'Некоректний запит.');
      return reply.code(status).send({ message });
    }
    if (isDatabaseUnavailable(err)) {
      request.log.warn({ err }, 'database unavailable');
      return reply.code(503).header('Retry-After', '30').send({ message: DATABASE_UNAVAILABLE });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ message: 'Внутрішня помилка сервера. Спробуйте пізніше.' });
  });
}
