import { NestExpressApplication } from '@nestjs/platform-express';
import compression from 'compression';
import type { NextFunction, Request, Response } from 'express';
import { ServerConfig } from '../config/server.config';
import { refuseUntilMigrated } from '../health/schema-gate';
import { SchemaState } from '../health/schema-state';
import { AppLogging } from '../logging/app-logging';
import { NestLines } from '../logging/nest-lines';
import { Metrics } from '../metrics/metrics';
import { Admission } from '../overload/admission';
import { ServiceDescription, setupOpenApi, SharedDocument } from '../openapi/setup';
import { enableCorsFor } from './cors';
import { failure } from './envelope';
import { parseQueryString } from './query-params';
import { sendEnvelope } from './sent-status';
import { limitRequestTime } from './server';
import { RequestContext } from '../tenancy/request-context';

function trustProxy(value: string): boolean | number | string {
  if (value === 'true' || value === 'false') return value === 'true';
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

export interface ConfigureOptions {
  /** Build the OpenAPI document when it is first asked for rather than now (tests that never read it boot faster). */
  documentOnFirstRequest?: boolean;
  /** The OpenAPI document of another app of this service and configuration, where one was built (setupOpenApi). */
  sharedDocument?: SharedDocument;
}

/**
 * The root URLs (`/`, `/{prefix}/`) for a browser: a request that prefers HTML to JSON (a browser's `Accept`) is
 * sent on to the service's Swagger UI with 303; any other caller (curl, which accepts anything; a client asking for JSON; no
 * Accept at all) keeps the 404 envelope. Both answers vary by Accept. Returns whether it answered.
 */
function rootToSwaggerUi(req: Request, res: Response, prefix: string): boolean {
  res.vary('Accept');
  if (req.accepts(['application/json', 'text/html']) !== 'text/html') return false;
  res.redirect(303, `/${prefix}/swagger-ui`);
  return true;
}

/**
 * A request under the app's prefix goes on in a request context of its own (tenant, caller, request id).
 * Nest answers unknown routes under the prefix; anything outside it gets the same envelope here. No body
 * is read before routing: a handler's body parameter reads it once the route's guards have admitted the caller
 * (http/body-param.ts).
 */
function enterApp(prefix: string) {
  const roots = new Set(['/', `/${prefix}`, `/${prefix}/`]);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (roots.has(req.path) && (req.method === 'GET' || req.method === 'HEAD') && rootToSwaggerUi(req, res, prefix)) return;
    if (req.path === `/${prefix}` || req.path.startsWith(`/${prefix}/`)) RequestContext.run(next, req);
    else sendEnvelope(res, 404, failure(404, 'Not found', req.path));
  };
}

/**
 * gzip or br for answers of 1 KB and more (the OpenAPI documents, Swagger UI's scripts, long pages) when the
 * client accepts it. A request without Accept-Encoding skips the middleware, which would only add work to
 * its answer; that answer lacks `Vary: Accept-Encoding`, harmless since an uncompressed answer suits any client.
 */
function compressLargeAnswers() {
  const compress = compression({ threshold: 1024 });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.headers['accept-encoding']) compress(req, res, next);
    else next();
  };
}

/** Everything an app needs beyond its modules; shared by main.ts and the e2e tests. */
export function configureApp(
  app: NestExpressApplication,
  service: ServiceDescription,
  options: ConfigureOptions = {},
): NestExpressApplication {
  const config = app.get(ServerConfig);
  app.useLogger(new NestLines(app.get(AppLogging).logger));
  app.set('trust proxy', trustProxy(config.trustProxy));
  app.disable('x-powered-by');
  // every envelope carries its own timestamp, so an ETag (a hash of each body) could never match a client's
  app.set('etag', false);
  app.set('query parser', parseQueryString);
  limitRequestTime(app.getHttpServer(), config.requestTimeoutMs);
  // first of all: admission, before any work is spent on a request it refuses; the probes pass ahead of it
  app.use(app.get(Admission).gate([`/${service.prefix}/health/live`, `/${service.prefix}/health/ready`]));
  // then: every answer, the 404s outside the prefix included, is counted and logged with a request id
  if (config.metricsEnabled) app.use(app.get(Metrics).record);
  app.use(app.get(AppLogging).http);
  app.use(compressLargeAnswers());
  enableCorsFor(app, config.corsOrigins);
  app.use(enterApp(service.prefix));
  // before every route: requests on a database without its migrations get 503, not the 500 of each query
  app.use(refuseUntilMigrated(app.get(SchemaState), service.prefix));
  app.setGlobalPrefix(service.prefix);
  // no enableShutdownHooks: http/shutdown.ts drains the HTTP server before closing the app
  const document = setupOpenApi(app, service, options.sharedDocument);
  if (!options.documentOnFirstRequest) document();
  return app;
}
