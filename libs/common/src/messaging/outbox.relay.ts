import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { MessageBus } from './message-bus';
import { OutboxMessage } from './outbox-message.entity';

const POLL_MS = 1000;
const BATCH = 100;
const MAX_BACKOFF_MS = 30_000;

/**
 * Publishes committed outbox rows in insertion order and marks them sent only after the bus has
 * them. A failure stops the pass (nothing behind it overtakes it) and is retried with backoff.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly bus: MessageBus,
  ) {}

  /** Stores a message in the caller's transaction; call `kick()` after commit. */
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
    });
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
    this.kick();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** Starts a relay pass now (or right after the current one). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((error: Error) => this.logger.warn(`outbox relay pass failed: ${error.name}`))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Number of rows not yet handed to the bus. */
  async backlog(): Promise<number> {
    return this.dataSource.getRepository(OutboxMessage).count({ where: { status: 'PENDING' } });
  }

  private async drain(): Promise<void> {
    const repo = this.dataSource.getRepository(OutboxMessage);
    while (!this.stopped) {
      const rows = await repo.find({ where: { status: 'PENDING' }, order: { seq: 'ASC' }, take: BATCH });
      if (!rows.length) return;
      for (const row of rows) {
        if (row.nextAttemptTime > Date.now()) return; // backing off: what is behind it waits too
        try {
          await this.bus.publish(row.topic, [{ key: row.messageKey, value: row.payload }]);
        } catch (error) {
          const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.min(row.attempts, 10));
          await repo.update({ seq: row.seq }, { attempts: row.attempts + 1, nextAttemptTime: Date.now() + delay });
          this.logger.warn(`publishing outbox row ${row.seq} to ${row.topic} failed (${(error as Error).name}); retry in ${delay} ms`);
          return;
        }
        await repo.update({ seq: row.seq }, { status: 'SENT', sentTime: Date.now() });
      }
    }
  }
}
