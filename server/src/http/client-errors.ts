import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RequestHandler } from 'express';
import { ApiError } from './errors.js';

/**
 * Node's HTTP parser refuses some requests before Express sees them: a malformed request
 * line, headers (URL included) over 16 KiB, a client too slow to send its headers or body.
 * Node's own answer has an empty body; this one keeps the contract's JSON shape (CONTRACT §3).
 */
export const HTTP_TIMEOUTS = {
  /** Whole request, body included. */
  requestTimeout: 60_000,
  /** Request line and headers: a slowloris client is cut here. */
  headersTimeout: 20_000,
  keepAliveTimeout: 5_000,
  // Node enforces the two timeouts above only when it sweeps its connections (every 30 s by
  // default, so a slow client could hold a socket for 50 s): sweep every second instead.
  connectionsCheckingInterval: 1_000,
};

const ANSWERS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request headers (the URL included) are larger than 16 KiB'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Chunk extensions are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request did not arrive in time; the connection is closed'],
};

/** The server's `clientError` listener: a JSON answer when the socket can still take one, then close. */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // As Node does: never write into a response that is already under way.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (error.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
    const [status, message] = ANSWERS[error.code ?? ''] ?? [400, 'Malformed HTTP request'];
    const body = JSON.stringify({ status, message });
    // Destroyed once flushed: a peer that never closes its side must not keep the socket.
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`, () => socket.destroy());
    return;
  }
  socket.destroy();
}

/**
 * HTTP/1.1 requires a Host header. Node refuses a request without one by itself (an empty
 * 400) unless `requireHostHeader` is off, which sendbox sets so that this answer, first
 * in the app, keeps the contract's JSON shape.
 */
export const requireHostHeader: RequestHandler = (req, res, next) => {
  if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) {
    res.setHeader('Connection', 'close');
    return next(new ApiError(400, 'HTTP/1.1 requests must carry a Host header'));
  }
  next();
};
