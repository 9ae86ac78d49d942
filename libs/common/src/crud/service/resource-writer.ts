import { DataSource, EntityManager, FindOptionsSelect, In } from 'typeorm';
import { TimeSlice } from '../../background/time-slice';
import { WithExtra } from '../../http/envelope';
import { exclusiveTransaction, mayPauseInTransaction } from '../tables/exclusive-transaction';
import { KeyedUpsert, UpsertClaim } from './keyed-upsert';
import { AppException } from '../../http/app-exception';
import { BodyStatus } from '../../http/body-status';
import { BaseRecord } from '../../persistence/base-record';
import { isDuplicateKeyError } from '../../persistence/db-errors';
import { TenantScope } from '../../tenancy/tenant-scope';
import { refusingDuplicates, retryingConcurrentTwins } from '../tables/duplicate-key';
import { retryingConflicts } from '../../persistence/conflict-retry';
import { LiveRecordTable } from '../tables/live-record-table';
import { RecordColumns } from '../tables/record-columns';
import { Resource } from '../fields/resource';
import { TenantFilter } from '../tables/tenant-table';
import { Message, message } from '../../i18n/message';

type Row = Record<string, unknown>;

/** The `error` of a stale `revision` (also the text of the documented 409 example); the title is translated too. */
export function staleRevisionMessage(title: string, revision: unknown): Message {
  return message('{{resource}} was changed by someone else: revision {{revision}} is stale', {
    resource: message(title),
    revision: String(revision),
  });
}

/**
 * The writes of a resource's records in a scope: single records, and batches in one transaction (saveBatch's
 * inserts, the upserts by business key of importList and the import consumer), whose rows are mapped before
 * the transaction and which give the event loop turns. A unique-index violation becomes the resource's 422.
 * Nothing is recorded after a write: the table's triggers raise the tenant's write version within it.
 */
export class ResourceWriter<E extends BaseRecord> {
  private readonly upserts: KeyedUpsert<E>;

  constructor(
    private readonly resource: Resource<E>,
    private readonly table: LiveRecordTable<E>,
    private readonly columns: RecordColumns<E>,
    private readonly dataSource: DataSource,
  ) {
    this.upserts = new KeyedUpsert(resource, table, columns);
  }

  async save(scope: TenantScope, dto: object): Promise<true> {
    await this.resource.checkWrite?.(scope, dto as Row, this.dataSource);
    await refusingDuplicates(
      this.resource,
      retryingConflicts(() => this.insert(scope, dto as Row)),
    );
    return true;
  }

  /** false when no live record of the scope has the id; a `revision` that is not the stored one is a 409. */
  async updateById(scope: TenantScope, dto: object): Promise<boolean> {
    const { [this.resource.idField]: id, revision, ...changes } = dto as Row;
    const match = { [this.resource.idField]: id, ...(revision === undefined ? {} : { revision }) } as TenantFilter<E>;
    if (this.resource.checkWrite) {
      // the record as it would be, read without a lock: a rule that must hold against racing writes is checked again where it matters
      const stored = await this.table.findOne(scope, match);
      const changed = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
      if (stored) await this.resource.checkWrite(scope, { ...stored, ...changed }, this.dataSource);
    }
    if ((await refusingDuplicates(this.resource, this.update(scope, match, changes))) > 0) return true;
    if (revision !== undefined && (await this.table.exists(scope, { [this.resource.idField]: id } as TenantFilter<E>)))
      throw this.stale(revision);
    return false;
  }

  /**
   * Sets the changes on every live record of the scope whose fields equal `match` (e.g. a user's unread
   * rows); server columns are stamped as by updateById. Returns how many records changed.
   */
  updateMatching(scope: TenantScope, match: Row, changes: Row): Promise<number> {
    return refusingDuplicates(this.resource, this.update(scope, match as TenantFilter<E>, changes));
  }

  /** Logical deletion; true when at least one of the ids was a live record of the scope. */
  async removeByIds(scope: TenantScope, ids: string[]): Promise<boolean> {
    const removed = retryingConflicts(() => this.table.softDelete(scope, { [this.resource.idField]: In(ids) } as TenantFilter<E>));
    return (await refusingDuplicates(this.resource, removed)) > 0;
  }

