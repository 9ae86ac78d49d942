import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger, Optional } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isDuplicateKeyError, isStorageUnavailableError } from '../persistence/db-errors';
import { requestId } from '../logging/app-logging';
import { AppException, UnavailableException } from './app-exception';
import { BodyStatus } from './body-status';
import { failure } from './envelope';
import { ErrorTranslator } from './error-translator';

interface Classified {
  http: number;
  body: number;
  error: string;
}

/** Every failure kind of contract.md "The envelope", in one place. */
export function classify(exception: unknown): Classified {
  if (exception instanceof AppException) return { http: 200, body: exception.bodyStatus, error: exception.message };
  // body-parser errors arrive wrapped by the express adapter, the original as `cause`
  const e = exception as { type?: string; cause?: { type?: string } };
  const parserType = e?.cause?.type ?? e?.type;
  if (parserType === 'entity.parse.failed') return { http: 200, body: BodyStatus.MALFORMED_JSON, error: 'Malformed JSON request body' };
  if (parserType === 'entity.too.large') return { http: 413, body: 413, error: 'Request body too large' };
  if (parserType === 'encoding.unsupported' || parserType === 'charset.unsupported')
    return { http: 415, body: 415, error: 'Unsupported request body encoding' };
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    switch (status) {
      case HttpStatus.UNAUTHORIZED:
        return { http: 401, body: 401, error: 'Unauthorized' };
      case HttpStatus.FORBIDDEN:
        return { http: 403, body: 403, error: 'Forbidden' };
      case HttpStatus.NOT_FOUND:
        return { http: 404, body: 404, error: 'Not found' };
      case HttpStatus.TOO_MANY_REQUESTS:
        return { http: 429, body: 429, error: 'Too many requests' };
      case HttpStatus.PAYLOAD_TOO_LARGE:
        return { http: 413, body: 413, error: 'Request body too large' };
      case HttpStatus.SERVICE_UNAVAILABLE:
        return { http: 503, body: 503, error: exception.message || 'Service unavailable' };
      default:
        if (status >= 400 && status < 500) return { http: 200, body: BodyStatus.VALIDATION, error: exception.message };
    }
  }
  if (isStorageUnavailableError(exception)) return { http: 503, body: 503, error: 'Storage unavailable' };
  if (isDuplicateKeyError(exception)) return { http: 200, body: BodyStatus.DUPLICATE, error: 'Record exists' };
  return { http: 500, body: 500, error: 'Internal server error' };
}

/** Renders every failure as the envelope; logs server faults with the request id and nothing internal. */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');

  constructor(@Optional() private readonly translator?: ErrorTranslator) {}

  async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const c = classify(exception);
    const path = request.originalUrl.split('?')[0];
    if (c.http >= 500) {
      const e = exception as { name?: string; code?: string; driverError?: { code?: string } };
      this.logger.error(
        `request ${requestId(request)} ${request.method} ${path} failed: ${c.body} ${e?.name ?? typeof exception}${(e?.driverError?.code ?? e?.code) ? ` (${e.driverError?.code ?? e.code})` : ''}`,
      );
    }
    const localized = await this.localize(c.error, request.headers['accept-language']);
    if (response.headersSent) return;
    const extraData = exception instanceof UnavailableException ? exception.extraData : undefined;
    response.status(c.http).json(failure(c.body, c.error, path, localized, extraData));
  }

  private async localize(error: string, acceptLanguage: string | undefined): Promise<string | undefined> {
    if (!this.translator || !acceptLanguage) return undefined;
    try {
      return await this.translator.translate(error, acceptLanguage);
    } catch {
      return undefined; // a failing translation lookup must never hide the original error
    }
  }
}
