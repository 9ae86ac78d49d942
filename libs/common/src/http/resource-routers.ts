import { IncomingMessage } from 'node:http';
import { Router } from 'express';
import type { Express, Request } from 'express';

/** The HTTP methods Nest registers routes with, as the adapter and Express name them. */
export type RouteMethod = 'get' | 'post' | 'put' | 'delete' | 'patch' | 'head' | 'options' | 'all';

/** Each route Express matched, by the path the service registered it with (`baseUrl` is spelled as the request spelled it). */
const REGISTERED = new WeakMap<object, string>();

/**
 * The route a request matched as the service registered it: its full path as registered, or for a route of the
 * app itself, the mount path and the route's own path. Unmatched (undefined) without a route, or for a wildcard
 * route (Nest's not-found handler).
 */
export function registeredRoute(req: IncomingMessage): string | undefined {
  const { route, baseUrl } = req as Request;
  if (typeof route?.path !== 'string' || route.path.includes('*')) return undefined;
  return REGISTERED.get(route) ?? `${baseUrl ?? ''}${route.path}`;
}

/** The literal parent of a route's path (`/a/b/c` gives `/a/b`); null when it has parameters or patterns. */
function parentOf(path: unknown): string | null {
  if (typeof path !== 'string') return null;
  const cut = path.lastIndexOf('/');
  const parent = path.slice(0, cut);
  return cut > 0 && /^[/\w.~-]+$/.test(parent) ? parent : null;
}

/**
 * One express.Router per resource (the literal parent path of its routes), mounted on the app at its first
 * route: a request walks the app's middlewares and the routers' mount paths, then only its own resource's few
 * routes, instead of every route of the service one by one. Routers take the app's case and trailing-slash
 * settings, so they match what the app itself would. Routes without a literal parent stay on the app.
 */
export class ResourceRouters {
  private readonly routers = new Map<string, Router>();

  constructor(private readonly app: Express) {}

  register(method: RouteMethod, args: unknown[]): unknown {
    const [path, ...handlers] = args;
    const parent = parentOf(path);
    if (parent === null) return (this.app[method] as (...a: unknown[]) => unknown)(...args);
    // what router[method](path, ...handlers) does, keeping the route to know it by its registered path
    const route = this.routerFor(parent).route((path as string).slice(parent.length));
    REGISTERED.set(route, path as string);
    (route[method] as (...a: unknown[]) => unknown)(...handlers);
    return route;
  }

  private routerFor(parent: string): Router {
    let router = this.routers.get(parent);
    if (!router) {
      router = Router({ caseSensitive: this.app.get('case sensitive routing'), strict: this.app.get('strict routing') });
      this.routers.set(parent, router);
      this.app.use(parent, router);
    }
    return router;
  }
}
