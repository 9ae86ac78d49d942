import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';
import { Router } from 'express';
import finalhandler from 'finalhandler';
import { groupKey, type GroupedRoutes, type LiteralRoute } from './route-groups';

/** What this file uses of a layer of Express's router (the `router` package): the layer itself does the calling. */
interface Layer {
  handle: (...args: never[]) => unknown;
  route?: { _handlesMethod(method: string): boolean };
  /** Mounted at `/` as middleware (app.use without a path). */
  slash?: boolean;
  match(path: string): unknown;
  handleRequest(req: IncomingMessage, res: ServerResponse, next: Next): void;
}
type Next = (error?: unknown) => void;

/** A layer Express calls for a route's requests before the route, with its index in the app's stack. */
interface Before {
  layer: Layer;
  index: number;
  /** A route's layer (Nest's middleware for its routes): its parameters are matched per request, as Express does. */
  route: boolean;
}

/** A literal route served directly: what Express calls before it, its layer in its group, and where Express goes on after it. */
interface DirectRoute {
  before: Before[];
  /** The group's parent path as registered (RouteGroups makes it `req.baseUrl`). */
  parent: string;
  layer: Layer;
  /** Index in the app's stack after the route's RouteGroups layer. */
  after: number;
}

interface Table {
  stack: Layer[];
  /** Express's routing settings as the table was made (its routers were made with them too). */
  caseSensitive: boolean;
  strict: boolean;
  /** By `METHOD key`, the key as RouteGroups looks paths up (groupKey), without a trailing slash unless routing is strict. */
  routes: Map<string, DirectRoute>;
  /** Routers running the app's stack from an index on, by that index, made when first needed. */
  rest: Map<number, { handle(req: IncomingMessage, res: ServerResponse, done: Next): void }>;
  /** Literal routes left to Express. */
  skipped: number;
}

/** The methods served directly; HEAD, OPTIONS and `all` routes are Express's (its implicit HEAD and OPTIONS answers). */
const DIRECT_METHODS = new Set(['get', 'post', 'put', 'delete', 'patch']);
const PENDING = Symbol('pendingError');

/** A path as a table keys it: RouteGroups' key, one trailing slash dropped unless routing is strict. */
function key(table: Table, path: string): string {
  const bare = !table.strict && path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return groupKey(bare, table.caseSensitive);
}

/**
 * A request for a literal route (route-groups.ts) goes from the server to that route's layer without Express's
 * router: the app's middlewares, then the route, each called through its own layer as Express's router calls it,
 * with the request set up as the router and RouteGroups set it (prototypes, `originalUrl`, `baseUrl`, `url`,
 * `params`, `route`). Express's router, for each request, walks the app's stack layer by layer, matching each
 * layer's path and restoring the URL between them; that walk was most of its cost. Replaces: Express's
 * `app.handle` and router walk for such requests. Must match: what Express does with them, an error or a `next()`
 * included (both go on in Express's own router from where Express would be, to the not-found and error handlers).
 * Anything else is Express's: other methods, paths no literal route has, and routes that a middleware mounted at a
 * path would see first.
 */
export class DirectRoutes {
  private table?: Table;

  constructor(
    private readonly app: Express,
    private readonly grouped: GroupedRoutes,
  ) {}

  /** The server's request listener. */
  readonly listener = (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '';
    const table = this.current();
    const query = url.charCodeAt(0) === 47 ? url.indexOf('?') : -2; // an absolute-form target is Express's
    const path = query === -1 ? url : url.slice(0, query);
    const route = query === -2 ? undefined : table.routes.get(`${req.method} ${key(table, path)}`);
    if (route) this.serve(table, route, req, res, url, path);
    else this.app(req, res);
  };

