import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isObservable, map, Observable, Subscription } from 'rxjs';
import { Envelope, success } from './envelope';
import { BODY_LIMIT, readRequestBody } from './request-body';
import { fastPathsOn } from '../fast-paths/fast-paths';

/** The handler's observable once `reading` has settled; the read's failure instead of it when it fails. */
function afterReading(reading: Promise<void>, next: CallHandler): Observable<unknown> {
  return new Observable((subscriber) => {
    let handling: Subscription | undefined;
    let closed = false;
    reading.then(
      () => {
        if (!closed) handling = next.handle().subscribe(subscriber);
      },
      (error: unknown) => subscriber.error(error),
    );
    return () => {
      closed = true;
      handling?.unsubscribe();
    };
  });
}

/**
 * The single global interceptor. Interceptors run after every guard, so the request body is read here:
 * once the route is known and its caller admitted, within the route's own limit (`Operation({ bodyLimit })`).
 * An unknown route or a refused caller is answered without a byte of the body read or inflated. Then the
 * handler's result is wrapped in the envelope. `around` is the same rule without rxjs, for the fast path that
 * calls it directly (fast-paths/direct-interceptor.ts); `intercept` is Nest's form of it.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  /** FAST_PATHS as the app was made with it: a plain JSON body is then read by fast-paths/plain-json-body.ts. */
  private readonly fastPaths = fastPathsOn();

  intercept(context: ExecutionContext, next: CallHandler): Observable<Envelope> {
    const reading = this.readBody(context);
    return (reading ? afterReading(reading, next) : next.handle()).pipe(map(success));
  }

  /** The body read, then the handler (`handle`), then its result in the envelope: one request's work, awaited. */
  async around(context: ExecutionContext, handle: () => Promise<unknown>): Promise<Envelope | Observable<Envelope>> {
    const reading = this.readBody(context);
    if (reading) await reading;
    const result = await handle();
    return isObservable(result) ? result.pipe(map(success)) : success(result);
  }

  /** The request body read within the handler's limit; undefined when there is none to read (or not HTTP). */
  private readBody(context: ExecutionContext): Promise<void> | undefined {
    if (context.getType() !== 'http') return undefined;
    const http = context.switchToHttp();
    const limit = Reflect.getMetadata(BODY_LIMIT, context.getHandler()) as string | undefined;
    return readRequestBody(http.getRequest<Request>(), http.getResponse<Response>(), limit, this.fastPaths);
  }
}
