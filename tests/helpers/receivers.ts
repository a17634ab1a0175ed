import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { SMTPServer } from 'smtp-server';
import { Webhook } from 'standardwebhooks';

export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

interface CapturedMail {
  from: string;
  to: string[];
  subject: string;
  messageId: string;
  text: string;
}

export interface MailCatcher {
  url: string;
  mails: CapturedMail[];
  close(): Promise<void>;
}

/** RFC 2047 encoded-words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) decoded, as a mail client shows the header. */
function decodeWords(value: string): string {
  return value.replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=(?:\s+(?==\?))?/g, (_match, encoding: string, text: string) => {
    const bytes =
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_hex, code: string) => String.fromCharCode(parseInt(code, 16))),
            'latin1',
          );
    return bytes.toString('utf8');
  });
}

/** A quoted-printable body (soft line breaks, `=XX` bytes) as text. */
function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_hex, code: string) => String.fromCharCode(parseInt(code, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function header(head: string, name: string): string {
  return decodeWords(new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1]?.trim() ?? '');
}

/** A real SMTP server (the `smtp-server` package) that keeps every message it accepts. */
export async function startMailCatcher(port = 0): Promise<MailCatcher> {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const [rawHead = '', ...body] = raw.split(/\r?\n\r?\n/);
        const head = rawHead.replace(/\r?\n[ \t]+/g, ' ');
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: header(head, 'Subject'),
          messageId: header(head, 'Message-ID'),
          text: /quoted-printable/i.test(header(head, 'Content-Transfer-Encoding'))
            ? decodeQuotedPrintable(body.join('\n\n'))
            : body.join('\n\n'),
        });
        callback();
      });
    },
  });
  const listening = await new Promise<number>((resolve) => {
    const net = server.listen(port, '127.0.0.1', () => resolve((net.address() as { port: number }).port));
  });
  return {
    url: `smtp://127.0.0.1:${listening}`,
    mails,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  /** What `standardwebhooks` verification returned (the parsed payload), or null when it refused the request. */
  verified: { type: string; timestamp: string; data: { ticket: Record<string, unknown> } } | null;
  at: number;
  answered: number | 'hang';
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Answers every request still hanging with `status`. */
  release(status?: number): void;
  close(): Promise<void>;
}

/**
 * A real HTTP receiver that verifies each request's signature with `standardwebhooks`, as an integrator would.
 * `answer(n)` decides the reply to the n-th request (1-based): a status code, or 'hang' to never answer.
 */
export async function startWebhookReceiver(
  secret: string,
  answer: (n: number) => number | 'hang' = () => 200,
  port = 0,
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const hanging: ServerResponse[] = [];
  const verifier = new Webhook(secret);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified: ReceivedWebhook['verified'] = null;
      try {
        verified = verifier.verify(body, req.headers as Record<string, string>) as ReceivedWebhook['verified'];
      } catch {
        verified = null;
      }
      const answered = answer(received.length + 1);
      received.push({ headers: req.headers, body, verified, at: Date.now(), answered });
      if (answered === 'hang') hanging.push(res);
      else res.writeHead(answered, { 'content-type': 'text/plain' }).end(answered < 300 ? 'ok' : 'receiver says no');
    });
  });
  const listening = await new Promise<number>((resolve) => {
    server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
  return {
    url: `http://127.0.0.1:${listening}/hooks`,
    received,
    release(status = 200) {
      for (const res of hanging.splice(0)) if (!res.destroyed) res.writeHead(status).end();
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
