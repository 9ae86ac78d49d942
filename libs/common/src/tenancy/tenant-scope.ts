import { RequestContext } from './request-context';

/**
 * The tenant a piece of work is confined to and the username stamped on what it writes. Only two
 * things create one: the request context, from the principal of a verified token (`current()`), and
 * server code acting on its own behalf, which must say why (`system()`), so every use of a tenant the
 * caller did not prove can be found by name. The private constructor (and its private member) keep a
 * plain `{ tenantId, username }` from passing as a scope.
 */
export class TenantScope {
  private readonly origin: string;

  private constructor(
    readonly tenantId: string,
    readonly username: string,
    origin: string,
    /** Who a write's history entry names: the token's `sub` for a request, `system` or `import` for the server's own work. */
    readonly writer: string,
  ) {
    this.origin = origin;
  }

  /** The caller's scope; throws when the request has no verified principal (fails closed). */
  static current(): TenantScope {
    const { tenantId, username } = RequestContext.principal();
    return new TenantScope(tenantId, username, 'request', username);
  }

  /**
   * A scope the server chooses itself (a default-tenant reader, a consumer applying a verified batch
   * under the tenant stored with it, a caller proven by its own credential). `purpose` names the reason; `writer`
   * is who its writes' history entries name (`system` unless said: the import consumer says `import`).
   */
  static system(purpose: string, tenantId: string, username: string, writer = 'system'): TenantScope {
    if (!purpose || !tenantId || !username) throw new Error('A system scope needs a purpose, a tenant and a username');
    return new TenantScope(tenantId, username, `system: ${purpose}`, writer);
  }

  /** For log lines and errors: `request` or `system: <purpose>`. */
  toString(): string {
    return `${this.tenantId} (${this.origin})`;
  }
}

/**
 * A read that is deliberately not confined to one tenant (e.g. a key unique across tenants,
 * looked up to check a caller's credential). Named like a system scope so every such read can be found.
 */
export class AllTenantsRead {
  private constructor(readonly purpose: string) {}

  static of(purpose: string): AllTenantsRead {
    if (!purpose) throw new Error('A read across tenants needs a purpose');
    return new AllTenantsRead(purpose);
  }
}
