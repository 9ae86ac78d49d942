import { CanActivate, ForbiddenException, StreamableFile } from '@nestjs/common';
import type { HttpArgumentsHost } from '@nestjs/common/internal';
import { ExecutionContextHost, FORBIDDEN_MESSAGE, STATIC_CONTEXT } from '@nestjs/core/internal';
import { markRejectedByPipes } from '@nestjs/core/router/rejected-by-pipes.js';
import { RouterExecutionContext } from '@nestjs/core/router/router-execution-context.js';
import { isStreamingBody } from '@nestjs/core/router/streaming-body.js';
import { isObservable, Observable, ReplaySubject, tap } from 'rxjs';
import type { DirectInterceptor } from './direct-interceptor';

type Handler = (...args: unknown[]) => unknown;
type RouteHandler = (req: object, res: object, next: unknown) => Promise<void>;

/** What this file uses of Nest's RouterExecutionContext (its members are private in its typings). */
interface NestRouteContext {
  interceptorsContextCreator: { create(...a: unknown[]): unknown[] };
  guardsContextCreator: { create(...a: unknown[]): unknown[] };
  pipesContextCreator: { create(...a: unknown[]): unknown[] };
  guardsConsumer: GuardsConsumer;
  contextUtils: { mergeParamsMetatypes(params: unknown[], types: unknown): unknown[] };
  responseController: {
    setStatus(res: object, status: number): void;
    setHeaders(res: object, headers: unknown[]): void;
    apply(result: unknown, res: object, status: number): Promise<unknown>;
  };
  getMetadata(...a: unknown[]): {
    argsLength: number;
    fnHandleResponse: (
      result: unknown,
      res: object,
      req: object,
      observed?: ReplaySubject<unknown>,
      streams?: unknown[],
    ) => Promise<unknown>;
    isSseHandler: boolean;
    paramtypes: unknown;
    getParamsMetadata(moduleKey: string, contextId: unknown, inquirerId: unknown): unknown[];
    httpStatusCode: number;
    responseHeaders: unknown[];
    hasCustomHeaders: boolean;
  };
  createPipesFn(
    pipes: unknown[],
    params: unknown[],
  ): ((args: unknown[], req: object, res: object, next: unknown) => Promise<unknown> | undefined) | null;
  isResponseHandled(instance: object, methodName: string, params: unknown[]): boolean;
  reflectRenderTemplate(callback: Handler): unknown;
  reflectRedirect(callback: Handler): unknown;
  trackHandlerStream(value: unknown, streams: unknown[]): void;
}

/** What this file uses of Nest's GuardsConsumer. */
interface GuardsConsumer {
  pickResult(result: unknown): Promise<boolean>;
}

/**
 * Nest's execution context of an HTTP request, one per request for the guards and the interceptor, whose switchToHttp
 * answers with the context itself: Nest's assigns three new closures to the context on every call, and the guards
 * and the interceptor each call it.
 */
class HttpContext extends ExecutionContextHost implements HttpArgumentsHost {
  override switchToHttp(): HttpArgumentsHost & this {
    return this;
  }
  getRequest<T>(): T {
    return this.getArgByIndex<T>(0);
  }
  getResponse<T>(): T {
    return this.getArgByIndex<T>(1);
  }
  getNext<T>(): T {
    return this.getArgByIndex<T>(2);
  }
}

/**
 * GuardsConsumer.tryActivate's rule, on the request's one context: a boolean answers at once, anything else is
 * settled by the consumer's own pickResult (a promise or an Observable).
 */
