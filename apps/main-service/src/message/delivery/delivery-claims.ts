import { LIVE } from '@app/common';
import { Injectable } from '@nestjs/common';
import { DataSource, LessThanOrEqual } from 'typeorm';
import { Email } from '../email/email.entity';
import { Sms } from '../sms/sms.entity';
import { DeliveryChannel, MessageDelivery } from './message-delivery.entity';

/** A message to deliver, as the scan finds it. */
export interface DeliveryTarget {
  channel: DeliveryChannel;
  tenantId: string;
  messageId: string;
  /** Whether a bookkeeping row exists already (an earlier attempt, or a claim that expired). */
  known: boolean;
}

/** The message table and identifier column of each channel. */
export const CHANNEL_TABLES = {
  email: { entity: Email, idField: 'emailId' },
  sms: { entity: Sms, idField: 'smsId' },
} as const;

/**
 * Claims of messages in delivery (the `message_delivery` table). A claim is a conditional write, an
 * INSERT of the first row or an UPDATE of an expired, due one: atomic on MariaDB's row locks and on SQLite's
 * single writer, so two replicas never hold one message at once. The scan that finds candidates is the one
 * query across tenants; everything after it names the tenant.
 */
@Injectable()
export class DeliveryClaims {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * ACROSS TENANTS by nature: PENDING live messages of a channel that no replica holds and whose backoff is
   * over, oldest first. Read without locks; `claim` decides who gets each.
   */
  async scanDueAcrossTenants(channel: DeliveryChannel, now: number, limit: number): Promise<DeliveryTarget[]> {
    const { entity, idField } = CHANNEL_TABLES[channel];
    const rows: { tenantId: string; messageId: string; deliveryId: string | null }[] = await this.dataSource
      .createQueryBuilder(entity, 'm')
      .select('m.tenantId', 'tenantId')
      .addSelect(`m.${idField}`, 'messageId')
      .addSelect('d.messageId', 'deliveryId')
      .leftJoin(MessageDelivery, 'd', `d.channel = :channel AND d.tenantId = m.tenantId AND d.messageId = m.${idField}`, { channel })
      .where('m.status = :pending AND m.deleteTime = :live', { pending: 'PENDING', live: LIVE })
      .andWhere('(d.messageId IS NULL OR (d.nextAttemptTime <= :now AND d.claimedUntil <= :now))', { now })
      .orderBy('m.createdTime', 'ASC')
      .limit(limit)
      .getRawMany();
    return rows.map((r) => ({ channel, tenantId: r.tenantId, messageId: r.messageId, known: r.deliveryId !== null }));
  }

  /** ACROSS TENANTS by nature (the `messages_pending` gauge): live messages waiting to be sent or retried. */
  async countPendingAcrossTenants(): Promise<Record<DeliveryChannel, number>> {
    const count = (channel: DeliveryChannel) =>
      this.dataSource.getRepository(CHANNEL_TABLES[channel].entity).count({ where: { status: 'PENDING', deleteTime: LIVE } });
    const [email, sms] = await Promise.all([count('email'), count('sms')]);
    return { email, sms };
  }

