import { EntityManager, FindOptionsWhere, In, MoreThanOrEqual } from 'typeorm';
import { BaseRecord } from '../../persistence/base-record';
import { LIVE } from '../../persistence/columns';
import { TenantScope } from '../../tenancy/tenant-scope';
import { LiveCounts } from './live-counts';
import { exclusiveTransaction } from './exclusive-transaction';
import { RecordTable } from './record-table';
import { TenantFilter } from './tenant-table';
import { writeStamp } from '../../history/write-stamp';

/**
 * The recycle bin of a resource's records: a RecordTable whose conditions carry "logically deleted" (a deletion time,
 * never the live sentinel), so a live record is out of its reach. Restoring makes a record live again; purging
 * removes it for good.
 */
export class DeletedRecordTable<E extends BaseRecord> extends RecordTable<E> {
  protected override servedRows(): FindOptionsWhere<E> {
    return { deleteTime: MoreThanOrEqual(LIVE + 1) } as FindOptionsWhere<E>;
  }

  /** How many deleted records the scope's tenant has: kept by triggers (deleted-count-sql.ts), or counted where a table has none. */
  async countDeleted(scope: TenantScope, manager: EntityManager): Promise<number> {
    return (
      (await LiveCounts.of(this.dataSource).deletedCount(this.tableName(), scope.tenantId, manager)) ??
      this.count(scope, {} as TenantFilter<E>, manager)
    );
  }

  /** The deleted record live again, its revision raised and lastModified* stamped; false when no deleted record has the id. */
  async restore(scope: TenantScope, id: string): Promise<boolean> {
    const stamp = {
      deleteTime: LIVE,
      revision: () => 'revision + 1',
      lastModifiedUsername: scope.username,
      lastModifiedTime: Date.now(),
      ...writeStamp(scope),
    };
    return (await this.updateColumns(scope, { [this.idField]: id } as TenantFilter<E>, stamp as never)) > 0;
  }

  /** The deleted records with these ids removed for good (live ones are out of reach); how many went. */
  purge(scope: TenantScope, ids: string[]): Promise<number> {
    return exclusiveTransaction(this.dataSource, (manager) =>
      this.removeStamped(scope, { [this.idField]: In(ids) } as TenantFilter<E>, manager),
    );
  }
}
