import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import pino, { DestinationStream, Level, Logger } from 'pino';
import { HttpLogger, pinoHttp } from 'pino-http';
import { ServerConfig } from '../config/server.config';
import { secretFieldNames } from '../crud/field-registry';
import { RequestContext } from '../tenancy/request-context';

/** Nest's LOG_LEVEL values (README) to pino's levels. */
const PINO_LEVELS: Record<string, Level> = { fatal: 'fatal', error: 'error', warn: 'warn', log: 'info', debug: 'debug', verbose: 'trace' };

/** X-Request-Id is echoed and logged: only a bounded, header- and log-safe shape is taken from the caller. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Query parameters carrying device credentials (the device calls): request URLs are logged. */
const SECRET_QUERY = /([?&](?:token|secret)=)[^&#]*/gi;

/**
 * Paths pino censors in every line: credentials in headers and query, and every field declared secret
 * (fields.ts) in any logged body or object. Read when a logger is made, after the app's entities loaded.
 */
export function redactPaths(): string[] {
  return [
    'req.headers.authorization',
    'req.headers["proxy-authorization"]',
    'req.headers.cookie',
    'res.headers["set-cookie"]',
    'req.query.token',
    'req.query.secret',
    ...secretFieldNames().flatMap((f) => [f, `*.${f}`, `req.body.${f}`]),
  ];
}

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[Redacted]');
}

/**
 * The route template Express matched (bounded label and log field); one value for anything unmatched,
 * including Nest's not-found handler, itself a wildcard route (`/<prefix>*path`): no operation has a wildcard.
 */
export function routeOf(req: IncomingMessage): string {
  const { route, baseUrl } = req as Request;
  return typeof route?.path === 'string' && !route.path.includes('*') ? `${baseUrl ?? ''}${route.path}` : 'unmatched';
}

/** The request's id (assigned by the HTTP logger before anything else runs). */
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
 * The process's standard output, shared by every app of the process. Asynchronous: a line is handed to
 * the kernel at once when no write is pending, and lines logged while one is pending go out together in
 * the next write, so under load the request lines cost a few writes instead of one blocking write each
 * (nothing waits for a buffer to fill). pino flushes what is pending when the process exits.
 */
let stdout: DestinationStream | undefined;

/**
 * One service's structured logging: a pino logger (JSON lines, LOG_LEVEL, redaction, the caller's
 * tenant and user on every line written inside a request) and the pino-http middleware that assigns
 * the request id and writes one line per request. Each app of the combined server has its own.
 */
export class AppLogging {
  readonly logger: Logger;
  readonly http: HttpLogger;
  private target: DestinationStream;

  constructor(config: ServerConfig, service: string) {
    this.target = stdout ??= pino.destination({ dest: 1, sync: false });
    // a sink of our own, so a test can capture one app's lines (`captureTo`) after the logger exists
    const sink: DestinationStream = { write: (line: string) => this.target.write(line) };
    this.logger = pino(
      {
        level: PINO_LEVELS[config.logLevel] ?? 'info',
        base: { service },
        timestamp: pino.stdTimeFunctions.isoTime,
        redact: { paths: redactPaths(), censor: '[Redacted]' },
        // tenant and user of the request whose async context writes the line (set by the guards)
        mixin: () => ({ ...RequestContext.identity() }),
      },
      sink,
    );
    this.http = pinoHttp({
      logger: this.logger,
      genReqId: assignRequestId,
      // lines written while handling the request carry only its id; the request line carries the request
      quietReqLogger: true,
      customAttributeKeys: { reqId: 'requestId', responseTime: 'durationMs' },
      // the request line names the request, not its headers: cheaper to write, and no credential can reach it
      serializers: {
        req: (req: { method: string; url: string; remoteAddress?: string }) => ({
          method: req.method,
          url: redactUrl(req.url),
          remoteAddress: req.remoteAddress,
        }),
        // the line's `status` is the response's
        res: () => undefined,
      },
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
      customSuccessMessage: () => 'request completed',
      customErrorMessage: () => 'request failed',
      // the request line is written on 'finish', outside the request's async context: name the caller from the request
      customSuccessObject: (req, res, value) => ({
        ...value,
        ...RequestContext.identity(req),
        route: routeOf(req),
        status: res.statusCode,
      }),
      customErrorObject: (req, res, error, value: Record<string, unknown>) => {
        // no stack trace in the logs: the exception filter already logged what failed
        const { err: _omitted, ...rest } = value;
        return { ...rest, ...RequestContext.identity(req), route: routeOf(req), status: res.statusCode, error: error.message };
      },
    });
  }

  /** Sends this app's lines to another stream (tests). */
  captureTo(stream: DestinationStream): void {
    this.target = stream;
  }
}
