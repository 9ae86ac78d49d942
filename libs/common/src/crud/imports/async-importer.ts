import { Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { WithExtra } from '../../http/envelope';
import { ImportBatch } from '../../messaging/import-batch.entity';
import { importDigest } from '../../messaging/import-digest';
import { ClaimedImport, ImportRejectionLog } from '../../messaging/import-rejections';
import { ImportClaim, importMismatch } from '../../messaging/import-verification';
import { BusMessage, MessageBus } from '../../messaging/message-bus';
import { OutboxRelay } from '../../messaging/outbox.relay';
import { isStorageUnavailableError } from '../../persistence/db-errors';
import { newId } from '../../persistence/ids';
import { retryingConflicts } from '../../persistence/conflict-retry';
import { BaseRecord } from '../../persistence/base-record';
import { TenantScope } from '../../tenancy/tenant-scope';
import { CrudService } from '../service/crud.service';
import { ImportOutcome } from './import-outcome';
import { TenantTable } from '../tables/tenant-table';
import { validateRows } from '../fields/validate-rows';
import { asyncImportTopic } from '../fields/import-list';

/** Wire form of an import batch on the bus (key = tenant). */
export type ImportPayload = ImportClaim;

type Unreadable = { problem: string; claimed: ClaimedImport };

function parsePayload(value: string): ImportPayload | Unreadable {
  let parsed: Partial<ImportPayload> | null;
  try {
    parsed = JSON.parse(value);
  } catch {
    return { problem: 'payload is not JSON', claimed: {} };
  }
  const { tenantId, username, batchId, items } = parsed && typeof parsed === 'object' ? parsed : ({} as Partial<ImportPayload>);
  const claimed = { batchId, tenantId };
  if (
    typeof tenantId !== 'string' ||
    !tenantId ||
    typeof username !== 'string' ||
    typeof batchId !== 'string' ||
    !batchId ||
    !Array.isArray(items)
  )
    return { problem: 'payload lacks tenantId, username, batchId or items', claimed };
  if (items.some((i) => i === null || typeof i !== 'object' || Array.isArray(i))) return { problem: 'items must be objects', claimed };
  return { tenantId, username, batchId, items };
}

/**
 * Asynchronous importList: the request commits the batch (with its items' digest) to the outbox; the
 * consumer applies a message only if it is a batch the API created, once (the batch record makes
 * redelivery harmless), and records rejected rows instead of blocking. Messages that match no batch
 * are refused and recorded apart (ImportRejectionLog), never on a batch.
 */
export class AsyncImporter<E extends BaseRecord> {
  private readonly logger: Logger;
  private readonly rejections: ImportRejectionLog;
  /** The batches as their tenants see them (the consumer reads a batch by id first, to learn its tenant). */
  private readonly batches: TenantTable<ImportBatch>;

  constructor(
    private readonly crud: CrudService<E>,
    private readonly dataSource: DataSource,
    private readonly relay: OutboxRelay,
    private readonly bus: MessageBus,
  ) {
    this.logger = new Logger(`AsyncImporter ${this.topic}`);
    this.rejections = new ImportRejectionLog(dataSource);
    this.batches = new TenantTable(ImportBatch, dataSource);
  }

  get topic(): string {
    const topic = asyncImportTopic(this.crud.resource);
    if (!topic) throw new Error(`${this.crud.resource.path} has no asynchronous importList`);
    return topic;
  }

  async enqueue(items: object[]): Promise<WithExtra<true>> {
    const { tenantId, username } = TenantScope.current();
    const batchId = newId();
    const payloadDigest = importDigest(items);
    await retryingConflicts(() =>
      this.dataSource.transaction(async (manager) => {
        await manager.insert(ImportBatch, {
          batchId,
          tenantId,
          topic: this.topic,
          createdUsername: username,
          status: 'PENDING',
          itemCount: items.length,
          appliedCount: 0,
          rejected: null,
          payloadDigest,
          createdTime: Date.now(),
          finishedTime: null,
        });
        await this.relay.add(manager, this.topic, tenantId, { tenantId, username, batchId, items } satisfies ImportPayload);
      }),
    );
    this.relay.kick();
    return new WithExtra(true, { batchId, count: items.length });
  }

  subscribe(): Promise<void> {
    return this.bus.subscribe(this.topic, (message) => this.apply(message));
  }

  /**
   * Applies one message if it is a batch the API created (see importMismatch), in the batch's own tenant
   * and user. Throws only for transient storage failures, so the transport redelivers.
   */
  async apply(message: BusMessage): Promise<void> {
    const payload = parsePayload(message.value);
    if ('problem' in payload) return this.rejections.record(this.topic, message.key, payload.claimed, payload.problem);
    const batch = await this.dataSource.getRepository(ImportBatch).findOneBy({ batchId: payload.batchId });
    const mismatch = importMismatch(batch, payload, message.key, this.topic);
    if (mismatch || !batch) return this.rejections.record(this.topic, message.key, payload, mismatch ?? 'unknown batch');
    if (batch.status !== 'PENDING') return; // a redelivery of a batch already applied (or failed): changes nothing
    const { valid, errors } = await validateRows(this.crud.resource.saveDto, payload.items);
    try {
      // the batch's own tenant and user, stored when the API accepted it from a verified token
      const scope = TenantScope.system('applying a verified import batch', batch.tenantId, batch.createdUsername, 'import');
      // recorded once written: every replica's listCache and page totals see the rows (the consumer may run in any replica)
      await this.crud.upsertClaimed(
        valid.map((v) => v.row as Record<string, unknown>),
        {
          claim: (manager) => this.claim(manager, batch), // false: applied concurrently (a rebalance), nothing to do
          finish: async (manager, result) => {
            await manager.update(
              ImportBatch,
              { batchId: batch.batchId },
              {
                appliedCount: result.inserted + result.updated,
                rejected: errors.length ? JSON.stringify(errors) : null,
                finishedTime: Date.now(),
              },
            );
          },
        },
        scope,
      );
    } catch (error) {
      if (isStorageUnavailableError(error)) throw error;
      await this.recordFailed(batch.batchId, `batch could not be applied (${(error as Error).name})`);
    }
  }

  /**
   * Marks the batch APPLIED before its rows are written, in the same transaction: the row lock this
   * UPDATE takes makes a concurrent delivery of the same batch wait and then find it no longer PENDING.
   */
  private async claim(manager: EntityManager, batch: ImportBatch): Promise<boolean> {
    const { affected } = await manager.update(ImportBatch, { batchId: batch.batchId, status: 'PENDING' }, { status: 'APPLIED' });
    return !!affected;
  }

  /** The caller's tenant's batch of this topic, or null, and the caller's tenant's batches not yet relayed. */
  async status(batchId: string): Promise<WithExtra<ImportOutcome | null>> {
    const scope = TenantScope.current();
    const [batch, backlog] = await Promise.all([
      this.batches.findOne(scope, { batchId, topic: this.topic }),
      this.relay.backlog(this.topic, scope.tenantId),
    ]);
    return new WithExtra(batch ? ImportOutcome.of(batch) : null, { outboxBacklog: backlog });
  }

  /** Records a verified batch that cannot be applied as FAILED (never over one that was applied) so the partition moves on. */
  private async recordFailed(batchId: string, problem: string): Promise<void> {
    this.logger.warn(`import batch ${batchId} failed: ${problem}`);
    const failed = {
      status: 'FAILED' as const,
      appliedCount: 0,
      rejected: JSON.stringify([{ index: -1, error: problem }]),
      finishedTime: Date.now(),
    };
    await this.dataSource.getRepository(ImportBatch).update({ batchId, status: 'PENDING' }, failed);
  }
}
