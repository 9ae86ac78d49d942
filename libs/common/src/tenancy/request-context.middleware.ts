import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { RequestContext } from './request-context';

/**
 * Opens the request's AsyncLocalStorage context. Nest middleware runs after body parsing, so the
 * context is never carried through the parsers' stream callbacks. (The request id is assigned
 * earlier, by the HTTP logger: logging/app-logging.ts.)
 */
@Injectable()
export class RequestContextMiddleware implements NestMiddleware {
  use(req: Request, _res: Response, next: NextFunction): void {
    RequestContext.run(next, req);
  }
}
