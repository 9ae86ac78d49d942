import { EntityManager, FindOptionsWhere } from 'typeorm';
import { BaseRecord } from '../../persistence/base-record';
import { LIVE } from '../../persistence/columns';
import { newId } from '../../persistence/ids';
import { TenantScope } from '../../tenancy/tenant-scope';
import { multiRowUpdateById, runsOfSameFields, WRITE_CHUNK } from '../../persistence/sql/multi-row-sql';
import { changeRows } from '../../persistence/sql/run-statement';
import { TenantFilter } from './tenant-table';
import { RecordTable } from './record-table';
import { TimeSlice } from '../../background/time-slice';
import { LiveCounts } from './live-counts';
import { filterCountValue } from './filter-counts';
import { writeStamp } from '../../history/write-stamp';

type Row = Record<string, unknown>;

export interface BatchWriteOptions {
  manager?: EntityManager;
  /** Gives the event loop a turn between statements (only where the transaction may pause). */
  slice?: TimeSlice;
  now?: number;
}

/**
 * The way to a resource's live records: a RecordTable whose conditions also carry the live sentinel, and
 * whose writes stamp the server-owned columns (tenant, revision, created*, lastModified*, deleteTime).
 */
export class LiveRecordTable<E extends BaseRecord> extends RecordTable<E> {
  protected override servedRows(): FindOptionsWhere<E> {
    return { deleteTime: LIVE } as FindOptionsWhere<E>;
  }

  /** How many live records the scope's tenant has: kept by triggers (live-counts.ts), or counted where a table has none. */
  async countLive(scope: TenantScope, manager: EntityManager = this.dataSource.manager): Promise<number> {
    return (await this.counts().count(this.tableName(), scope.tenantId, manager)) ?? this.count(scope, {} as TenantFilter<E>, manager);
  }

  /**
   * How many live records of the scope's tenant match `filter` when it is one exact value of a column whose values
   * the triggers count (filter-counts.ts), read in `manager`'s snapshot; undefined for any other filter (several
   * fields, a range) or where the table's triggers do not count that column: those rows are counted.
   */
  async countByFilterCount(
    scope: TenantScope,
    filter: TenantFilter<E>,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<number | undefined> {
    const conditions = Object.entries(filter);
    if (conditions.length !== 1) return undefined;
    const [property, value] = conditions[0];
    const column = this.dataSource.getMetadata(this.entity).findColumnWithPropertyName(property);
    const text = column && filterCountValue(column, value);
    if (text === undefined) return undefined;
    return this.counts().filterCount(this.tableName(), scope.tenantId, column!.databaseName, text, manager);
  }

  /**
   * Each tenant's write version of the table (live-count-sql.ts), in the order given: read in `manager`'s snapshot,
   * or, without one, by a read that concurrent callers share. Undefined where the table's writes are not counted.
   */
  versions(tenantIds: string[], manager?: EntityManager): Promise<string[] | undefined> {
    return manager ? this.counts().versionsIn(manager, this.tableName(), tenantIds) : this.counts().versionsOf(this.tableName(), tenantIds);
  }

  private counts(): LiveCounts {
    return LiveCounts.of(this.dataSource);
  }

  /** New records of the scope's tenant (identifier given or generated) in multi-row INSERTs. */
  async insertRecords(
    scope: TenantScope,
    rows: Row[],
    { manager = this.dataSource.manager, slice, now = Date.now() }: BatchWriteOptions = {},
  ): Promise<void> {
    // the identifier is given or generated for each row: it does not split runs
    await this.insertInRuns(manager, rows, (row) => this.stamped(scope, row, now), { slice, besides: this.idField });
  }

  /**
   * Updates of live records of the scope's tenant by identifier, in multi-row upserts. One statement sets
   * the same columns on each of its rows (an omitted field keeps its value), so only consecutive rows that
   * give the same fields share one; runs stay in the given order, so the last of repeated rows wins.
   */
  async updateRecordsById(
    scope: TenantScope,
    rows: Row[],
    { manager = this.dataSource.manager, slice, now = Date.now() }: BatchWriteOptions = {},
  ): Promise<void> {
    for (const run of runsOfSameFields(rows, WRITE_CHUNK)) {
      const fields = Object.keys(run[0]).filter((f) => f !== this.idField);
      const records = run.map((row) => this.stamped(scope, row, now));
      const [sql, parameters] = multiRowUpdateById(manager, this.entity, this.idField, records, fields);
      await changeRows(manager, sql, parameters, 'once');
      await slice?.pause();
    }
  }

  /**
   * Sets the changes on the matching live records, with revision + 1 and lastModified* stamped (at `now`,
   * for a change that stores the same moment elsewhere); returns how many changed.
   */
  updateRecords(scope: TenantScope, filter: TenantFilter<E>, changes: Row, manager?: EntityManager, now = Date.now()): Promise<number> {
    const stamp = { revision: () => 'revision + 1', lastModifiedUsername: scope.username, lastModifiedTime: now, ...writeStamp(scope) };
    return this.updateColumns(scope, filter, { ...changes, ...stamp } as never, manager);
  }

  /** Logical deletion: deleteTime (and lastModified*) set on the matching live records; returns how many. */
  softDelete(scope: TenantScope, filter: TenantFilter<E>): Promise<number> {
    const now = Date.now();
    const stamp = { deleteTime: now, lastModifiedTime: now, lastModifiedUsername: scope.username, ...writeStamp(scope) };
    return this.updateColumns(scope, filter, stamp as never);
  }

  /** A new record: the row's columns and the server-owned ones. */
  private stamped(scope: TenantScope, columns: Row, now: number): Row {
    return {
      ...columns,
      [this.idField]: columns[this.idField] ?? newId(),
      tenantId: scope.tenantId,
      revision: 1,
      createdUsername: scope.username,
      createdTime: now,
      lastModifiedUsername: scope.username,
      lastModifiedTime: now,
      deleteTime: LIVE,
      ...writeStamp(scope),
    };
  }
}
