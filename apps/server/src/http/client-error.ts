import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode, ErrorEnvelope } from '@switchboard/contract';
import type { Logger } from '../logger.js';

const REFUSALS: Record<string, { status: number; reason: string; error: ErrorCode; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    error: 'request_headers_too_large',
    message: 'The request line and headers exceed 16 KB; send long parameters in a POST body.',
  },
};
const MALFORMED = {
  status: 400,
  reason: 'Bad Request',
  error: 'invalid_request' as const,
  message: 'The HTTP request is malformed (request line or a header).',
};

/**
 * Node's HTTP parser refuses some requests before Express sees them (headers over 16 KB, control characters in a
 * header) and by default writes a bare status line. This writes the envelope with a request id instead.
 */
export function answerClientErrors(server: Server, logger: Logger) {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A reset or timed-out socket cannot be answered; an already-written one must not be written again.
    if (error.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
    const refusal = REFUSALS[error.code ?? ''] ?? MALFORMED;
    const requestId = randomUUID();
    const body = JSON.stringify({
      success: false,
      error: refusal.error,
      message: refusal.message,
    } satisfies ErrorEnvelope);
    logger.warn({ requestId, code: error.code, status: refusal.status }, 'request refused by the HTTP parser');
    socket.end(
      [
        `HTTP/1.1 ${refusal.status} ${refusal.reason}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        `X-Request-Id: ${requestId}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  });
}
