import { createServer, IncomingMessage, RequestListener, Server, ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { Logger, NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { failure } from './envelope';

/**
 * Largest request line plus headers the server reads. Node's default (16 KiB) refuses removeByIds with
 * its 1000 ids of 21 characters (~28 KB of query string) long before the operation's own bound.
 */
export const MAX_HEADER_BYTES = 64 * 1024;

/** How long a refused connection may still send what it had in flight before it is dropped. */
const LINGER_MS = 1000;

interface ClientError extends Error {
  code?: string;
  rawPacket?: Buffer;
}

const REFUSALS: Record<string, { status: number; error: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, error: `Request line and headers exceed ${MAX_HEADER_BYTES} bytes` },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, error: 'Chunk extensions too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, error: 'Request not received in time' },
};
const MALFORMED = { status: 400, error: 'Malformed HTTP request' };

/** The path of the request line when the failing chunk starts with one (else unknown), without the query. */
function requestPath(raw: Buffer | undefined): string | null {
  const line = raw
    ?.subarray(0, 512)
    .toString('latin1')
    .match(/^[A-Z]{3,10} (\/[^\s?#]{0,256})/);
  return line ? line[1] : null;
}

const refused = new WeakSet<Duplex>();
const logger = new Logger('HttpServer');

/**
 * Node's own answer to a request it cannot parse (431, 400, 408) has an empty body: answer the envelope
 * instead, then close the connection. The write side is ended first and the socket dropped a little
 * later, so a client still sending its oversized headers reads the answer rather than a reset.
 */
function refuseClientError(error: ClientError, socket: Duplex): void {
  if (refused.has(socket)) return; // the parser reports every further chunk of a refused connection again
  refused.add(socket);
  // a response already under way on this connection cannot be followed by another one
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, error: message } = REFUSALS[error.code ?? ''] ?? MALFORMED;
  const path = requestPath(error.rawPacket);
  const body = JSON.stringify({ ...failure(status, message, path ?? ''), path });
  logger.warn(`refused a request before routing: ${status} ${error.code ?? error.name}`);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/** The HTTP server of every entry point: 64 KiB request heads, envelopes for what Node refuses itself. */
export function createHttpServer(handler: RequestListener<typeof IncomingMessage, typeof ServerResponse>): Server {
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, handler);
  server.on('clientError', refuseClientError);
  return server;
}

/** Nest's Express adapter with the server of createHttpServer underneath (app.listen and app.getHttpServer use it). */
export class AppHttpAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    // the Express adapter would build its own server for these, without the limits above
    if (options.httpsOptions || options.forceCloseConnections || options.return503OnClosing) {
      throw new Error('AppHttpAdapter: httpsOptions, forceCloseConnections and return503OnClosing are not supported');
    }
    this.setHttpServer(createHttpServer(this.getInstance()));
  }
}
