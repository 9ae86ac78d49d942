import { Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { WithExtra } from '../http/envelope';
import { ImportBatch } from '../messaging/import-batch.entity';
import { BusMessage, MessageBus } from '../messaging/message-bus';
import { OutboxRelay } from '../messaging/outbox.relay';
import { isDuplicateKeyError, isStorageUnavailableError } from '../persistence/db-errors';
import { newId } from '../persistence/ids';
import { BaseRecord } from '../persistence/base-record';
import { CrudService, requestScope } from './crud.service';
import { ImportOutcome } from './import-outcome';
import { validateRows } from './validate-rows';

/** Wire form of an import batch on the bus (key = tenant). */
export interface ImportPayload {
  tenantId: string;
  username: string;
  batchId: string;
  items: object[];
}

function parsePayload(value: string): ImportPayload | { batchId?: string; problem: string } {
  let parsed: Partial<ImportPayload>;
  try {
    parsed = JSON.parse(value);
  } catch {
    return { problem: 'payload is not JSON' };
  }
  const { tenantId, username, batchId, items } = parsed ?? {};
  const batch = typeof batchId === 'string' ? batchId : undefined;
  if (typeof tenantId !== 'string' || !tenantId || typeof username !== 'string' || !batch || !Array.isArray(items))
    return { batchId: batch, problem: 'payload lacks tenantId, username, batchId or items' };
  if (items.some((i) => i === null || typeof i !== 'object' || Array.isArray(i))) return { batchId: batch, problem: 'items must be objects' };
  return { tenantId, username, batchId: batch, items };
}

/**
 * Asynchronous importList: the request commits the batch to the outbox; the consumer applies it
 * once (the batch record makes redelivery harmless) and records rejected rows instead of blocking.
 */
export class AsyncImporter<E extends BaseRecord> {
  private readonly logger: Logger;

  constructor(
    private readonly crud: CrudService<E>,
    private readonly dataSource: DataSource,
    private readonly relay: OutboxRelay,
    private readonly bus: MessageBus,
  ) {
    this.logger = new Logger(`AsyncImporter ${this.topic}`);
  }

  get topic(): string {
    const topic = this.crud.resource.importTopic;
    if (!topic) throw new Error(`${this.crud.resource.path} has importList 'async' but no importTopic`);
    return topic;
  }

  async enqueue(items: object[]): Promise<WithExtra<true>> {
    const { tenantId, username } = requestScope();
    const batchId = newId();
    await this.dataSource.transaction(async (manager) => {
      await manager.insert(ImportBatch, {
        batchId, tenantId, topic: this.topic, createdUsername: username, status: 'PENDING', itemCount: items.length,
        appliedCount: 0, rejected: null, createdTime: Date.now(), finishedTime: null,
      });
      await this.relay.add(manager, this.topic, tenantId, { tenantId, username, batchId, items } satisfies ImportPayload);
    });
    this.relay.kick();
    return new WithExtra(true, { batchId, count: items.length });
  }

  subscribe(): Promise<void> {
    return this.bus.subscribe(this.topic, (message) => this.apply(message));
  }

  /** Applies one batch. Throws only for transient storage failures, so the transport redelivers. */
  async apply(message: BusMessage): Promise<void> {
    const payload = parsePayload(message.value);
    if ('problem' in payload) return this.recordPoison(payload.batchId, message.key, payload.problem);
    const { valid, errors } = await validateRows(this.crud.resource.saveDto, payload.items);
    try {
      const applied = await this.dataSource.transaction(async (manager) => {
        if (!(await this.claim(manager, payload))) return false; // already applied or failed: redelivery changes nothing
        const scope = { tenantId: payload.tenantId, username: payload.username };
        const result = await this.crud.upsertMany(manager, scope, valid.map((v) => v.row as Record<string, unknown>));
        await manager.update(ImportBatch, { batchId: payload.batchId }, {
          itemCount: payload.items.length, appliedCount: result.inserted + result.updated,
          rejected: errors.length ? JSON.stringify(errors) : null, finishedTime: Date.now(),
        });
        return true;
      });
      if (applied) this.crud.invalidate(payload.tenantId);
    } catch (error) {
      if (isStorageUnavailableError(error)) throw error;
      await this.recordPoison(payload.batchId, payload.tenantId, `batch could not be applied (${(error as Error).name})`);
    }
  }

  /**
   * Marks the batch APPLIED before its rows are written, in the same transaction: the row lock this
   * UPDATE takes makes a concurrent delivery of the same batch wait and then find it no longer PENDING.
   */
  private async claim(manager: EntityManager, payload: ImportPayload): Promise<boolean> {
    const { affected } = await manager.update(ImportBatch, { batchId: payload.batchId, status: 'PENDING' }, { status: 'APPLIED' });
    if (affected) return true;
    if (await manager.exists(ImportBatch, { where: { batchId: payload.batchId } })) return false;
    // a message without a request-side record (published elsewhere): it is recorded here
    await manager.insert(ImportBatch, {
      batchId: payload.batchId, tenantId: payload.tenantId, topic: this.topic, createdUsername: payload.username, status: 'APPLIED',
      itemCount: payload.items.length, appliedCount: 0, rejected: null, createdTime: Date.now(), finishedTime: null,
    });
    return true;
  }

  /** The caller's tenant's batch of this topic, or null. */
  async status(batchId: string): Promise<WithExtra<ImportOutcome | null>> {
    const { tenantId } = requestScope();
    const [batch, backlog] = await Promise.all([
      this.dataSource.getRepository(ImportBatch).findOne({ where: { batchId, tenantId, topic: this.topic } }),
      this.relay.backlog(this.topic),
    ]);
    return new WithExtra(batch ? ImportOutcome.of(batch) : null, { outboxBacklog: backlog });
  }

  /** Records an unusable message as FAILED (never over a batch that was applied) so the partition moves on. */
  private async recordPoison(batchId: string | undefined, tenantId: string, problem: string): Promise<void> {
    this.logger.warn(`skipping unusable import message${batchId ? ` ${batchId}` : ''}: ${problem}`);
    if (!batchId) return;
    const repo = this.dataSource.getRepository(ImportBatch);
    const failed = { status: 'FAILED' as const, appliedCount: 0, rejected: JSON.stringify([{ index: -1, error: problem }]), finishedTime: Date.now() };
    const { affected } = await repo.update({ batchId, status: 'PENDING' }, failed);
    if (affected || (await repo.exists({ where: { batchId } }))) return;
    try {
      await repo.insert({ batchId, tenantId, topic: this.topic, createdUsername: '', itemCount: 0, createdTime: Date.now(), ...failed });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error; // recorded concurrently
    }
  }
}
