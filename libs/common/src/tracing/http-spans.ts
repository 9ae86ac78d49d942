import { ClientRequest, IncomingMessage, RequestOptions, ServerResponse } from 'node:http';
import type { Attributes, Span } from '@opentelemetry/api';
import { registeredRoute } from '../http/resource-routers';
import { RequestContext } from '../tenancy/request-context';
import { operationIdOf } from './operation-ids';
import { OPERATION_ID, TENANT_ID } from './span-attributes';

/**
 * What the HTTP spans hold and leave out. No query string reaches a span: device calls carry their
 * `token` in it, and list filters carry the caller's values. Server spans keep the path (`url.path`) and
 * gain their route, the tenant and the operation id once the response is done (Express sets `route` on
 * the request it matched: no Express instrumentation is needed, nor its spans per middleware); client
 * spans keep scheme, host, port and path. Kubernetes' probes and Prometheus' scrape make no traces.
 */

/** `/<prefix>/health...` and `/<prefix>/metrics`: the probes and the scrape, many times a minute. */
const PROBE_OR_SCRAPE = /^\/[^/]+\/(health(\/[^?]*)?|metrics\/*)(\?|$)/i;

export function isProbeOrScrape(request: IncomingMessage): boolean {
  return PROBE_OR_SCRAPE.test(request.url ?? '');
}

/** The server span's attributes over the instrumentation's: no `url.query`. */
export function serverSpanStart(): Attributes {
  return { 'url.query': undefined };
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** The client span's `url.full` without query string, fragment or credentials. */
export function clientSpanStart(options: RequestOptions): Attributes {
  const protocol = options.protocol ?? 'http:';
  const host = options.hostname ?? options.host?.replace(/:\d+$/, '') ?? 'localhost';
  const port = options.port === undefined || options.port === null ? '' : String(options.port);
  const hostPart = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const portPart = port && port !== DEFAULT_PORTS[protocol] ? `:${port}` : '';
  const path = (options.path ?? '/').split(/[?#]/)[0] || '/';
  return { 'url.full': `${protocol}//${hostPart}${portPart}${path}` };
}

/**
 * Once a server response is done: the span named `<METHOD> <route>` with `http.route` (the route as declared,
 * `:id` for a path parameter), the caller's tenant and the operation's id (of the OpenAPI document).
 */
export function serverSpanEnd(span: Span, request: ClientRequest | IncomingMessage, response: IncomingMessage | ServerResponse): void {
  if (!(response instanceof ServerResponse) || !(request instanceof IncomingMessage)) return;
  const identity = RequestContext.identity(request);
  if (identity) span.setAttribute(TENANT_ID, identity.tenantId);
  const route = registeredRoute(request);
  if (route === undefined) return;
  const method = request.method ?? 'GET';
  span.updateName(`${method} ${route}`).setAttribute('http.route', route);
  const operationId = operationIdOf(method, route);
  if (operationId) span.setAttribute(OPERATION_ID, operationId);
}
