import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Requests Node's HTTP parser refuses before Koa sees them (headers or URL over the 16 KB limit, a
 * request cut off or malformed, one too slow to arrive) get SPEC.md's error shape like every other
 * answer, instead of Node's bare status line. The connection is closed after it: what follows the
 * refused bytes cannot be trusted to start a request.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const response = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  // Nothing can be said on a dead socket, nor in the middle of an answer already started.
  if (error.code === 'ECONNRESET' || !socket.writable || response?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, code, message } = refusalOf(error.code);
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
}

function refusalOf(parserCode: string | undefined): { status: number; code: string; message: string } {
  switch (parserCode) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        code: 'headers_too_large',
        message: 'The request line and headers are larger than 16 KB (a long URL counts): send long values in a JSON body.',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'request_timeout', message: 'The request did not arrive in full in time; send it again.' };
    case 'HPE_INVALID_EOF_STATE':
      return { status: 400, code: 'invalid_request', message: 'The request ended before its headers were complete.' };
    default:
      return { status: 400, code: 'invalid_request', message: `The request is not valid HTTP/1.1${parserCode ? ` (${parserCode})` : ''}.` };
  }
}
