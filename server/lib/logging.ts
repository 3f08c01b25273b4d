/**
 * What the logs may carry. A link's token (password reset, invitation, co-owners' voting, staff
 * chat) or a live-stream ticket is a credential: whoever reads the log could open the link. A
 * failed query's parameters and the database's `detail` hold personal data and secrets. Every
 * log line goes through the serializers and hooks below, which hide both.
 */

/** What stands in a log line where a secret was. */
export const REDACTED = '[redacted]';

/** Names of route and query parameters whose value is a credential. */
export const SECRET_NAME = /token|ticket|secret|password|challenge|signature/i;

/** Characters a secret in a path segment or a query value runs to. */
const VALUE = String.raw`[^/?#&\s"'<>]+`;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The part of a route path before each secret parameter, as a pattern: `/api/staff/chat/:token`
 * gives `/+api/+staff/+chat/+` (repeated slashes reach the same route). Other parameters before
 * it match any one segment.
 */
function secretPrefixes(route: string): string[] {
  const segments = route.split('/');
  const out: string[] = [];
  segments.forEach((segment, i) => {
    const param = /^:(\w+)\??$/.exec(segment);
    if (!param || !SECRET_NAME.test(param[1])) return;
    const before = segments.slice(0, i).map((s) => (s.startsWith(':') ? VALUE : escapeRegExp(s)));
    out.push(`${before.join('/+')}/+`);
  });
  return out;
}

export interface Redactor {
  /** Hides this route's secret parameters (`/Vote/:token`, `/api/public/voting/:token/code`) from now on. */
  addRoute(path: string): void;
  /** The text with every secret of a known route and every secret query value replaced. */
  redact(text: string): string;
}

/** A redactor that knows these routes; more are added as the app registers them. */
export function createRedactor(routes: readonly string[] = []): Redactor {
  const prefixes = new Set<string>();
  let pathPattern: RegExp | undefined;
  const query = new RegExp(String.raw`([?&]([^=&#\s"'<>]*)=)([^&#\s"'<>]*)`, 'g');
  const redactor: Redactor = {
    addRoute(path) {
      const before = prefixes.size;
      for (const p of secretPrefixes(path)) prefixes.add(p);
      if (prefixes.size !== before) pathPattern = new RegExp(`(${[...prefixes].join('|')})${VALUE}`, 'gi');
    },
    redact(text) {
      let out = pathPattern ? text.replace(pathPattern, (_all, prefix: string) => `${prefix}${REDACTED}`) : text;
      if (out.includes('=')) out = out.replace(query, (all, head: string, name: string) => (SECRET_NAME.test(safeDecode(name)) ? `${head}${REDACTED}` : all));
      return out;
    },
  };
  for (const r of routes) redactor.addRoute(r);
  return redactor;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Database error fields that name things (never values): kept in the log. */
const SAFE_FIELDS = ['code', 'statusCode', 'severity', 'routine', 'constraint', 'table', 'column', 'schema', 'dataType', 'errno', 'syscall', 'signal'] as const;

export interface SerializedError {
  type: string;
  message: string;
  stack: string;
  /** The failed query's SQL (placeholders, no values). */
  query?: string;
  cause?: SerializedError;
  errors?: SerializedError[];
  [field: string]: unknown;
}

/**
 * An error's message without values: Drizzle appends `params: …` to a failed query's message, and
 * PostgreSQL quotes the offending input in some messages (`invalid input syntax for type
 * integer: "…"`, `value "…" is out of range …`).
 */
export function cleanErrorMessage(message: string): string {
  return message
    .replace(/\nparams: [\s\S]*$/, '')
    .replace(/: ".*"$/gm, `: "${REDACTED}"`)
    .replace(/value ".*?" is out of range/g, `value "${REDACTED}" is out of range`);
}

/**
 * An error as the log shows it: type, message, stack, the SQL of a failed query and its cause,
 * never the query's parameters or the database's `detail`/`where` (which repeat the values),
 * with secrets of URLs hidden.
 */
export function serializeError(err: unknown, redact: (text: string) => string = (t) => t, depth = 0): SerializedError {
  if (!err || typeof err !== 'object') {
    const message = redact(cleanErrorMessage(String(err)));
    return { type: typeof err, message, stack: message };
  }
  const e = err as Record<string, unknown> & { message?: unknown; stack?: unknown; name?: unknown; cause?: unknown; errors?: unknown };
  const type =
    (typeof err.constructor === 'function' && err.constructor.name !== 'Object' ? err.constructor.name : undefined) ??
    (typeof e.name === 'string' ? e.name : 'Error');
  const message = redact(cleanErrorMessage(typeof e.message === 'string' ? e.message : String(err)));
  // The stack's first lines repeat the message (with Drizzle's parameters): only its frames are kept.
  const frames = typeof e.stack === 'string' ? e.stack.split('\n').filter((line) => /^\s+at /.test(line)) : [];
  const out: SerializedError = { type, message, stack: [`${type}: ${message}`, ...frames].join('\n') };
  for (const field of SAFE_FIELDS) {
    const value = e[field];
    if (typeof value === 'string' || typeof value === 'number') out[field] = value;
  }
  if (typeof e.query === 'string') out.query = redact(e.query);
  if (depth < 5) {
    if (e.cause !== undefined && e.cause !== err) out.cause = serializeError(e.cause, redact, depth + 1);
    if (Array.isArray(e.errors)) out.errors = e.errors.slice(0, 10).map((inner) => serializeError(inner, redact, depth + 1));
  }
  return out;
}

/** One line for a console, before the app's logger exists: `Type: message`, without values. */
export function describeError(err: unknown): string {
  const s = serializeError(err);
  return s.type === 'Error' || s.type === 'string' ? s.message : `${s.type}: ${s.message}`;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remoteAddress?: string; remotePort?: number } | null;
}

/**
 * Logger options that hide secrets in every line: the request's URL, errors (message, stack,
 * query; no parameters), message strings and top-level string fields.
 */
export function redactingLoggerOptions(redactor: Redactor) {
  return {
    serializers: {
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: typeof req.url === 'string' ? redactor.redact(req.url) : req.url,
        host: req.host,
        remoteAddress: req.ip ?? req.socket?.remoteAddress,
        remotePort: req.socket?.remotePort,
      }),
      err: (err: unknown) => serializeError(err, redactor.redact),
    },
    formatters: {
      log(object: Record<string, unknown>) {
        let copy: Record<string, unknown> | undefined;
        for (const [key, value] of Object.entries(object)) {
          if (typeof value !== 'string') continue;
          const clean = redactor.redact(value);
          if (clean !== value) (copy ??= { ...object })[key] = clean;
        }
        return copy ?? object;
      },
    },
    hooks: {
      logMethod(this: unknown, args: unknown[], method: (...a: unknown[]) => void) {
        method.apply(
          this,
          args.map((a) => (typeof a === 'string' ? redactor.redact(a) : a)),
        );
      },
    },
  };
}
