import { AsyncLocalStorage } from 'node:async_hooks';
import { RequestTicket, ticketOf } from '../overload/request-ticket';

/** Who is calling, as proven by a verified token. */
export interface Principal {
  tenantId: string;
  username: string;
  roles: string[];
  permissions: string[];
}

/** Who a request's log lines name: a user's tenant and name, or those of a caller proven by another credential. */
export interface LogIdentity {
  tenantId: string;
  user: string;
}

/** What a line logged inside a request names: the request and, once known, the caller. */
export interface LogFields extends Partial<LogIdentity> {
  requestId?: string;
}

interface RequestStore {
  requestId?: string;
  /** The request's admission (overload/admission.ts), when it went through one. */
  ticket?: RequestTicket;
  principal?: Principal;
  identity?: LogIdentity;
}

const storage = new AsyncLocalStorage<RequestStore>();
/**
 * The store of each request, for code that runs outside its async context (the log line written on 'close'): kept
 * on the request under a symbol: a WeakMap entry per request costs more (a hash for the key, and an ephemeron
 * that every collection has to trace).
 */
const STORE = Symbol('request context');
type WithStore = { [STORE]?: RequestStore };

/**
 * Per-request context over AsyncLocalStorage (cheaper than request-scoped providers).
 * Reading the principal fails closed: code that needs a tenant and runs without one throws.
 */
export const RequestContext = {
  /** Runs `fn` in a new request context; the request's id (`request.id`, set by the request-line middleware) is kept for the log lines. */
  run<T>(fn: () => T, request?: object): T {
    const store: RequestStore = {};
    if (request) {
      const id = (request as { id?: unknown }).id;
      if (typeof id === 'string') store.requestId = id;
      store.ticket = ticketOf(request);
      (request as WithStore)[STORE] = store;
    }
    return storage.run(store, fn);
  },
  /** Runs `fn` outside any request: work a request only starts (a background pass it kicks) is not the request's. */
  outside<T>(fn: () => T): T {
    return storage.exit(fn);
  },
  /** The admission of the request whose async context this is (undefined outside a request or without one). */
  ticket(): RequestTicket | undefined {
    return storage.getStore()?.ticket;
  },
  /** Set once, by the auth guard, after the token has been verified. */
  setPrincipal(principal: Principal): void {
    const store = storage.getStore();
    if (!store) throw new Error('RequestContext.setPrincipal outside a request');
    store.principal = principal;
    store.identity = { tenantId: principal.tenantId, user: principal.username };
  },
  /** For callers proven otherwise than by a Bearer token (an own-guard route's credential): names them in the logs only. */
  setIdentity(identity: LogIdentity): void {
    const store = storage.getStore();
    if (store) store.identity = identity;
  },
  principal(): Principal {
    const principal = storage.getStore()?.principal;
    if (!principal) throw new Error('No authenticated principal in the request context');
    return principal;
  },
  /** The request id and caller of the current async context, for every line logged in it. Never throws. */
  logFields(): LogFields {
    const store = storage.getStore();
    return store ? { requestId: store.requestId, ...store.identity } : {};
  },
  /** The caller to name in a log line: of the current async context, or of the given request. Never throws. */
  identity(request?: object): LogIdentity | undefined {
    return (request ? (request as WithStore)[STORE] : storage.getStore())?.identity;
  },
};
