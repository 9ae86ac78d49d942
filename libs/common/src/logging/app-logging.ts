import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { unescape } from 'node:querystring';
import type { NextFunction, Request, Response } from 'express';
import pino, { DestinationStream, Level, Logger } from 'pino';
import { ServerConfig } from '../config/server.config';
import { secretFieldNames } from '../crud/fields/field-registry';
import { registeredRoute } from '../http/resource-routers';
import { bodyStatusOf, outcomeOf } from '../http/sent-status';
import { RequestContext } from '../tenancy/request-context';
import { activeSpanIds, withTraceId } from '../tracing/trace-context';
import { failureNoteOf } from './failure-note';
import { isoTime } from './iso-time';

/** LOG_LEVEL values, Nest's names and pino's (docs/configuration.md), to pino's levels. */
export const PINO_LEVELS: Record<string, Level> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  log: 'info',
  info: 'info',
  debug: 'debug',
  verbose: 'trace',
  trace: 'trace',
};

/** X-Request-Id is echoed and logged: only a bounded, header- and log-safe shape is taken from the caller. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** What a service's logging needs to know of it (its manifest). */
export interface LoggedService {
  /** `service` on each of its lines. */
  name: string;
  /**
   * Query parameters that carry credentials in this service's URLs (e.g. a token the callers cannot send in a
   * header): request URLs are logged, with these parameters' values masked. Names in any case.
   */
  redactedQueryParameters?: readonly string[];
}

/** The service's credential parameters as redactUrl compares them: decoded, lower case. */
export const queryParameterNames = (service: LoggedService): ReadonlySet<string> =>
  new Set((service.redactedQueryParameters ?? []).map((name) => name.toLowerCase()));

/**
 * Paths pino censors in every line: credentials in headers and the service's credential query parameters, and
 * every field declared secret (fields.ts) in any logged body or object. Read when a logger is made, after the
 * app's entities loaded.
 */
export function redactPaths(queryParameters: ReadonlySet<string> = new Set()): string[] {
  return [
    'req.headers.authorization',
    'req.headers["proxy-authorization"]',
    'req.headers.cookie',
    'res.headers["set-cookie"]',
    ...[...queryParameters].map((name) => `req.query[${JSON.stringify(name)}]`),
    ...secretFieldNames().flatMap((f) => [f, `*.${f}`, `req.body.${f}`]),
  ];
}

/**
 * The URL with the value of every parameter named in `secret` masked. Names are compared as the query parser
 * reads them (percent-decoded, `+` as a space), so `?%73ecret=` or `?SECRET=` are masked like `?secret=`.
 */
export function redactUrl(url: string, secret: ReadonlySet<string>): string {
  const start = url.indexOf('?');
  if (start < 0 || !secret.size) return url;
  const masked = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const end = pair.indexOf('=');
      if (end < 0) return pair;
      const name = unescape(pair.slice(0, end).replace(/\+/g, ' ')).toLowerCase();
      return secret.has(name) ? `${pair.slice(0, end)}=[Redacted]` : pair;
    });
  return `${url.slice(0, start + 1)}${masked.join('&')}`;
}

/** Where Swagger UI's static files (scripts, styles, icons) are mounted: `{prefix}/swagger-ui`, beside its page. */
const SWAGGER_UI_MOUNT = /^\/[^/]+\/swagger-ui$/i;

/**
 * The route template Express matched (bounded label and log field); one value for anything unmatched,
 * including Nest's not-found handler, itself a wildcard route (`/<prefix>*path`): no operation has a wildcard.
 * Swagger UI's static files have no route: the static middleware that sends one leaves its mount path as
 * `baseUrl`, spelled as the request spelled it, so all of them count as one value, `{prefix}/swagger-ui/*` in
 * lower case (a file it does not have goes on to the not-found handler: unmatched).
 */
export function routeOf(req: IncomingMessage): string {
  const route = registeredRoute(req);
  if (route !== undefined) return route;
  const { baseUrl } = req as Request;
  return baseUrl && SWAGGER_UI_MOUNT.test(baseUrl) ? `${baseUrl.toLowerCase()}/*` : 'unmatched';
}

/** The request's id (assigned by the request-line middleware before anything else runs). */
export function requestId(req: IncomingMessage): string {
  return String((req as { id?: unknown }).id ?? '-');
}

function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/**
 * The process's standard output, shared by every app of the process. Asynchronous and batched: lines wait
 * in a buffer until STDOUT_BATCH_BYTES have gathered (about 30 request lines) or STDOUT_FLUSH_MS have passed,
 * then go out in one write, so under load the request lines cost one write system call per batch instead of
 * one each, and a slow reader of the output never blocks a request. pino flushes what is pending when the
 * process exits.
 */
