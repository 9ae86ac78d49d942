import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WithExtra } from '../http/envelope';
import { ImportBatch } from '../messaging/import-batch.entity';
import { BusMessage, MessageBus } from '../messaging/message-bus';
import { OutboxRelay } from '../messaging/outbox.relay';
import { isStorageUnavailableError } from '../persistence/db-errors';
import { newId } from '../persistence/ids';
import { BaseRecord } from '../persistence/base-record';
import { CrudService, requestScope } from './crud.service';
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
      await this.dataSource.transaction(async (manager) => {
        const batch = await manager.findOne(ImportBatch, { where: { batchId: payload.batchId } });
        if (batch && batch.status !== 'PENDING') return; // already applied or failed: redelivery changes nothing
        const scope = { tenantId: payload.tenantId, username: payload.username };
        const result = await this.crud.upsertMany(manager, scope, valid.map((v) => v.row as Record<string, unknown>));
        await manager.save(ImportBatch, {
          ...(batch ?? { batchId: payload.batchId, tenantId: payload.tenantId, topic: this.topic, createdUsername: payload.username, createdTime: Date.now() }),
          status: 'APPLIED', itemCount: payload.items.length, appliedCount: result.inserted + result.updated,
          rejected: errors.length ? JSON.stringify(errors) : null, finishedTime: Date.now(),
        });
      });
      this.crud.invalidate(payload.tenantId);
    } catch (error) {
      if (isStorageUnavailableError(error)) throw error;
      await this.recordPoison(payload.batchId, payload.tenantId, `batch could not be applied (${(error as Error).name})`);
    }
  }

  private async recordPoison(batchId: string | undefined, tenantId: string, problem: string): Promise<void> {
    this.logger.warn(`skipping unusable import message${batchId ? ` ${batchId}` : ''}: ${problem}`);
    if (!batchId) return;
    await this.dataSource.getRepository(ImportBatch).save({
      batchId, tenantId, topic: this.topic, createdUsername: '', status: 'FAILED', itemCount: 0, appliedCount: 0,
      rejected: JSON.stringify([{ index: -1, error: problem }]), createdTime: Date.now(), finishedTime: Date.now(),
    });
  }
}