  /**
   * With the id of a live record of the scope: updateById. Otherwise the live record with the body's
   * business key is updated, or a new one created (keeping a client id, as save does). A `revision` must
   * match wherever a record is updated (else 409) and is ignored on create. checkWrite sees the body.
   */
  async saveOrUpdate(scope: TenantScope, dto: object): Promise<true> {
    this.columns.requireUniqueKey();
    const idField = this.resource.idField;
    const { [idField]: id, revision, ...fields } = dto as Row;
    if (id !== undefined && (await this.updateById(scope, { ...fields, [idField]: id, revision }))) return true;
    // no live record of the scope has that id (none given, another tenant's, a deleted one's): by key
    const key = this.columns.keyOf(fields) as TenantFilter<E>;
    const created = id === undefined ? fields : { ...fields, [idField]: id };
    await this.resource.checkWrite?.(scope, created, this.dataSource);
    await refusingDuplicates(
      this.resource,
      // a concurrent saveOrUpdate of the same new key inserts it first: the next run finds and updates it
      retryingConcurrentTwins(() =>
        this.dataSource.transaction(async (manager) => {
          const select = { [idField]: true, revision: true } as FindOptionsSelect<E>;
          const existing = await this.table.findOne(scope, key, { select, manager });
          // the primary key is (tenant, id): a client id of another tenant can neither collide nor reach its record
          if (!existing) return this.insert(scope, created, manager);
          if (revision !== undefined && existing.revision !== revision) throw this.stale(revision);
          const match = { [idField]: existing[idField], ...(revision === undefined ? {} : { revision }) } as TenantFilter<E>;
          if ((await this.update(scope, match, fields, manager)) === 0 && revision !== undefined) throw this.stale(revision);
        }),
      ),
    );
    return true;
  }

  /** Saves the row unless a live record of the scope has its business key; never overwrites. True when saved. */
  async saveIfAbsent(scope: TenantScope, row: Row): Promise<boolean> {
    if (await this.table.exists(scope, this.columns.keyOf(row) as TenantFilter<E>)) return false;
    try {
      await retryingConflicts(() => this.insert(scope, row));
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false; // a concurrent save of the same key won
      throw error;
    }
  }

  /** Synchronous importList: upsert by key, all or nothing. */
  async importRows(scope: TenantScope, rows: object[]): Promise<WithExtra<true>> {
    const prepared = await this.upserts.prepare(rows as Row[], new TimeSlice());
    const written = this.upsertTransaction((manager) => this.upserts.write(manager, scope, prepared, this.pauses()));
    const result = await refusingDuplicates(this.resource, written);
    return new WithExtra(true, { count: rows.length, ...result });
  }

  /** Inserts every row in one transaction; the first duplicate refuses the whole batch. */
  async saveBatch(scope: TenantScope, rows: object[]): Promise<true> {
    const records = await this.columns.ofEach(rows as Row[], new TimeSlice());
    const written = this.batchTransaction((manager) => this.table.insertRecords(scope, records, { manager, slice: this.pauses() }));
    await refusingDuplicates(this.resource, written);
    return true;
  }

  /** Upsert by key between the steps' claim and finish, in one transaction. */
  async upsertClaimed(scope: TenantScope, rows: Row[], steps: UpsertClaim): Promise<boolean> {
    const prepared = await this.upserts.prepare(rows, new TimeSlice());
    return this.upsertTransaction(async (manager) => {
      if (!(await steps.claim(manager))) return false;
      await steps.finish(manager, await this.upserts.write(manager, scope, prepared, this.pauses()));
      return true;
    });
  }

  /**
   * On SQLite the transaction is exclusive while open, so its writes may pause (see exclusive-transaction.ts).
   * Run again whole when it lost a race (retryingConflicts); the upserts' transaction also on a concurrent twin.
   */
  private batchTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return retryingConflicts(() => exclusiveTransaction(this.dataSource, work));
  }

  /** A transaction of upserts by key: run again when it meets a concurrent twin (retryingConcurrentTwins). */
  private upsertTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return retryingConcurrentTwins(() => exclusiveTransaction(this.dataSource, work));
  }

  /** A time slice where the current transaction may give the event loop a turn, else none. */
  private pauses(): TimeSlice | undefined {
    return mayPauseInTransaction(this.dataSource) ? new TimeSlice() : undefined;
  }

  private async insert(scope: TenantScope, dto: Row, manager?: EntityManager): Promise<void> {
    await this.table.insertRecords(scope, [await this.columns.of(dto)], { manager });
  }

  /**
   * Sets a write body's columns on the matching live records, stamped; returns how many changed. Alone (no manager) it
   * is its own autocommit write, run again when it lost a race; inside a transaction the transaction's runner decides.
   */
  private async update(scope: TenantScope, match: TenantFilter<E>, changes: Row, manager?: EntityManager): Promise<number> {
    const values = await this.columns.of(changes);
    if (manager) return this.table.updateRecords(scope, match, values, manager);
    return retryingConflicts(() => this.table.updateRecords(scope, match, values));
  }

  private stale(revision: unknown): AppException {
    return new AppException(BodyStatus.STALE_REVISION, staleRevisionMessage(this.resource.title, revision));
  }
}
