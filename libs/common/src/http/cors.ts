import type { INestApplication } from '@nestjs/common';

/** What a browser app may send and read; a token travels in Authorization, never in cookies. */
export const CORS_METHODS = ['GET', 'POST', 'PUT', 'DELETE'];
export const CORS_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Accept-Language', 'X-Request-Id'];
export const CORS_EXPOSED_HEADERS = ['X-Request-Id'];
/** Seconds a browser may reuse a preflight answer (browsers cap it lower: Chromium at 7200). */
export const CORS_MAX_AGE_S = 600;

/** Browsers send the origin serialised (lower-case scheme and host, no default port): compare that form. */
function serialisedOrigin(origin: string): string {
  return new URL(origin).origin;
}

/**
 * CORS for the configured origins, registered before the body parsers and routes: a preflight is
 * answered here (204, no token needed) and failures carry the headers too. An origin not listed gets no
 * Access-Control-Allow-Origin; `Vary: Origin` is set on every answer so a shared cache never hands one
 * origin's answer to another. No origins: nothing is registered, no CORS header at all.
 */
export function enableCorsFor(app: INestApplication, origins: string[]): void {
  if (!origins.length) return;
  app.enableCors({
    origin: origins.map(serialisedOrigin),
    methods: CORS_METHODS,
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    credentials: false,
    maxAge: CORS_MAX_AGE_S,
    preflightContinue: false,
    optionsSuccessStatus: 204,
  });
}
