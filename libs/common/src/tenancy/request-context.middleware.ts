import { randomUUID } from 'node:crypto';
import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { RequestContext } from './request-context';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

type WithRequestId = Request & { requestId?: string };

/** The request's id: X-Request-Id when well-formed, else a new one; echoed on every response. */
export function requestId(req: Request): string {
  return (req as WithRequestId).requestId ?? '-';
}

/**
 * Express middleware, registered before the body parsers so that failures they raise (1004, 413)
 * and the 404s outside the prefix carry the id too.
 */
export function assignRequestId(req: Request, res: Response, next: NextFunction): void {
  const given = req.header('x-request-id');
  const id = given && REQUEST_ID.test(given) ? given : randomUUID();
  (req as WithRequestId).requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
}

/**
 * Opens the request's AsyncLocalStorage context. Nest middleware runs after body parsing, so the
 * context is never carried through the parsers' stream callbacks.
 */
@Injectable()
export class RequestContextMiddleware implements NestMiddleware {
  use(_req: Request, _res: Response, next: NextFunction): void {
    RequestContext.run(next);
  }
}
