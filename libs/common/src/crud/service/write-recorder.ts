import { BaseRecord } from '../../persistence/base-record';
import { TenantScope } from '../../tenancy/tenant-scope';
import { ListVersions } from '../caches/list-versions';
import { MergedListCache } from '../caches/merged-list-cache';
import { PageTotals } from '../caches/page-totals';
import { Resource } from '../fields/resource';

/**
 * Records a completed write of a resource's records: this replica drops the tenant's cached lists and
 * page totals at once, and the tenant's write counter in the database goes up, so the other replicas
 * stop using theirs (list-versions.ts).
 */
export class WriteRecorder<E extends BaseRecord> {
  constructor(
    private readonly resource: Resource<E>,
    private readonly lists: MergedListCache<E>,
    private readonly totals: PageTotals,
    private readonly versions: ListVersions,
  ) {}

  /**
   * Awaits a write in the scope's tenant, then records it whether or not it succeeded: a failed write
   * may still have committed (a connection lost after COMMIT).
   */
  async afterWrite<T>(scope: TenantScope, write: Promise<T>): Promise<T> {
    try {
      return await write;
    } finally {
      await this.recordWrite(scope);
    }
  }

  /** After a write in the scope's tenant has completed (or one made in a caller's transaction has committed). */
  async recordWrite(scope: TenantScope): Promise<void> {
    this.lists.dropCached(scope);
    this.totals.drop(this.resource.path, scope.tenantId);
    await this.versions.bump(this.resource.path, scope.tenantId);
  }
}
