import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { map, Observable, Subscription } from 'rxjs';
import { Envelope, success } from './envelope';
import { BODY_LIMIT, readRequestBody } from './request-body';

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
 * handler's result is wrapped in the envelope.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<Envelope> {
    const http = context.switchToHttp();
    const limit = Reflect.getMetadata(BODY_LIMIT, context.getHandler()) as string | undefined;
    const reading =
      context.getType() === 'http' ? readRequestBody(http.getRequest<Request>(), http.getResponse<Response>(), limit) : undefined;
    return (reading ? afterReading(reading, next) : next.handle()).pipe(map(success));
  }
}
