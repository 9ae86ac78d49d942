import { NestExpressApplication } from '@nestjs/platform-express';
import { json, NextFunction, Request, Response, urlencoded } from 'express';
import { ServerConfig } from '../config/server.config';
import { AppLogging } from '../logging/app-logging';
import { NestLines } from '../logging/nest-lines';
import { Metrics } from '../metrics/metrics';
import { ServiceDescription, setupOpenApi } from '../openapi/setup';
import { bodySanitizer } from './body-sanitizer';
import { enableCorsFor } from './cors';
import { failure } from './envelope';
import { parseQueryString } from './query-params';
import { RequestContext } from '../tenancy/request-context';

/** Largest accepted request body (imports of tens of thousands of rows fit). */
export const BODY_LIMIT = '16mb';

function trustProxy(value: string): boolean | number | string {
  if (value === 'true' || value === 'false') return value === 'true';
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

export interface ConfigureOptions {
  /** Build the OpenAPI document when it is first asked for rather than now (tests that never read it boot faster). */
  documentOnFirstRequest?: boolean;
}

/**
 * A request under the app's prefix goes on in a request context of its own (tenant, caller, request id).
 * It is opened here, after the body parsers: they call on from their stream callbacks, which would run
 * outside a context opened before them. Nest answers unknown routes under the prefix; anything outside
 * it gets the same envelope here.
 */
function enterApp(prefix: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.path === `/${prefix}` || req.path.startsWith(`/${prefix}/`)) RequestContext.run(next, req);
    else res.status(404).json(failure(404, 'Not found', req.path));
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
  // first, before the body parsers: their failures (1004, 413) and the 404s outside the prefix are
  // counted, and logged with a request id, too
  if (config.metricsEnabled) app.use(app.get(Metrics).record);
  app.use(app.get(AppLogging).http);
  enableCorsFor(app, config.corsOrigins);
  // registered first: a route's own limit is applied to the bytes actually read (chunked bodies too);
  // the general parsers below skip a body that is already consumed
  for (const [path, limit] of Object.entries(service.bodyLimits ?? {})) {
    app.use(`/${service.prefix}/${path}`, json({ limit }), urlencoded({ extended: false, limit }));
  }
  app.useBodyParser('json', { limit: BODY_LIMIT });
  app.useBodyParser('urlencoded', { extended: false, limit: '64kb' });
  // after every parser, before any conversion or validation: null = not given, bounded depth, well-formed text
  app.use(bodySanitizer);
  app.use(enterApp(service.prefix));
  app.setGlobalPrefix(service.prefix);
  // no enableShutdownHooks: http/shutdown.ts drains the HTTP server before closing the app
  const document = setupOpenApi(app, service);
  if (!options.documentOnFirstRequest) document();
  return app;
}
