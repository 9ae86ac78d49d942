import { AllTenantsRead, LIVE, LiveRecordTable, TenantFilter, TenantScope, TenantTable } from '@app/common';
import { Injectable } from '@nestjs/common';
import { DataSource, In, LessThanOrEqual, MoreThan } from 'typeorm';
import { CONFIG_FIELD, deliveryScope, MessageRecord, messageTables } from './delivery-tables';
import { DeliveryChannel, MessageDelivery } from './message-delivery.entity';

/** A message's configuration reference: its own configuration id, or null for the tenant's enabled one. */
export type ConfigRef = string | null;

/** A message to deliver, as the scan finds it. */
export interface DeliveryTarget {
  channel: DeliveryChannel;
  /** The message's tenant: everything after the scan works in it. */
  scope: TenantScope;
  messageId: string;
  /** The configuration the message names (null: the tenant's enabled one). */
  configRef: ConfigRef;
  /** Whether a bookkeeping row exists already (an earlier attempt, or a claim that expired). */
  known: boolean;
}

/** The dispatcher's reads across tenants: the tenants to scan and their claims, the pending gauge, the cleanups. */
const PENDING_TENANTS = AllTenantsRead.of('tenants with messages waiting for delivery, taken in turns by the dispatcher');
const IN_FLIGHT = AllTenantsRead.of("messages in flight per tenant, counted against the dispatcher's per-tenant cap");
const OWN_CLAIMS = AllTenantsRead.of("a replica's own claims in force, which it counts as its running attempts instead");
const PENDING_COUNT = AllTenantsRead.of('messages waiting for delivery, counted for the messages_pending gauge');
const STALE_BOOKKEEPING = AllTenantsRead.of('delivery bookkeeping of messages that no longer wait, pruned by the dispatcher');
const HELD_CLAIMS = AllTenantsRead.of("a replica's own claims, released when it shuts down");

/** Targets grouped by channel and tenant (in the given order): every statement after the scan names one tenant. */
function byTenant(targets: DeliveryTarget[]): DeliveryTarget[][] {
  const groups = new Map<string, DeliveryTarget[]>();
  for (const t of targets) {
    const key = `${t.channel}/${t.scope.tenantId}`;
    const group = groups.get(key);
    if (group) group.push(t);
    else groups.set(key, [t]);
  }
  return [...groups.values()];
}

/** The bookkeeping rows of a group of byTenant. */
const keysOf = (targets: DeliveryTarget[]): TenantFilter<MessageDelivery> => ({
  channel: targets[0].channel,
  messageId: In(targets.map((t) => t.messageId)),
});

/**
 * Claims of messages in delivery (the `message_delivery` table). A claim is a conditional write, an
 * INSERT of the first row or an UPDATE of an expired, due one: atomic on MariaDB's row locks and on SQLite's
 * single writer, so two replicas never hold one message at once. The scan that finds candidates reads
 * across tenants (and so do the gauge's count and the cleanups' searches); every write names the tenant.
 */
@Injectable()
export class DeliveryClaims {
  private readonly messages: Record<DeliveryChannel, LiveRecordTable<MessageRecord>>;
  private readonly deliveries: TenantTable<MessageDelivery>;

  constructor(dataSource: DataSource) {
    this.messages = messageTables(dataSource);
    this.deliveries = new TenantTable(MessageDelivery, dataSource);
  }

  /**
   * ACROSS TENANTS by nature: the tenants with PENDING live messages of a channel, in tenant order (read
   * from an index alone, one jump per tenant). The dispatcher takes turns among them.
   */
  async tenantsWithPendingAcrossTenants(channel: DeliveryChannel): Promise<string[]> {
    const rows: { tenantId: string }[] = await this.messages[channel]
      .selectInAnyTenant(PENDING_TENANTS, { status: 'PENDING' }, 'm')
      .select('DISTINCT m.tenantId', 'tenantId')
      .orderBy('m.tenantId', 'ASC')
      .getRawMany();
    return rows.map((r) => r.tenantId);
  }

