import { randomUUID } from 'node:crypto';
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger, Optional } from '@nestjs/common';
import type { Request, Response } from 'express';
import { driverCodeOf, isDuplicateKeyError, isStorageUnavailableError } from '../persistence/db-errors';
import { requestId } from '../logging/app-logging';
import { noteFailure, refusalNote } from '../logging/failure-note';
import { faultFields } from '../logging/fault-fields';
import { withTraceId } from '../tracing/trace-context';
import { RequestContext } from '../tenancy/request-context';
import { Message, message, renderAll } from '../i18n/message';
import { busyText, clientGone, waitExpired } from '../overload/busy';
import { AppException, HttpRefusal, UnavailableException } from './app-exception';
import { BodyStatus } from './body-status';
import { failure } from './envelope';
import { sendEnvelope } from './sent-status';
import { ErrorTextOverrides, localize, TranslationsByLanguage } from './error-translator';

interface Classified {
  http: number;
  body: number;
  /** The English `error` text. */
  error: string;
  /** Its clauses, translated one by one for `localizedError`. */
  parts: readonly Message[];
  /** A refusal for load: the seconds its `Retry-After` names. */
  retryAfterSeconds?: number;
}

const NO_OVERRIDES: TranslationsByLanguage = new Map();

/**
 * Failures of reading a request body, by the error type body-parser (and request-body.ts) gives them. A
 * body that cannot be read is the client's failure (4xx), never a server fault: a compressed body that is
 * corrupt or cut short, an upload the client broke off, a length that does not match Content-Length.
 */
const BODY_READ_FAILURES = new Map<string, [http: number, body: number, text: string]>([
  ['entity.parse.failed', [200, BodyStatus.MALFORMED_JSON, 'Malformed JSON request body']],
  ['entity.too.large', [413, 413, 'Request body too large']],
  ['parameters.too.many', [413, 413, 'Request body too large']],
  ['encoding.unsupported', [415, 415, 'Unsupported request body encoding']],
  ['charset.unsupported', [415, 415, 'Unsupported request body encoding']],
  ['charset.invalid', [415, 415, 'Request body is not valid UTF-8']],
  ['encoding.corrupt', [400, 400, 'Request body could not be decompressed (corrupt or truncated Content-Encoding)']],
  ['request.aborted', [400, 400, 'Request body incomplete: the client stopped sending it']],
  ['request.size.invalid', [400, 400, 'Request body length does not match its Content-Length']],
]);

/** Every failure kind of contract.md "The envelope", in one place. */
export function classify(exception: unknown): Classified {
  const c = classifyParts(exception);
  return { ...c, error: renderAll(c.parts) };
}

function classifyParts(exception: unknown): Omit<Classified, 'error'> {
  const of = (http: number, body: number, text: string | readonly Message[]) => ({
    http,
    body,
    parts: typeof text === 'string' ? [message(text)] : text,
  });
  if (exception instanceof AppException) return of(200, exception.bodyStatus, exception.parts);
  const expired = waitExpired(exception);
  if (expired) return { ...of(503, 503, [busyText(expired.retryAfterSeconds)]), retryAfterSeconds: expired.retryAfterSeconds };
  // body-parser errors arrive wrapped by the express adapter, the original as `cause`
  const e = exception as { type?: string; cause?: { type?: string } };
  const parserType = e?.cause?.type ?? e?.type;
  const unread = parserType === undefined ? undefined : BODY_READ_FAILURES.get(parserType);
  if (unread) return of(...unread);
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    switch (status) {
      case HttpStatus.UNAUTHORIZED:
        return of(401, 401, exception instanceof HttpRefusal ? exception.parts : 'Unauthorized');
      case HttpStatus.FORBIDDEN:
        return of(403, 403, exception instanceof HttpRefusal ? exception.parts : 'Forbidden');
      case HttpStatus.NOT_FOUND:
        return of(404, 404, 'Not found');
      case HttpStatus.TOO_MANY_REQUESTS:
        return of(429, 429, exception instanceof HttpRefusal ? exception.parts : 'Too many requests');
      case HttpStatus.PAYLOAD_TOO_LARGE:
        return of(413, 413, 'Request body too large');
      case HttpStatus.SERVICE_UNAVAILABLE:
        return of(503, 503, exception instanceof HttpRefusal ? exception.parts : exception.message || 'Service unavailable');
      default:
        if (status >= 400 && status < 500) return of(200, BodyStatus.VALIDATION, exception.message);
    }
  }
  if (isStorageUnavailableError(exception)) return of(503, 503, 'Storage unavailable');
  if (isDuplicateKeyError(exception)) return of(200, BodyStatus.DUPLICATE, 'Record exists');
  return of(500, 500, 'Internal server error');
}

/**
 * Renders every failure as the envelope. An unexpected failure (500) gets an error id, in the envelope's
 * `extraData` and in its log line with the error's stack; other server faults (503) are logged with the request
 * id and nothing internal; a validation refusal is noted for the request line by its properties and rules.
 */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');

  constructor(@Optional() private readonly overrides?: ErrorTextOverrides) {}

  async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    // nobody to answer: the request line already says the client left (499)
    if (clientGone(exception, RequestContext.ticket()?.gone)) return;
    const c = classify(exception);
    const path = request.originalUrl.split('?')[0];
    let extraData = exception instanceof UnavailableException ? exception.extraData : undefined;
    if (c.http === HttpStatus.INTERNAL_SERVER_ERROR) {
      const errorId = randomUUID();
      this.logFault(request, path, exception, errorId);
      noteFailure(response, { errorId });
      extraData = withTraceId({ errorId });
    } else if (c.retryAfterSeconds) {
      response.setHeader('Retry-After', String(c.retryAfterSeconds));
    } else if (c.http >= 500) {
      const code = driverCodeOf(exception);
      this.logger.error(
        `request ${requestId(request)} ${request.method} ${path} failed: ${c.body} ${(exception as { name?: string })?.name ?? typeof exception}${code ? ` (${code})` : ''}`,
      );
    } else if (exception instanceof AppException && exception.refused.length) noteFailure(response, refusalNote(exception.refused));
    else if (exception instanceof HttpRefusal && exception.logHint) noteFailure(response, { hint: exception.logHint });
    const acceptLanguage = request.headers['accept-language'];
    const localized = localize(c.parts, acceptLanguage, await this.overridesFor(acceptLanguage));
    if (response.headersSent) return;
    sendEnvelope(response, c.http, failure(c.body, c.error, path, localized, extraData));
  }

  /** The one line of an unexpected failure: what an operator needs to find its cause, the stack included. */
  private logFault(request: Request, path: string, exception: unknown, errorId: string): void {
    const error = faultFields(exception);
    const code = error.code ? ` (${error.code})` : '';
    this.logger.error({ msg: `request ${requestId(request)} ${request.method} ${path} failed: 500 ${error.name}${code}`, errorId, error });
  }

  private async overridesFor(acceptLanguage: string | undefined): Promise<TranslationsByLanguage> {
    if (!this.overrides || !acceptLanguage) return NO_OVERRIDES;
    try {
      return await this.overrides.textsFor(acceptLanguage);
    } catch {
      return NO_OVERRIDES; // a failing lookup of the deployment's entries must never hide the error: shipped texts serve
    }
  }
}