  /**
   * Takes those of `targets` that are free for `holder` until now + `leaseMs`, and answers which it got
   * (the others are held by another replica, or not due). Three statements whatever the batch size: the
   * first rows are inserted (a row another replica inserted first is skipped: INSERT IGNORE / OR IGNORE
   * on the primary key), the known ones taken by a conditional UPDATE, and the rows carrying this claim's
   * exact lease read back.
   */
  async claim(candidates: DeliveryTarget[], holder: string, leaseMs: number): Promise<DeliveryTarget[]> {
    if (!candidates.length) return [];
    // one key order for every replica: their row locks never wait on each other in a cycle
    const targets = [...candidates].sort((a, b) => (a.tenantId + '/' + a.messageId < b.tenantId + '/' + b.messageId ? -1 : 1));
    const now = Date.now();
    const claimedUntil = now + leaseMs;
    const repo = this.dataSource.getRepository(MessageDelivery);
    const key = (t: DeliveryTarget) => ({ channel: t.channel, tenantId: t.tenantId, messageId: t.messageId });
    let mine: MessageDelivery[];
    try {
      const fresh = targets.filter((t) => !t.known);
      if (fresh.length) {
        await repo
          .createQueryBuilder()
          .insert()
          .values(fresh.map((t) => ({ ...key(t), nextAttemptTime: 0, claimedBy: holder, claimedUntil })))
          .orIgnore()
          .execute();
      }
      // the known ones, and the fresh ones another replica inserted first (its claim, or the backoff it left, decides)
      await repo
        .createQueryBuilder()
        .update()
        .set({ claimedBy: holder, claimedUntil })
        .where(targets.map((t) => ({ ...key(t), nextAttemptTime: LessThanOrEqual(now), claimedUntil: LessThanOrEqual(now) })))
        .execute();
      mine = await repo.find({ where: targets.map((t) => ({ ...key(t), claimedBy: holder, claimedUntil })) });
    } catch (error) {
      // a statement that failed (a deadlock between replicas, a lost connection) must not leave claims of this lease behind
      await repo.update({ claimedBy: holder, claimedUntil }, { claimedBy: null, claimedUntil: 0 }).catch(() => undefined);
      throw error;
    }
    const got = new Set(mine.map((m) => `${m.tenantId}/${m.messageId}`));
    return targets.filter((t) => got.has(`${t.tenantId}/${t.messageId}`));
  }

  /** Gives a held message back, to be tried again from `nextAttemptTime` (0: at once). */
  async release(target: DeliveryTarget, holder: string, nextAttemptTime: number): Promise<void> {
    await this.dataSource
      .getRepository(MessageDelivery)
      .update(
        { channel: target.channel, tenantId: target.tenantId, messageId: target.messageId, claimedBy: holder },
        { claimedBy: null, claimedUntil: 0, nextAttemptTime },
      );
  }

  /** The message has its outcome (or is no longer PENDING): its bookkeeping goes. */
  async finish(target: DeliveryTarget, holder: string): Promise<void> {
    await this.dataSource
      .getRepository(MessageDelivery)
      .delete({ channel: target.channel, tenantId: target.tenantId, messageId: target.messageId, claimedBy: holder });
  }

  /**
   * ACROSS TENANTS by nature: drops the bookkeeping of messages that no longer wait (deleted, or set to
   * SENT/FAILED by hand while backing off, or done by a replica that died before it cleaned up), unless
   * a replica holds them right now. The table holds only messages in delivery, so this stays small.
   */
  async pruneAcrossTenants(now: number): Promise<void> {
    for (const channel of Object.keys(CHANNEL_TABLES) as DeliveryChannel[]) {
      const { entity, idField } = CHANNEL_TABLES[channel];
      const meta = this.dataSource.getMetadata(entity);
      const delivery = this.dataSource.getMetadata(MessageDelivery).tableName;
      const idColumn = meta.findColumnWithPropertyName(idField)!.databaseName;
      await this.dataSource
        .createQueryBuilder()
        .delete()
        .from(MessageDelivery)
        .where('channel = :channel AND claimed_until <= :now', { channel, now })
        .andWhere(
          `NOT EXISTS (SELECT 1 FROM ${meta.tableName} m WHERE m.tenant_id = ${delivery}.tenant_id AND m.${idColumn} = ${delivery}.message_id AND m.status = :pending AND m.delete_time = :live)`,
          { pending: 'PENDING', live: LIVE },
        )
        .execute();
    }
  }

  /** On shutdown: every claim of this replica is released for the others at once. */
  async releaseAll(holder: string): Promise<void> {
    await this.dataSource.getRepository(MessageDelivery).update({ claimedBy: holder }, { claimedBy: null, claimedUntil: 0 });
  }
}