  /**
   * ACROSS TENANTS by nature: messages in flight per tenant, both channels together, as the claims in force of
   * the replicas other than `holder` show them (a replica counts its own attempts itself, as they run). All
   * claims in force (from an index alone), less `holder`'s own (a few rows, by idx_message_delivery_claimed_by).
   */
  async inFlightAcrossTenants(now: number, holder: string): Promise<Map<string, number>> {
    const count = async (read: AllTenantsRead, filter: TenantFilter<MessageDelivery>) => {
      const rows: { tenantId: string; n: number | string }[] = await this.deliveries
        .selectInAnyTenant(read, { ...filter, claimedUntil: MoreThan(now) }, 'd')
        .select('d.tenantId', 'tenantId')
        .addSelect('COUNT(*)', 'n')
        .groupBy('d.tenantId')
        .getRawMany();
      return rows.map((r) => [r.tenantId, Number(r.n)] as const);
    };
    // in this order a claim ending between the two reads is counted, never missed
    const inFlight = new Map(await count(IN_FLIGHT, {}));
    for (const [tenantId, n] of await count(OWN_CLAIMS, { claimedBy: holder })) inFlight.set(tenantId, (inFlight.get(tenantId) ?? 0) - n);
    return inFlight;
  }

  /**
   * Up to `limit` PENDING live messages of one tenant that no replica holds and whose backoff is over,
   * oldest first, except those going to the configurations in `skip` (null: messages naming none). Read
   * without locks; `claim` decides who gets each.
   */
  async dueInTenant(channel: DeliveryChannel, tenantId: string, now: number, limit: number, skip: ConfigRef[]): Promise<DeliveryTarget[]> {
    const { idField } = this.messages[channel];
    const configField = CONFIG_FIELD[channel];
    const scope = deliveryScope(tenantId);
    const query = this.messages[channel]
      .select(scope, { status: 'PENDING' }, 'm')
      .select(`m.${idField}`, 'messageId')
      .addSelect(`m.${configField}`, 'configRef')
      .addSelect('d.messageId', 'deliveryId')
      .leftJoin(MessageDelivery, 'd', `d.channel = :channel AND d.tenantId = m.tenantId AND d.messageId = m.${idField}`, { channel })
      .andWhere('(d.messageId IS NULL OR (d.nextAttemptTime <= :now AND d.claimedUntil <= :now))', { now });
    const ids = skip.filter((ref) => ref !== null);
    if (skip.includes(null)) query.andWhere(`m.${configField} IS NOT NULL`);
    if (ids.length) query.andWhere(`(m.${configField} IS NULL OR m.${configField} NOT IN (:...skipped))`, { skipped: ids });
    const rows: { messageId: string; configRef: string | null; deliveryId: string | null }[] = await query
      .orderBy('m.createdTime', 'ASC')
      .limit(limit)
      .getRawMany();
    return rows.map((r) => ({ channel, scope, messageId: r.messageId, configRef: r.configRef, known: r.deliveryId !== null }));
  }

  /** ACROSS TENANTS by nature (the `messages_pending` gauge): live messages waiting to be sent or retried. */
  async countPendingAcrossTenants(): Promise<Record<DeliveryChannel, number>> {
    const count = (channel: DeliveryChannel) => this.messages[channel].selectInAnyTenant(PENDING_COUNT, { status: 'PENDING' }).getCount();
    const [email, sms] = await Promise.all([count('email'), count('sms')]);
    return { email, sms };
  }

