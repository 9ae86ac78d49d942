import { operations } from '../openapi/paths';
import { tracingStarted } from './tracing-switch';

/** `<METHOD> <route as Express declares it>` → the operation's id, from the services' finished OpenAPI documents. */
const byRoute = new Map<string, string>();

/** An OpenAPI path template (`/x/{id}`) as Express declares the route (`/x/:id`). */
const expressRoute = (path: string): string => path.replace(/\{([^}/]+)\}/g, ':$1');

/**
 * Keeps each operation's id by method and route, read from the document as named (openapi/names.ts): the
 * server spans name their operation without a second naming rule. Only while tracing runs.
 */
export function noteOperationIds(document: object): void {
  if (!tracingStarted()) return;
  for (const { path, method, op } of operations(document))
    if (typeof op.operationId === 'string') byRoute.set(`${method.toUpperCase()} ${expressRoute(path)}`, op.operationId);
}

/** The operation id of a request matched to `route` (Express' full route path), if the document has it. */
export function operationIdOf(method: string, route: string): string | undefined {
  return byRoute.get(`${method.toUpperCase()} ${route}`);
}