async function activated(consumer: GuardsConsumer, guards: CanActivate[], context: HttpContext): Promise<boolean> {
  for (const guard of guards) {
    const result = guard.canActivate(context);
    if (typeof result === 'boolean' ? !result : !(await consumer.pickResult(result))) return false;
  }
  return true;
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';

let installed = false;

/**
 * A route whose only interceptor is a direct one (direct-interceptor.ts) gets, once at start-up, a handler of its
 * own: the guards (GuardsConsumer's rule), the status and headers, then the interceptor's `around` with the pipes
 * (Nest's own pipes function) and the controller's method, then the answer. Nest's handler does the same through
 * per-request objects: a ReplaySubject and arrays watching for streams the handler might return, closures, and
 * the interceptor chain's consumer. Replaces: RouterExecutionContext.create's handler for such routes. Must match:
 * Nest's handler; a handler that gives an Observable, a stream or a StreamableFile is answered by Nest's own response
 * function with what Nest would have given it. Routes with other interceptors, server-sent events, render or
 * redirect metadata, @Res()/@Next() without passthrough, request-scoped controllers and apps made with
 * FAST_PATHS=off keep Nest's handler.
 */
export function compileHandlersFor(isDirect: (interceptor: unknown) => interceptor is DirectInterceptor): void {
  if (installed) return;
  installed = true;
  const prototype = RouterExecutionContext.prototype as unknown as { create: (...a: unknown[]) => RouteHandler };
  const nests = prototype.create;
  prototype.create = function create(this: NestRouteContext, ...args: unknown[]) {
    const handler = nests.apply(this, args);
    return compiled(this, isDirect, ...(args as CreateArgs)) ?? handler;
  };
}

type CreateArgs = [
  instance: object,
  callback: Handler,
  methodName: string,
  moduleKey: string,
  requestMethod: unknown,
  contextId?: unknown,
  inquirerId?: unknown,
];

function compiled(
  nest: NestRouteContext,
  isDirect: (interceptor: unknown) => interceptor is DirectInterceptor,
  ...[instance, callback, methodName, moduleKey, requestMethod, contextId = STATIC_CONTEXT, inquirerId]: CreateArgs
): RouteHandler | undefined {
  if (contextId !== STATIC_CONTEXT) return undefined;
  const interceptors = nest.interceptorsContextCreator.create(instance, callback, moduleKey, contextId, inquirerId);
  const interceptor = interceptors[0];
  if (interceptors.length !== 1 || !isDirect(interceptor)) return undefined;
  const meta = nest.getMetadata(instance, callback, methodName, moduleKey, requestMethod, 'http');
  const params = meta.getParamsMetadata(moduleKey, contextId, inquirerId);
  if (meta.isSseHandler || nest.reflectRenderTemplate(callback) || nest.reflectRedirect(callback)) return undefined;
  if (nest.isResponseHandled(instance, methodName, params)) return undefined;
  const pipes = nest.pipesContextCreator.create(instance, callback, moduleKey, contextId, inquirerId);
  const applyPipes = nest.createPipesFn(pipes, nest.contextUtils.mergeParamsMetatypes(params, meta.paramtypes));
  const guards = nest.guardsContextCreator.create(instance, callback, moduleKey, contextId, inquirerId) as CanActivate[];
  const { argsLength, fnHandleResponse, httpStatusCode, hasCustomHeaders, responseHeaders } = meta;
  const { guardsConsumer, responseController } = nest;
  const controller = instance.constructor as new () => unknown;

  return async (req, res, next) => {
    const args: unknown[] = new Array(argsLength).fill(undefined);
    const context = new HttpContext([req, res, next], controller, callback);
    if (guards.length && !(await activated(guardsConsumer, guards, context))) throw new ForbiddenException(FORBIDDEN_MESSAGE);
    responseController.setStatus(res, httpStatusCode);
    if (hasCustomHeaders) responseController.setHeaders(res, responseHeaders);
    // what Nest watches per request, made only for a handler that gives an Observable or a stream
    let observed: ReplaySubject<unknown> | undefined;
    const streams: unknown[] = [];
    const result = await interceptor.around(context, async () => {
      try {
        const pending = applyPipes?.(args, req, res, next);
        if (pending) await pending;
      } catch (error) {
        markRejectedByPipes(req); // as Nest: upload interceptors remove what they stored
        throw error;
      }
      const returned = callback.apply(instance, args);
      const value = isThenable(returned) ? await returned : returned;
      if (!isObservable(value)) {
        nest.trackHandlerStream(value, streams);
        return value;
      }
      (observed = new ReplaySubject(1)).next(undefined);
      return (value as Observable<unknown>).pipe(tap((emitted) => nest.trackHandlerStream(emitted, streams)));
    });
    if (observed || streams.length || isObservable(result) || isStreamingBody(result) || result instanceof StreamableFile)
      await fnHandleResponse(result, res, req, observed ?? new ReplaySubject(1), streams);
    else await responseController.apply(result, res, httpStatusCode);
  };
}