  /**
   * Takes those of `targets` that are free for `holder` until now + `leaseMs`, and answers which it got
   * (the others are held by another replica, or not due). Three statements per tenant whatever the batch
   * size: the first rows are inserted (a row another replica inserted first is skipped: INSERT IGNORE /
   * OR IGNORE on the primary key), the known ones taken by a conditional UPDATE, and the rows carrying
   * this claim's exact lease read back.
   */
  async claim(candidates: DeliveryTarget[], holder: string, leaseMs: number): Promise<DeliveryTarget[]> {
    if (!candidates.length) return [];
    // one key order for every replica: their row locks never wait on each other in a cycle
    const key = (t: DeliveryTarget) => `${t.channel}/${t.scope.tenantId}/${t.messageId}`;
    const targets = [...candidates].sort((a, b) => (key(a) < key(b) ? -1 : 1));
    const now = Date.now();
    const claimedUntil = now + leaseMs;
    const got = new Set<string>();
    const groups = byTenant(targets);
    try {
      for (const group of groups) {
        const { scope, channel } = group[0];
        const fresh = group.filter((t) => !t.known);
        await this.deliveries.insertRowsIfAbsent(
          scope,
          fresh.map((t) => ({ channel, messageId: t.messageId, nextAttemptTime: 0, claimedBy: holder, claimedUntil })),
        );
        // the known ones, and the fresh ones another replica inserted first (its claim, or the backoff it left, decides)
        await this.deliveries.updateColumns(
          scope,
          { ...keysOf(group), nextAttemptTime: LessThanOrEqual(now), claimedUntil: LessThanOrEqual(now) },
          { claimedBy: holder, claimedUntil },
        );
        const mine = await this.deliveries.find(scope, { ...keysOf(group), claimedBy: holder, claimedUntil });
        for (const m of mine) got.add(`${m.channel}/${m.tenantId}/${m.messageId}`);
      }
    } catch (error) {
      // a statement that failed (a deadlock between replicas, a lost connection) must not leave claims of this lease behind
      for (const [{ scope }] of groups)
        await this.deliveries
          .updateColumns(scope, { claimedBy: holder, claimedUntil }, { claimedBy: null, claimedUntil: 0 })
          .catch(() => undefined);
      throw error;
    }
    return targets.filter((t) => got.has(key(t)));
  }

  /** Gives a held message back, to be tried again from `nextAttemptTime` (0: at once). */
  async release(target: DeliveryTarget, holder: string, nextAttemptTime: number): Promise<void> {
    await this.deliveries.updateColumns(
      target.scope,
      { channel: target.channel, messageId: target.messageId, claimedBy: holder },
      { claimedBy: null, claimedUntil: 0, nextAttemptTime },
    );
  }

  /** The message has its outcome (or is no longer PENDING): its bookkeeping goes. */
  async finish(target: DeliveryTarget, holder: string): Promise<void> {
    await this.deliveries.deleteRows(target.scope, { channel: target.channel, messageId: target.messageId, claimedBy: holder });
  }

  /**
   * Drops the bookkeeping of messages that no longer wait (deleted, or set to SENT/FAILED by hand while
   * backing off, or done by a replica that died before it cleaned up), unless a replica holds them right
   * now: found ACROSS TENANTS, removed per tenant. The table holds only messages in delivery, so this stays small.
   */
  async pruneAcrossTenants(now: number): Promise<void> {
    for (const channel of Object.keys(this.messages) as DeliveryChannel[]) {
      const { entity, idField } = this.messages[channel];
      const stale: { tenantId: string; messageId: string }[] = await this.deliveries
        .selectInAnyTenant(STALE_BOOKKEEPING, { channel, claimedUntil: LessThanOrEqual(now) }, 'd')
        .select('d.tenantId', 'tenantId')
        .addSelect('d.messageId', 'messageId')
        .andWhere(
          (qb) =>
            'NOT EXISTS ' +
            qb
              .subQuery()
              .select('1')
              .from(entity, 'm')
              // the outer alias's columns by name: the subquery maps only its own alias's properties
              .where(`m.tenantId = d.tenant_id AND m.${idField} = d.message_id AND m.status = :pending AND m.deleteTime = :live`)
              .getQuery(),
          { pending: 'PENDING', live: LIVE },
        )
        .getRawMany();
      const targets = stale.map((s) => ({
        channel,
        scope: deliveryScope(s.tenantId),
        messageId: s.messageId,
        configRef: null,
        known: true,
      }));
      // a replica that claimed one meanwhile holds it past now: the condition keeps its row
      for (const group of byTenant(targets))
        await this.deliveries.deleteRows(group[0].scope, { ...keysOf(group), claimedUntil: LessThanOrEqual(now) });
    }
  }

  /** On shutdown: every claim of this replica is released for the others at once. */
  async releaseAll(holder: string): Promise<void> {
    const tenants: { tenantId: string }[] = await this.deliveries
      .selectInAnyTenant(HELD_CLAIMS, { claimedBy: holder }, 'd')
      .select('DISTINCT d.tenantId', 'tenantId')
      .getRawMany();
    for (const { tenantId } of tenants)
      await this.deliveries.updateColumns(deliveryScope(tenantId), { claimedBy: holder }, { claimedBy: null, claimedUntil: 0 });
  }
}
