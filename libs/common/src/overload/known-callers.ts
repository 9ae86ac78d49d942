import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';

/** Credentials remembered at most; the least recently presented is forgotten first. */
export const KNOWN_CALLERS_MAX = 10_000;
/** How long a credential is remembered after it was last verified. */
export const KNOWN_CALLER_TTL_MS = 10 * 60_000;

/**
 * The tenant of each credential (a Bearer token, a device token) that a guard of this replica verified, by the
 * credential's exact text: what admission sorts requests by before it reads anything else. It only ever decides
 * whose share a request waits in, never whether the request is allowed: every request is still checked by its
 * route's guard. Only guards add entries, after a verification, so text a client makes up is never found here.
 */
@Injectable()
export class KnownCallers {
  private readonly tenants = new LRUCache<string, string>({ max: KNOWN_CALLERS_MAX, ttl: KNOWN_CALLER_TTL_MS });

  tenantOf(credential: string): string | undefined {
    return this.tenants.get(credential);
  }

  /** After a guard verified `credential` as `tenantId`'s (cheap when already remembered: most calls of a client are). */
  remember(credential: string, tenantId: string): void {
    if (this.tenants.peek(credential) !== tenantId) this.tenants.set(credential, tenantId);
  }
}
