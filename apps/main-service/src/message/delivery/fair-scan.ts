import { Injectable } from '@nestjs/common';
import { DeliveryClaims, DeliveryTarget } from './delivery-claims';
import { DeliveryChannel } from './message-delivery.entity';
import { Admission, SenderBreakers } from './sender-breakers';
import { MainServiceConfig } from '../../main-service.config';

/** A due message the scan found and the breakers let through. */
export interface Candidate {
  target: DeliveryTarget;
  admission: Admission;
}

/**
 * Finds due messages for the free workers, taking turns among the tenants that have PENDING messages
 * (round-robin, starting after the tenant served last): each tenant gets at most an equal share of the free
 * workers, and nothing once it has DISPATCH_TENANT_IN_FLIGHT_MAX messages in flight across all replicas;
 * messages of a paused sender configuration are left where they are.
 */
@Injectable()
export class FairScan {
  /** Per channel: the tenant visited last; the next scan starts after it. */
  private readonly lastVisited = new Map<DeliveryChannel, string>();

  constructor(
    private readonly claims: DeliveryClaims,
    private readonly breakers: SenderBreakers,
    private readonly config: MainServiceConfig,
  ) {}

  /** Up to `slots` candidates of a channel; `inFlight` (per tenant, all replicas) is what the caller counted and claimed since. */
  async due(channel: DeliveryChannel, now: number, slots: number, inFlight: ReadonlyMap<string, number>): Promise<Candidate[]> {
    const tenants = rotate(await this.claims.tenantsWithPendingAcrossTenants(channel), this.lastVisited.get(channel));
    const share = Math.ceil(slots / Math.max(1, tenants.length));
    const found: Candidate[] = [];
    for (const tenantId of tenants) {
      const left = slots - found.length;
      if (left <= 0) break;
      this.lastVisited.set(channel, tenantId);
      const room = Math.min(share, left, this.config.dispatchTenantInFlightMax - (inFlight.get(tenantId) ?? 0));
      if (room <= 0) continue;
      const due = await this.claims.dueInTenant(channel, tenantId, now, room, this.breakers.paused(channel, tenantId, now));
      for (const target of due) {
        const admission = this.breakers.admit(channel, tenantId, target.configRef, now);
        if (admission) found.push({ target, admission });
      }
    }
    return found;
  }
}

/** The tenants after `last` first, then the others (all of them, in order, when `last` is not among them). */
function rotate(tenants: string[], last: string | undefined): string[] {
  const next = last === undefined ? 0 : tenants.findIndex((t) => t > last);
  return next <= 0 ? tenants : [...tenants.slice(next), ...tenants.slice(0, next)];
}
