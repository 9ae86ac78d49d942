import { DataSource, EntityManager, EntityTarget } from 'typeorm';
import { BaseRecord } from '../../persistence/base-record';
import { TenantScope } from '../../tenancy/tenant-scope';
import { PageWindow, SortOrder } from './page-window';
import { readSnapshot } from './read-snapshot';
import { TenantFilter, TenantTable } from './tenant-table';

/**
 * A resource's records by identifier, in one of their states (servedRows): live (LiveRecordTable) or logically
 * deleted (DeletedRecordTable). Both page the same way and read an answer's statements in one snapshot.
 */
export abstract class RecordTable<E extends BaseRecord> extends TenantTable<E> {
  constructor(
    entity: EntityTarget<E>,
    readonly idField: keyof E & string,
    dataSource: DataSource,
  ) {
    super(entity, dataSource);
  }

  /** Reads that make one answer, in one read view (read-snapshot.ts): pass the manager to each of them. */
  snapshot<T>(reads: (manager: EntityManager) => Promise<T>): Promise<T> {
    return readSnapshot(this.dataSource, reads);
  }

  /**
   * The page of matching records in `order` that `window` describes, in `order`. A deferred join, in one
   * statement: the skipped rows are passed over on an index by their keys alone, and only the page's rows are read.
   * A first window's statement is built once per shape (PreparedFinds.findPage) where its conditions allow.
   * `index`: the one index to read the keys on, where the optimiser must not choose (deferred-join.ts).
   */
  findPage(
    scope: TenantScope,
    filter: TenantFilter<E>,
    order: SortOrder,
    window: PageWindow,
    manager: EntityManager = this.dataSource.manager,
    index?: string,
  ): Promise<E[]> {
    return this.prepared().finds.findPage(manager, this.where(scope, filter), order, window, this.idField, index);
  }

  protected tableName(): string {
    return this.dataSource.getMetadata(this.entity).tableName;
  }
}
