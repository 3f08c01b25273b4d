import http from 'node:http';
import net from 'node:net';

/**
 * Local stand-ins for the mail server and the SMS gateway, so that delivery is tested end to end
 * without the network: both record what reached them.
 */

/** A minimal SMTP server: refuses the first `failFirst` messages with 451, and any recipient with "bounce". */
export function fakeSmtp(failFirst = 0) {
  const received: string[] = [];
  let failures = failFirst;
  const server = net.createServer((socket) => {
    let data = false;
    let buffer = '';
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (data) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          received.push(buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          data = false;
          socket.write('250 OK\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 test\r\n');
        else if (verb === 'MAIL') {
          if (failures > 0) {
            failures -= 1;
            socket.write('451 Try again later\r\n');
          } else socket.write('250 OK\r\n');
        } else if (verb === 'RCPT') socket.write(/bounce/i.test(line) ? '550 No such user\r\n' : '250 OK\r\n');
        else if (verb === 'DATA') {
          data = true;
          socket.write('354 Go ahead\r\n');
        } else if (verb === 'QUIT') {
          socket.end('221 Bye\r\n');
          return;
        } else socket.write('250 OK\r\n');
      }
    });
    socket.on('error', () => {});
  });
  return {
    server,
    received,
    /** The received messages' headers and decoded text (single-part, as the product sends). */
    messages: () => received.map(decodeMail),
    /** Listens on a free local port; resolves with SMTP_URL. */
    async start() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `smtp://127.0.0.1:${(server.address() as net.AddressInfo).port}?ignoreTLS=true`;
    },
    stop: () => new Promise((r) => server.close(r)),
  };
}

/** Headers and decoded body of one raw message (quoted-printable, base64 or plain). */
export function decodeMail(raw: string): { headers: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split);
  const body = raw.slice(split + 4);
  const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase();
  let text = body;
  if (encoding === 'base64') text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  else if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => `%${h}`);
    text = decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
  }
  return { headers, text };
}

export interface GatewayRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

/**
 * An HTTP SMS gateway: records every request and answers 200, or `status(to)` when it gives one
 * (e.g. 503 for a number that should fail), with a body that echoes the text, as some do.
 */
export function fakeSmsGateway(status: (to: string) => number = () => 200) {
  const requests: GatewayRequest[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // recorded as it came
      }
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body,
      });
      const code = status(String((body as { to?: unknown })?.to ?? ''));
      res.writeHead(code, 'Echo ' + String((body as { text?: unknown })?.text ?? '').replace(/[^\x20-\x7e]/g, '?'), { 'content-type': 'application/json' });
      res.end(JSON.stringify({ accepted: code < 300, echo: body }));
    });
  });
  return {
    server,
    requests,
    /** Listens on a free local port; resolves with SMS_GATEWAY_URL. */
    async start() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/send`;
    },
    stop: () => new Promise((r) => server.close(r)),
  };
}