const STDOUT_BATCH_BYTES = 8 * 1024;
const STDOUT_FLUSH_MS = 100;
let stdout: ReturnType<typeof pino.destination> | undefined;

/** That output, made on first use. */
export const processOutput = (): ReturnType<typeof pino.destination> =>
  (stdout ??= pino.destination({ dest: 1, sync: false, minLength: STDOUT_BATCH_BYTES, periodicFlush: STDOUT_FLUSH_MS }));

/**
 * One service's structured logging: a pino logger (JSON lines, LOG_LEVEL, redaction, the request id and
 * the caller's tenant and user on every line written inside a request) and the middleware that assigns
 * the request id and writes one line per request. Each app of the combined server has its own.
 */
export class AppLogging {
  readonly logger: Logger;
  /**
   * The request lines' own logger: no redaction paths to walk and no request context to read, since a request
   * line holds only the fields requestLine puts in it, none of which can carry a credential.
   */
  private readonly lines: Logger;
  private target: DestinationStream;
  private readonly secretParameters: ReadonlySet<string>;

  constructor(config: ServerConfig, service: LoggedService) {
    this.secretParameters = queryParameterNames(service);
    this.target = processOutput();
    // a sink of our own, so a test can capture one app's lines (`captureTo`) after the logger exists
    const sink: DestinationStream = { write: (line: string) => this.target.write(line) };
    this.logger = pino(
      {
        level: PINO_LEVELS[config.logLevel] ?? 'info',
        base: { service: service.name },
        timestamp: isoTime,
        redact: { paths: redactPaths(this.secretParameters), censor: '[Redacted]' },
        // request id, tenant and user of the request whose async context writes the line, and its trace when traced
        mixin: () => withTraceId(RequestContext.logFields()),
      },
      sink,
    );
    this.lines = pino({ level: this.logger.level, base: { service: service.name }, timestamp: isoTime }, sink);
  }

  /**
   * First middleware of the app: assigns the request id (echoed as X-Request-Id) and writes the request
   * line when the response ends. No child logger per request: the line names its request explicitly, and
   * lines written while handling it get the id from the request context.
   */
  readonly http = (req: Request, res: Response, next: NextFunction): void => {
    const id = assignRequestId(req, res);
    const started = Date.now();
    (req as { id?: string }).id = id;
    // the server span is active here, not when the line is written (after the span ended, outside its context)
    const span = activeSpanIds();
    res.on('close', () => this.requestLine(req, res, id, Date.now() - started, span)); // a response closes once
    next();
  };

  /** Sends this app's lines to another stream (tests). */
  captureTo(stream: DestinationStream): void {
    this.target = stream;
  }

  /**
   * The line of a response that ended ('close' comes after 'finish', or alone when the connection was lost
   * first). It names the request, not its headers: cheaper to write, and no credential can reach it. It is
   * written outside the request's async context, so it names the caller from the request, and the trace and span ids taken when the request came in. Business failures
   * come with HTTP 200: `bodyStatus` (the envelope's status) and the level (warn for 4xx, error for 5xx) show them.
   */
  private requestLine(
    req: Request,
    res: Response,
    requestId: string,
    durationMs: number,
    span?: { traceId: string; spanId: string },
  ): void {
    const line = {
      requestId,
      ...span,
      req: {
        method: req.method,
        url: redactUrl(req.originalUrl ?? req.url, this.secretParameters),
        remoteAddress: req.socket.remoteAddress,
      },
      ...RequestContext.identity(req),
      route: routeOf(req),
      status: res.statusCode,
      bodyStatus: bodyStatusOf(res),
      durationMs,
      // why a validation refusal was refused (properties and rules), or a fault's error id
      ...failureNoteOf(res),
    };
    // the client's doing (an upload broken off, a caller gone): warn, as the metrics count it (499), never a fault
    if (!res.writableFinished)
      return this.lines.warn({ ...line, status: 499, error: 'the client left before the response was sent' }, 'request abandoned');
    const outcome = outcomeOf(res);
    // a short text, never a stack trace: the exception filter already logged what failed (a 500 under its errorId)
    if (outcome === 'fault') this.lines.error({ ...line, error: `failed with status code ${res.statusCode}` }, 'request failed');
    else if (outcome === 'refused') this.lines.warn(line, 'request refused');
    else this.lines.info(line, 'request completed');
  }
}
