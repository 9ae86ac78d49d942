import { DataSource, EntityManager, In } from 'typeorm';
import { WithExtra } from '../../http/envelope';
import { BaseRecord } from '../../persistence/base-record';
import { newId } from '../../persistence/ids';
import { TenantScope } from '../../tenancy/tenant-scope';
import { refusingDuplicates } from '../tables/duplicate-key';
import { exclusiveTransaction, mayPauseInTransaction } from '../tables/exclusive-transaction';
import { LiveRecordTable } from '../tables/live-record-table';
import { RecordColumns } from '../tables/record-columns';
import { Resource } from '../fields/resource';
import { TenantFilter } from '../tables/tenant-table';
import { TimeSlice } from '../../background/time-slice';
import { WriteRecorder } from './write-recorder';

type Row = Record<string, unknown>;

export interface UpsertResult {
  inserted: number;
  updated: number;
}

/** A row of an upsert: its uniqueness key and column values, the client's identifier apart. */
interface UpsertRow {
  id?: string;
  key: Row;
  keyText: string;
  columns: Row;
}

/** Keys looked up per query by upsertMany. */
const KEY_LOOKUP_CHUNK = 500;

/**
 * Writes of many rows in one transaction: inserts of a whole batch and upserts by the uniqueness key
 * (importList, the import consumer). Rows are mapped first, so a transaction holds its locks only
 * while it writes; long batches give the event loop turns (see exclusive-transaction.ts for SQLite).
 */
export class BatchWrites<E extends BaseRecord> {
  constructor(
    private readonly resource: Resource<E>,
    private readonly table: LiveRecordTable<E>,
    private readonly columns: RecordColumns<E>,
    private readonly writes: WriteRecorder<E>,
    private readonly dataSource: DataSource,
  ) {}

  /** Synchronous importList: upsert by key, all or nothing. */
  async importRows(scope: TenantScope, rows: object[]): Promise<WithExtra<true>> {
    const result = await this.upsertInTransaction(scope, rows as Row[]);
    return new WithExtra(true, { count: rows.length, ...result });
  }

  /** Inserts every row in one transaction; the first duplicate refuses the whole batch. */
  async insertAll(scope: TenantScope, rows: object[]): Promise<true> {
    const records = await this.columns.ofEach(rows as Row[], new TimeSlice());
    const written = this.writeTransaction((manager) => this.table.insertRecords(scope, records, { manager, slice: this.pauses() }));
    await this.writes.afterWrite(scope, refusingDuplicates(this.resource, written));
    return true;
  }

  /** Upsert by key in one transaction. */
  async upsertInTransaction(scope: TenantScope, rows: Row[]): Promise<UpsertResult> {
    const prepared = await this.prepareUpsert(rows, new TimeSlice());
    const written = this.writeTransaction((manager) => this.writeUpsert(manager, scope, prepared, this.pauses()));
    return this.writes.afterWrite(scope, refusingDuplicates(this.resource, written));
  }

  /**
   * A transaction whose chunked writes give the event loop a turn between statements; on SQLite it is
   * exclusive while open (see exclusive-transaction.ts).
   */
  writeTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return exclusiveTransaction(this.dataSource, work);
  }

  /**
   * Upsert by the uniqueness key inside the caller's transaction (the import consumer). The live ids of
   * the batch's keys come from a few queries (not one per row); new keys go in multi-row INSERTs, existing
   * ones in multi-row upserts by identifier; a key repeated in the batch is inserted once and then updated,
   * as it would be row by row. Pauses between statements only inside writeTransaction (or off SQLite).
   * The caller records the write once its transaction has committed (CrudService.writes.recordWrite).
   */
  async upsertMany(manager: EntityManager, scope: TenantScope, rows: Row[]): Promise<UpsertResult> {
    const slice = this.pauses();
    return this.writeUpsert(manager, scope, await this.prepareUpsert(rows, slice), slice);
  }

  /** A time slice where the current transaction may give the event loop a turn, else none. */
  private pauses(): TimeSlice | undefined {
    return mayPauseInTransaction(this.dataSource) ? new TimeSlice() : undefined;
  }

  /** Each row's key and column values (the client's identifier, if any, kept apart). */
  private async prepareUpsert(rows: Row[], slice?: TimeSlice): Promise<UpsertRow[]> {
    this.columns.requireUniqueKey();
    const prepared: UpsertRow[] = [];
    for (const row of rows) {
      const { [this.resource.idField]: id, ...fields } = row;
      prepared.push({
        id: id as string | undefined,
        key: this.columns.keyOf(row),
        keyText: this.columns.keyText(row),
        columns: await this.columns.of(fields),
      });
      await slice?.pause();
    }
    return prepared;
  }

  private async writeUpsert(manager: EntityManager, scope: TenantScope, rows: UpsertRow[], slice?: TimeSlice): Promise<UpsertResult> {
    const idField = this.resource.idField;
    const ids = await this.liveIdsByKey(manager, scope, rows, slice);
    const inserts: Row[] = [];
    const updates: Row[] = [];
    for (const row of rows) {
      const existing = ids.get(row.keyText);
      if (existing !== undefined) {
        updates.push({ ...row.columns, [idField]: existing });
      } else {
        const id = row.id ?? newId();
        inserts.push({ ...row.columns, [idField]: id });
        ids.set(row.keyText, id);
      }
      await slice?.pause();
    }
    const now = Date.now();
    // new keys first (a key repeated in the batch is then updated, in batch order)
    await this.table.insertRecords(scope, inserts, { manager, now, slice });
    await this.table.updateRecordsById(scope, updates, { manager, now, slice });
    return { inserted: inserts.length, updated: updates.length };
  }

  /**
   * Identifier of each live record of the scope whose uniqueness key occurs in the rows, by key text.
   * Per chunk of keys one query with an IN list per key field (a superset of the keys, served by the
   * unique index); the exact keys are matched here.
   */
  private async liveIdsByKey(
    manager: EntityManager,
    scope: TenantScope,
    rows: UpsertRow[],
    slice?: TimeSlice,
  ): Promise<Map<string, string>> {
    const idField = this.resource.idField;
    const fields: string[] = this.columns.requireUniqueKey();
    const keys = [...new Map(rows.map((row) => [row.keyText, row.key])).entries()];
    const select = Object.fromEntries([idField, ...fields].map((f) => [f, true]));
    const ids = new Map<string, string>();
    for (let i = 0; i < keys.length; i += KEY_LOOKUP_CHUNK) {
      const chunk = keys.slice(i, i + KEY_LOOKUP_CHUNK);
      const wanted = new Set(chunk.map(([text]) => text));
      const filter = Object.fromEntries(fields.map((f) => [f, In([...new Set(chunk.map(([, key]) => key[f]))])])) as TenantFilter<E>;
      for (const found of await this.table.find(scope, filter, { select: select as never, manager })) {
        const text = this.columns.keyText(found);
        if (wanted.has(text)) ids.set(text, found[idField] as unknown as string);
      }
      await slice?.pause();
    }
    return ids;
  }
}
