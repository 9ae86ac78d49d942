import { NextFunction, Request, Response, Router } from 'express';

/** How a parent path is looked up: as Express matches it, case-insensitively unless routing is case-sensitive. */
export const groupKey = (parent: string, caseSensitive: boolean): string => (caseSensitive ? parent : parent.toLowerCase());

/**
 * One Express layer in front of routers that each serve the literal routes below one parent path: the
 * request's parent path chooses the router by a map lookup, where Express would try one mounted router
 * after another. The chosen router runs as if mounted there with app.use(parent, router): `req.url` is
 * the rest of the path, `req.baseUrl` the parent as registered, not as the request spelled it (so `req.baseUrl` +
 * `req.route.path` is the route as registered, whatever case the client used: it labels metrics and logs), both restored when no route of it answers and the request
 * goes on to the next layer. Matching is Express's: case-insensitive unless told, one trailing slash allowed
 * (non-strict routing, which the routers apply to their own routes).
 */
export class RouteGroups {
  /** Routers by groupKey of their parent path, each with the parent as registered. */
  private readonly routers = new Map<string, { parent: string; router: Router }>();

  constructor(private readonly caseSensitive: boolean) {}

  add(parent: string, router: Router): void {
    this.routers.set(groupKey(parent, this.caseSensitive), { parent, router });
  }

  readonly dispatch = (req: Request, res: Response, next: NextFunction): void => {
    const path = req.path;
    const end = path.endsWith('/') ? path.length - 1 : path.length;
    const parent = path.slice(0, path.lastIndexOf('/', end - 1));
    const group = parent ? this.routers.get(groupKey(parent, this.caseSensitive)) : undefined;
    if (!group) return next();
    const { url, baseUrl } = req;
    // an absolute-form request target keeps its scheme and host in front of the path, as Express keeps them
    const host = url.startsWith('/') ? '' : url.slice(0, url.indexOf('/', url.indexOf('://') + 3));
    req.url = host + url.slice(host.length + parent.length);
    req.baseUrl = baseUrl + group.parent;
    group.router(req, res, (error?: unknown) => {
      req.url = url;
      req.baseUrl = baseUrl;
      next(error);
    });
  };
}

/** The HTTP methods Nest registers routes with (its route methods of the adapter). */
export type RouteMethod = 'get' | 'post' | 'put' | 'delete' | 'patch' | 'head' | 'options' | 'all';

/** A path of literal segments only: no parameters, wildcards or patterns. */
const LITERAL_PATH = /^(\/[A-Za-z0-9._~-]+){2,}$/;

type ExpressApp = {
  use: (...a: unknown[]) => unknown;
  enabled: (setting: string) => boolean;
  router: { stack: { handle: unknown }[] };
};

/**
 * An Express application's literal routes, each in the router of its parent path (a resource's base path)
 * behind RouteGroups: Express tries an application's layers one by one, and a service has a few hundred
 * routes (eight or more per resource), where a map lookup finds the group.
 */
export class GroupedRoutes {
  /** Each group's router and the RouteGroups layer's handler that hands it requests, by groupKey of the parent. */
  private readonly groups = new Map<string, { router: Router; dispatch: RouteGroups['dispatch'] }>();
  /** Every literal route registered, in order, with its group's router and layer and the RouteGroups layer serving it. */
  readonly literal: LiteralRoute[] = [];
  private readonly dispatchers = new WeakSet<object>();
  /** The dispatch layer new groups join while it is the app's last layer. */
  private latest?: RouteGroups;

  constructor(private readonly app: ExpressApp) {}

  /** Registers a route `args` = [path, ...handlers] in its group; undefined (nothing done) for a path that is not literal. */
  route(method: RouteMethod, args: unknown[]): unknown {
    const [path, ...handlers] = args;
    if (typeof path !== 'string' || !LITERAL_PATH.test(path)) return undefined;
    const { app } = this;
    const parent = path.slice(0, path.lastIndexOf('/'));
    const caseSensitive = app.enabled('case sensitive routing');
    const key = groupKey(parent, caseSensitive);
    let group = this.groups.get(key);
    if (!group) {
      // a group takes effect where its first route would have: layers registered since the last
      // dispatcher (Nest's middleware, say) must run before it, so it then joins a new dispatcher
      const stack = app.router.stack;
      if (!this.latest || stack[stack.length - 1]?.handle !== this.latest.dispatch) {
        this.latest = new RouteGroups(caseSensitive);
        this.dispatchers.add(this.latest.dispatch);
        app.use(this.latest.dispatch);
      }
      group = { router: Router({ caseSensitive, strict: app.enabled('strict routing') }), dispatch: this.latest.dispatch };
      this.groups.set(key, group);
      this.latest.add(parent, group.router);
    }
    const { router, dispatch } = group;
    const registered = (router as unknown as Record<RouteMethod, (...a: unknown[]) => unknown>)[method](
      path.slice(parent.length),
      ...handlers,
    );
    this.literal.push({ method, path, parent, group: router, layer: router.stack[router.stack.length - 1], dispatch });
    return registered;
  }

  /** Whether `handle` is the layer of one of these groups' dispatchers. */
  isDispatch(handle: unknown): boolean {
    return typeof handle === 'function' && this.dispatchers.has(handle);
  }
}

/** A literal route as GroupedRoutes registered it. */
export interface LiteralRoute {
  method: RouteMethod;
  /** As registered: the parent path and the rest. */
  path: string;
  parent: string;
  group: Router;
  /** Its layer in the group's router. */
  layer: unknown;
  /** The RouteGroups layer's handler that hands requests to the group. */
  dispatch: unknown;
}