  private serve(table: Table, route: DirectRoute, req: IncomingMessage, res: ServerResponse, url: string, path: string): void {
    const { app } = this;
    const r = req as IncomingMessage & Record<string | symbol, unknown>;
    // what app.handle does before its router
    if (app.enabled('x-powered-by')) res.setHeader('X-Powered-By', 'Express');
    r.res = res;
    (res as ServerResponse & { req: unknown }).req = req;
    // the app's own server makes them with these prototypes already (http/server.ts); another server may not
    if (Object.getPrototypeOf(req) !== app.request) Object.setPrototypeOf(req, app.request);
    if (Object.getPrototypeOf(res) !== app.response) Object.setPrototypeOf(res, app.response);
    const locals = res as ServerResponse & { locals?: object };
    if (!locals.locals) locals.locals = Object.create(null) as object;
    r.baseUrl = '';
    r.originalUrl = (r.originalUrl as string | undefined) || url;
    let index = 0;
    let at = -1; // the stack index of the layer that last had the request
    const after: Next = (error) => {
      r.url = url;
      r.baseUrl = '';
      this.goOn(table, route.after, error, req, res);
    };
    const next: Next = (error) => {
      // 'router' too: Express's router ends its walk for it, as the one going on does
      if (error && error !== 'route') return this.goOn(table, at + 1, error, req, res);
      r.next = next;
      const before = route.before[index++];
      if (before) {
        at = before.index;
        const match = before.route ? (before.layer.match(path) as { params: object } | false) : { params: {} };
        if (!match) return this.goOn(table, at, error, req, res); // not as at start-up: Express decides
        r.params = match.params;
        return before.layer.handleRequest(req, res, next);
      }
      // a middleware that rewrote the URL sent the request elsewhere: Express's router matches the new one
      if (r.url !== url) return this.goOn(table, at + 1, undefined, req, res);
      // as RouteGroups hands the request to the group's router, which hands it to the route
      r.url = url.slice(route.parent.length);
      r.baseUrl = route.parent;
      r.params = {};
      route.layer.handleRequest(req, res, after);
    };
    next();
  }

  /** Express's own walk of the app's stack from `index` on, with `error` pending, then its final handler. */
  private goOn(table: Table, index: number, error: unknown, req: IncomingMessage, res: ServerResponse): void {
    let rest = table.rest.get(index);
    if (!rest) {
      const router = Router({ caseSensitive: table.caseSensitive, strict: table.strict });
      router.use((r: IncomingMessage & { [PENDING]?: unknown }, _res: ServerResponse, next: Next) => next(r[PENDING]));
      (router.stack as unknown as Layer[]).push(...table.stack.slice(index));
      table.rest.set(index, (rest = router as unknown as NonNullable<typeof rest>));
    }
    (req as IncomingMessage & { [PENDING]?: unknown })[PENDING] = error;
    const env = this.app.get('env') as string;
    // Express's final handler, as app.handle makes it (logging as its `logerror` does)
    const done = finalhandler(req, res, {
      env,
      onerror: (e: Error) => {
        if (env !== 'test') console.error(e.stack || e.toString());
      },
    });
    rest.handle(req, res, done);
  }

  /** The table for the app's stack as it is now: made again when a layer or route was added since. */
  private current(): Table {
    const stack = (this.app as unknown as { router: { stack: Layer[] } }).router.stack;
    const table = this.table;
    if (table && table.stack.length === stack.length && table.routes.size + table.skipped === this.grouped.literal.length) return table;
    return (this.table = this.compile(stack));
  }

  private compile(stack: Layer[]): Table {
    const live = [...stack];
    const table: Table = {
      stack: live,
      caseSensitive: this.app.enabled('case sensitive routing'),
      strict: this.app.enabled('strict routing'),
      routes: new Map(),
      rest: new Map(),
      skipped: 0,
    };
    for (const literal of this.grouped.literal) {
      const routeKey = `${literal.method.toUpperCase()} ${key(table, literal.path)}`;
      const at = live.findIndex((layer) => layer.handle === literal.dispatch);
      const rest = literal.path.slice(literal.parent.length);
      const before = this.before(live.slice(0, Math.max(at, 0)), literal);
      const servable =
        at >= 0 &&
        before !== undefined &&
        DIRECT_METHODS.has(literal.method) &&
        !table.routes.has(routeKey) &&
        // within its group, no earlier route serves the same path and method
        (literal.group.stack as unknown as Layer[]).find((layer) => layer.match(rest) && layer.route?._handlesMethod(literal.method)) ===
          literal.layer;
      if (servable) table.routes.set(routeKey, { before: before!, parent: literal.parent, layer: literal.layer as Layer, after: at + 1 });
      else table.skipped++;
    }
    return table;
  }

  /**
   * The layers Express calls for a request of `literal` before its group: middleware at `/` and routes that match
   * its path and method (other groups pass it on, error handlers are skipped). Undefined when one of them is
   * middleware mounted at a path (Express would rewrite the URL for it): the route is then Express's.
   */
  private before(layers: Layer[], literal: LiteralRoute): Before[] | undefined {
    const found: Before[] = [];
    for (const [index, layer] of layers.entries()) {
      if (this.grouped.isDispatch(layer.handle) || layer.handle.length > 3) continue;
      if (layer.slash) found.push({ layer, index, route: false });
      else if (!layer.match(literal.path)) continue;
      else if (!layer.route) return undefined;
      else if (layer.route._handlesMethod(literal.method)) found.push({ layer, index, route: true });
    }
    return found;
  }
}
