import { createServer, IncomingMessage, RequestListener, Server, ServerResponse, STATUS_CODES } from 'node:http';
import { Server as NetServer, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Logger, NestApplicationOptions, StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { failure, success } from './envelope';
import { closeHelpers, listenWide } from './listeners';
import { OpenResponses } from './open-responses';
import { ResourceRouters, RouteMethod } from './resource-routers';
import { noteEnvelope } from './sent-status';

/**
 * Largest request line plus headers the server reads. Node's default (16 KiB) refuses removeByIds with
 * its 1000 ids of 21 characters (~28 KB of query string) long before the operation's own bound.
 */
export const MAX_HEADER_BYTES = 64 * 1024;

/** Longest time a client may take to send its request line and headers (an idle new connection included). */
export const HEADERS_TIMEOUT_MS = 15_000;

/** How often Node looks for requests past their time: its default, 30 s, let them run that much longer. */
const TIMEOUT_CHECK_MS = 1000;

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
/** The response of each connection's latest request (the server's 'request' listener keeps it). */
const latestResponses = new WeakMap<Duplex, ServerResponse>();
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
  const latest = latestResponses.get(socket);
  const underWay = latest !== undefined && latest.headersSent && !latest.writableFinished;
  if (error.code === 'ECONNRESET' || !socket.writable || underWay) {
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

/** Responses not yet closed, per server; those not yet begun when the server drains close their connections. */
const openResponses = new WeakMap<Server, OpenResponses>();

/** The prototypes an Express app gives its requests and responses (`app.request`, `app.response`). */
export interface MessagePrototypes {
  request: object;
  response: object;
}

/**
 * Node's server options that make each request and response with the given prototypes from the start. Express
 * sets them on every request it handles (app.handle), and changing a live object's prototype costs V8 a map
 * change per request; setting the prototype an object already has does nothing.
 */
function madeWith({ request, response }: MessagePrototypes) {
  function AppRequest(socket: Socket): IncomingMessage {
    return Reflect.construct(IncomingMessage, [socket], AppRequest) as IncomingMessage;
  }
  AppRequest.prototype = request;
  function AppResponse(req: IncomingMessage, options?: object): ServerResponse {
    return Reflect.construct(ServerResponse, [req, options], AppResponse) as ServerResponse;
  }
  AppResponse.prototype = response;
  return {
    IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
    ServerResponse: AppResponse as unknown as typeof ServerResponse,
  };
}

/**
 * The HTTP server of every entry point: 64 KiB request heads, slow clients cut (limitRequestTime), envelopes
 * for what Node refuses itself. With `prototypes`, its requests and responses are made with them (an app's own server).
 */
export function createHttpServer(
  handler: RequestListener<typeof IncomingMessage, typeof ServerResponse>,
  prototypes?: MessagePrototypes,
): Server {
  const server = createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      headersTimeout: HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: TIMEOUT_CHECK_MS,
      ...(prototypes && madeWith(prototypes)),
    },
    handler,
  );
  server.on('clientError', refuseClientError);
  const open = new OpenResponses();
  openResponses.set(server, open);
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    latestResponses.set(req.socket, res);
    if (!server.listening) res.setHeader('Connection', 'close');
    else open.add(res);
  });
  return server;
}

/**
 * Cuts a request not received in full within `requestTimeoutMs` (HTTP_REQUEST_TIMEOUT_MS), and its head
 * within HEADERS_TIMEOUT_MS (or the request's own time when shorter), with the 408 envelope. Node reads
 * both at each check, so they may be set after the server was made (the adapter makes it before the
 * configuration is read).
 */
export function limitRequestTime(server: Server, requestTimeoutMs: number): void {
  server.requestTimeout = requestTimeoutMs;
  server.headersTimeout = Math.min(HEADERS_TIMEOUT_MS, requestTimeoutMs);
}

/**
 * Stops accepting connections and resolves once every open connection has ended. Kept-alive connections
 * are not dropped while idle: a gateway may be sending a request on one at that very moment, and it
 * answers that request 502 (it does not send a POST again). Instead every answer not yet begun closes its
 * connection, and an idle one ends as it does at any time, by the gateway's idle timeout, which is
 * shorter than the server's keep-alive timeout (docker/nginx: 4 s and 5 s).
 */
export function stopListening(server: Server): Promise<void> {
  const own = new Promise<void>((resolve) => {
    // net.Server's close only stops listening; http.Server's also closes the idle connections at once
    NetServer.prototype.close.call(server, () => resolve());
    for (const res of openResponses.get(server) ?? []) if (!res.headersSent) res.setHeader('Connection', 'close');
  });
  return Promise.all([own, closeHelpers(server)]).then(() => undefined);
}

/**
 * Nest's Express adapter with the server of createHttpServer underneath (app.listen and app.getHttpServer
 * use it), and the envelope around every handler's result.
 */
export class AppHttpAdapter extends ExpressAdapter {
  /**
   * Nest's router calls the adapter's reply with what a route's handler gave, once per request and after the
   * handler: the one place a result becomes the envelope. A StreamableFile (Nest's streaming answers come to
   * reply as one; an empty stream comes without a body, no operation of the services streams) is sent as it is.
   * Failures never come here: the exception filter catches every exception and sends its own envelope (Nest's
   * own filter, the other caller of reply, is never reached).
   */
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (body instanceof StreamableFile) return super.reply(response, body, statusCode);
    const envelope = success(body);
    noteEnvelope(response, envelope);
    return super.reply(response, envelope, statusCode);
  }

  private routers?: ResourceRouters;

  override get(...args: unknown[]) {
    return this.route('get', args);
  }
  override post(...args: unknown[]) {
    return this.route('post', args);
  }
  override put(...args: unknown[]) {
    return this.route('put', args);
  }
  override delete(...args: unknown[]) {
    return this.route('delete', args);
  }
  override patch(...args: unknown[]) {
    return this.route('patch', args);
  }
  override head(...args: unknown[]) {
    return this.route('head', args);
  }
  override options(...args: unknown[]) {
    return this.route('options', args);
  }
  override all(...args: unknown[]) {
    return this.route('all', args);
  }

  /** Every route in its resource's router (resource-routers.ts); the app's own methods for anything else. */
  private route(method: RouteMethod, args: unknown[]): unknown {
    this.routers ??= new ResourceRouters(this.getInstance());
    return this.routers.register(method, args);
  }

  /** Nest's listen(port, [host], callback), on several sockets with a long backlog (listeners.ts). */
  override listen(port: string | number, ...args: unknown[]): Server {
    const callback = typeof args.at(-1) === 'function' ? (args.pop() as () => void) : undefined;
    const host = typeof args[0] === 'string' ? args[0] : undefined;
    return listenWide(this.getHttpServer(), Number(port), host, callback);
  }

  /** Nest's close, with the helper sockets of listenWide closed too. */
  override async close(): Promise<void> {
    const helpers = closeHelpers(this.getHttpServer());
    await super.close();
    await helpers;
  }

  override initHttpServer(options: NestApplicationOptions): void {
    // the Express adapter would build its own server for these, without the limits above
    if (options.httpsOptions || options.forceCloseConnections || options.return503OnClosing) {
      throw new Error('AppHttpAdapter: httpsOptions, forceCloseConnections and return503OnClosing are not supported');
    }
    const app = this.getInstance<RequestListener & MessagePrototypes>();
    this.setHttpServer(createHttpServer(app, app));
  }
}
