import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource, EntityManager, In, LessThan } from 'typeorm';
import { CoalescingLoop } from '../background/coalescing-loop';
import { Lease } from '../background/lease';
import { currentTraceCarrier, outsideAnyTrace } from '../tracing/trace-context';
import { MessageBus } from './message-bus';
import { OutboxLease } from './outbox-lease.entity';
import { OutboxMessage } from './outbox-message.entity';

const POLL_MS = 1000;
const BATCH = 100;
/** Rows handed to the bus in one publish: few round trips, yet well under the broker's request limit. */
const GROUP_BYTES = 8 * 1024 * 1024;
const MAX_BACKOFF_MS = 30_000;
/** Long enough to cover a publish that the bus bounds by its own timeouts; renewed before every publish. */
const LEASE_MS = 15_000;
const LEASE_NAME = 'outbox-relay';
/** Sent rows are kept a day for inspection, then deleted (a batch payload can be megabytes). */
const SENT_RETENTION_MS = 24 * 3600_000;
const PRUNE_EVERY_MS = 10 * 60_000;
/**
 * Sent rows one prune deletes, oldest first: each statement stays far inside DB_STATEMENT_TIMEOUT_MS however many
 * are due (after a long backlog, the rows of days). A full batch leaves the next idle pass to go on.
 */
export const PRUNE_ROWS = 100;

/**
 * Publishes committed outbox rows in insertion order and marks them sent only after the bus has
 * them. A failure stops the pass (nothing behind it overtakes it) and is retried with backoff.
 * Among replicas sharing a database only the holder of the relay lease publishes (see docs/messaging.md).
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  /** Who relays among the replicas sharing the database. */
  private readonly lease: Lease;
  private readonly loop = new CoalescingLoop(
    () => outsideAnyTrace(() => this.drain()),
    (error) => this.logger.warn(`outbox relay pass failed: ${error.name}`),
  );
  private lastPrune = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly bus: MessageBus,
  ) {
    this.lease = new Lease(dataSource, LEASE_NAME, undefined, OutboxLease);
  }

  /** Stores a message in the caller's transaction, with the caller's trace to continue; call `kick()` after commit. */
  async add(manager: EntityManager, topic: string, key: string, payload: unknown): Promise<void> {
    await manager.insert(OutboxMessage, {
      topic,
      messageKey: key,
      payload: JSON.stringify(payload),
      status: 'PENDING',
      attempts: 0,
      nextAttemptTime: 0,
      createdTime: Date.now(),
      sentTime: null,
      traceContext: currentTraceCarrier(),
    });
  }

  onApplicationBootstrap(): void {
    this.loop.start(POLL_MS);
  }

  /** Before the data source closes: finish the pass in hand, hand the lease on, then close the bus. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
    await this.lease.release().catch(() => undefined);
    await this.bus.close();
  }

  /** Starts a relay pass now (or right after the current one). */
  kick(): void {
    this.loop.kick();
  }

  /** Number of rows not yet handed to the bus: all, of one topic, or of one topic and key (a tenant's). */
  async backlog(topic?: string, key?: string): Promise<number> {
    const where = { status: 'PENDING' as const, ...(topic ? { topic } : {}), ...(topic && key !== undefined ? { messageKey: key } : {}) };
    return this.dataSource.getRepository(OutboxMessage).count({ where });
  }

  private async drain(): Promise<void> {
    const repo = this.dataSource.getRepository(OutboxMessage);
    while (!this.loop.stopped) {
      if (!(await this.lease.claim(Date.now() + LEASE_MS))) return; // another replica relays
      const rows = await repo.find({ where: { status: 'PENDING' }, order: { seq: 'ASC' }, take: BATCH });
      if (!rows.length) return this.prune();
      const group = this.leadingGroup(rows);
      if (!group.length) return; // the oldest row is backing off: what is behind it waits too
      const head = group[0];
      try {
        await this.bus.publish(
          head.topic,
          group.map((row) => ({ key: row.messageKey, value: row.payload, traceContext: row.traceContext })),
        );
      } catch (error) {
        const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.min(head.attempts, 10));
        await repo.update({ seq: head.seq }, { attempts: head.attempts + 1, nextAttemptTime: Date.now() + delay });
        this.logger.warn(
          `publishing outbox rows ${head.seq}..${group[group.length - 1].seq} to ${head.topic} failed (${(error as Error).name}); retry in ${delay} ms`,
        );
        return;
      }
      await repo.update({ seq: In(group.map((row) => row.seq)) }, { status: 'SENT', sentTime: Date.now() });
    }
  }

  /** The oldest rows that may go out together: due, same topic, in order, bounded in bytes. */
  private leadingGroup(rows: OutboxMessage[]): OutboxMessage[] {
    const now = Date.now();
    const group: OutboxMessage[] = [];
    let bytes = 0;
    for (const row of rows) {
      if (row.nextAttemptTime > now || row.topic !== rows[0].topic) break;
      if (group.length && bytes + row.payload.length > GROUP_BYTES) break;
      group.push(row);
      bytes += row.payload.length;
    }
    return group;
  }

  /**
   * Deletes sent rows older than SENT_RETENTION_MS, at most PRUNE_ROWS at a time by primary key: every PRUNE_EVERY_MS,
   * and at the next idle pass again while batches come back full.
   */
  private async prune(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    const repo = this.dataSource.getRepository(OutboxMessage);
    const due = await repo.find({
      select: { seq: true },
      where: { status: 'SENT', sentTime: LessThan(now - SENT_RETENTION_MS) },
      order: { seq: 'ASC' },
      take: PRUNE_ROWS,
    });
    if (!due.length) return;
    await repo.delete({ seq: In(due.map((row) => row.seq)) });
    if (due.length === PRUNE_ROWS) this.lastPrune = 0; // more may be due
  }
}
