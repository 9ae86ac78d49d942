import { IncomingMessage } from 'node:http';
import { Router } from 'express';
import type { Express, NextFunction, Request, Response } from 'express';

/** The HTTP methods Nest registers routes with, as the adapter and Express name them. */
export type RouteMethod = 'get' | 'post' | 'put' | 'delete' | 'patch' | 'head' | 'options' | 'all';

/** Where a request's router is mounted, as registered (Express's `baseUrl` is spelled as the request spelled it). */
const MOUNTED_AT = Symbol('mountedAt');

type Mounted = IncomingMessage & { [MOUNTED_AT]?: string };

/**
 * The route a request matched as the service registered it: the mount path of its resource's router and the
 * route's own path. Unmatched (undefined) without a route, or for a wildcard route (Nest's not-found handler).
 */
export function registeredRoute(req: IncomingMessage): string | undefined {
  const { route, baseUrl } = req as Request;
  if (typeof route?.path !== 'string' || route.path.includes('*')) return undefined;
  return `${(req as Mounted)[MOUNTED_AT] ?? baseUrl ?? ''}${route.path}`;
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
    const route = (path as string).slice(parent.length);
    return (this.routerFor(parent)[method] as (...a: unknown[]) => unknown)(route, ...handlers);
  }

  private routerFor(parent: string): Router {
    let router = this.routers.get(parent);
    if (!router) {
      router = Router({ caseSensitive: this.app.get('case sensitive routing'), strict: this.app.get('strict routing') });
      router.use((req: Request, _res: Response, next: NextFunction) => {
        (req as Mounted)[MOUNTED_AT] = parent;
        next();
      });
      this.routers.set(parent, router);
      this.app.use(parent, router);
    }
    return router;
  }
}
