import type { ExecutionContext, NestInterceptor } from '@nestjs/common';
import { SSE_METADATA } from '@nestjs/common/constants';
import { InterceptorsConsumer } from '@nestjs/core/internal';
import { compileHandlersFor } from './compiled-handlers';
import { fastPathsOn } from './fast-paths';

/** An interceptor that also offers its rule as one awaited call: the work before the handler, the handler, the work after. */
export interface DirectInterceptor extends NestInterceptor {
  around(context: ExecutionContext, handle: () => Promise<unknown>): Promise<unknown>;
}

/** The interceptors (one per app) whose apps were made with the fast paths on. */
const directOnes = new WeakSet<DirectInterceptor>();
const isDirect = (interceptor: unknown): interceptor is DirectInterceptor => directOnes.has(interceptor as DirectInterceptor);

let installed = false;

/**
 * A route whose only interceptor offers `around` (the EnvelopeInterceptor) runs it as one awaited call instead of
 * Nest's interceptor chain. Nest builds that chain anew on every request: three deferred observables, two merges,
 * two async resources and a subject, then reads the answer back through a pipeline watching for a client that
 * goes away; their allocation was a large part of a light request's CPU and garbage. Replaces:
 * InterceptorsConsumer.intercept (Nest's internal export) for such routes. Must match: what the interceptor's
 * `intercept` gives (the same body read, handler call and envelope, the same errors, in the request's async
 * context). Other interceptors, several of them, server-sent events, other context types and apps made
 * with FAST_PATHS=off keep Nest's chain.
 */
export function runDirectWhenFast<I extends DirectInterceptor>(interceptor: I): I {
  if (!fastPathsOn()) return interceptor;
  directOnes.add(interceptor);
  installOnce();
  return interceptor;
}

function installOnce(): void {
  if (installed) return;
  installed = true;
  // most such routes get a handler of their own that calls `around` itself; the chain below serves the others
  compileHandlersFor(isDirect);
  const nests = InterceptorsConsumer.prototype.intercept;
  InterceptorsConsumer.prototype.intercept = function intercept(
    this: InterceptorsConsumer,
    interceptors,
    args,
    instance,
    callback,
    next,
    type,
  ) {
    const only = interceptors?.length === 1 ? (interceptors[0] as DirectInterceptor) : undefined;
    if (type !== 'http' || !only || !isDirect(only) || Reflect.getMetadata(SSE_METADATA, callback)) {
      return nests.call(this, interceptors, args, instance, callback, next, type);
    }
    const context = this.createContext(args, instance, callback);
    context.setType(type);
    return only.around(context, next);
  } as typeof nests;
}
