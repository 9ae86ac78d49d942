import { AsyncLocalStorage } from 'node:async_hooks';

/** Who is calling, as proven by a verified token. */
export interface Principal {
  tenantId: string;
  username: string;
  roles: string[];
  permissions: string[];
}

interface RequestStore {
  principal?: Principal;
}

const storage = new AsyncLocalStorage<RequestStore>();

/**
 * Per-request context over AsyncLocalStorage (cheaper than request-scoped providers).
 * Reading the principal fails closed: code that needs a tenant and runs without one throws.
 */
export const RequestContext = {
  run<T>(fn: () => T): T {
    return storage.run({}, fn);
  },
  /** Set once, by the auth guard, after the token has been verified. */
  setPrincipal(principal: Principal): void {
    const store = storage.getStore();
    if (!store) throw new Error('RequestContext.setPrincipal outside a request');
    store.principal = principal;
  },
  principal(): Principal {
    const principal = storage.getStore()?.principal;
    if (!principal) throw new Error('No authenticated principal in the request context');
    return principal;
  },
};
