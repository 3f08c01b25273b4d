import type { ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** Node's own limit for the headers alone; a request's whole limit caps it when lower. */
const HEADERS_TIMEOUT_MS = 60_000;

const CLIENT_ERRORS: Record<string, { status: number; text: string; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    text: 'Request Timeout',
    message: 'Запит надходив надто довго, тому з’єднання закрито. Перевірте зв’язок і спробуйте ще раз.',
  },
  HPE_HEADER_OVERFLOW: { status: 431, text: 'Request Header Fields Too Large', message: 'Заголовки запиту завеликі.' },
};
const BAD_REQUEST = { status: 400, text: 'Bad Request', message: 'Некоректний запит.' };

/**
 * Server options that bound how long a client may take to send one request, headers and body
 * together: a slow or stalled body no longer holds a connection open for minutes. Node checks
 * the open requests every tenth of the limit (at least every second) and answers 408, in
 * Ukrainian, on a connection it then closes.
 */
export function requestTimeoutOptions(requestTimeoutMs: number): {
  requestTimeout: number;
  http: ServerOptions;
  clientErrorHandler: (this: FastifyInstance, err: Error & { code?: string }, socket: Socket) => void;
} {
  return {
    requestTimeout: requestTimeoutMs,
    http: {
      requestTimeout: requestTimeoutMs,
      headersTimeout: Math.min(requestTimeoutMs, HEADERS_TIMEOUT_MS),
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(requestTimeoutMs / 10))),
    },
    clientErrorHandler,
  };
}

/**
 * A connection-level error (before the app sees a request: a timeout, malformed HTTP, headers
 * too large): one JSON answer in the API's shape, then the connection is closed.
 */
function clientErrorHandler(this: FastifyInstance, err: Error & { code?: string }, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const answer = (err.code && CLIENT_ERRORS[err.code]) || BAD_REQUEST;
  this.log.debug({ err, remoteAddress: socket.remoteAddress }, `client error ${answer.status}`);
  // An answer already under way on this connection (Node's own rule) is not written over.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const body = JSON.stringify({ message: answer.message });
    socket.write(
      `HTTP/1.1 ${answer.status} ${answer.text}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Cache-Control: no-store\r\n' +
        'X-Content-Type-Options: nosniff\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy();
}
