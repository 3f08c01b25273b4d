import { describeError } from './logging.ts';

type LogFn = (object: Record<string, unknown>, message: string) => void;

/** The part of a logger (the app's pino logger, or `consoleLog` before it exists) used here. */
export interface ProcessLog {
  fatal: LogFn;
  error: LogFn;
  warn: LogFn;
  info: LogFn;
}

/** What of `process` is watched; a test passes an emitter of its own. */
export interface WatchedProcess {
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  exit(code?: number): void;
}

/** Signals that stop the server gracefully (SIGHUP: its terminal went away). */
export const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
export type ShutdownSignal = (typeof SHUTDOWN_SIGNALS)[number];

/** Log lines on stderr for the start, before the app's logger exists: no values of errors, no stack. */
export const consoleLog: ProcessLog = Object.fromEntries(
  (['fatal', 'error', 'warn', 'info'] as const).map((level) => [
    level,
    (object: Record<string, unknown>, message: string) => {
      const { err, ...rest } = object;
      const details = Object.entries(rest).map(([k, v]) => `${k}=${String(v)}`);
      if (err !== undefined) details.push(describeError(err));
      console.error(`[${level}] ${message}${details.length ? `: ${details.join(', ')}` : ''}`);
    },
  ]),
) as unknown as ProcessLog;

/**
 * Makes every way the process ends visible in the log: an uncaught exception or an unhandled
 * promise rejection is logged (without query values) and exits with 1, as Node would; a stop
 * signal is logged and starts `shutdown` (a second one exits at once); the exit code is logged.
 * `log` is read at each event, so it can move from the console to the app's logger once it exists;
 * `logExit` says whether the exit is logged now (a refused start has said why in its own line).
 */
export function watchProcess(opts: { log: () => ProcessLog; shutdown: (signal: ShutdownSignal) => unknown; logExit?: () => boolean; proc?: WatchedProcess }) {
  const proc = opts.proc ?? (process as unknown as WatchedProcess);
  let stopping: ShutdownSignal | undefined;
  proc.on('uncaughtException', (err: unknown, origin: unknown) => {
    opts.log().fatal({ err, origin }, 'uncaught exception; exiting');
    proc.exit(1);
  });
  proc.on('unhandledRejection', (reason: unknown) => {
    opts.log().fatal({ err: reason }, 'unhandled promise rejection; exiting');
    proc.exit(1);
  });
  for (const signal of SHUTDOWN_SIGNALS) {
    proc.on(signal, () => {
      if (stopping) {
        opts.log().warn({ signal }, `${signal} while stopping after ${stopping}; exiting now`);
        proc.exit(1);
        return;
      }
      stopping = signal;
      opts.log().warn({ signal }, `${signal} received; shutting down`);
      void opts.shutdown(signal);
    });
  }
  proc.on('exit', (exitCode: unknown) => {
    if (opts.logExit && !opts.logExit()) return;
    const code = Number(exitCode ?? 0);
    const log = opts.log();
    if (code) log.error({ code }, `exit with code ${code}`);
    else log.info({ code }, 'exit with code 0');
  });
}
