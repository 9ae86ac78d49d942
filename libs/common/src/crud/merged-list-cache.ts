import { CrudConfig } from '../config/crud.config';
import { BaseRecord } from '../persistence/base-record';
import { TenantScope } from '../tenancy/tenant-scope';
import { ListVersions } from './list-versions';
import { RecordColumns } from './record-columns';
import { Resource } from './resource';
import { ResourceQuery, timeRangeOf } from './resource-query';
import { TtlCache } from './ttl-cache';

type Row = Record<string, unknown>;

/**
 * listCache: the tenant's live records merged with the default tenant's (the tenant wins per key), cached
 * per tenant and replica. A cached list is used only while the database's write versions of the tenant
 * and of the default tenant are the ones it was loaded at (one primary-key read per call), so a write
 * through any replica, or an import applied by any replica's consumer, shows at once everywhere; the
 * TTL stays an upper bound (a write whose version bump failed).
 */
export class MergedListCache<E extends BaseRecord> {
  constructor(
    private readonly resource: Resource<E>,
    private readonly query: ResourceQuery<E>,
    private readonly columns: RecordColumns<E>,
    private readonly config: CrudConfig,
    private readonly cache: TtlCache,
    private readonly versions: ListVersions,
  ) {}

  async list(scope: TenantScope, body: Row): Promise<E[]> {
    // read before loading: a list loaded while a write is under way keeps the older version
    const version = await this.versions.stamp(this.resource.path, this.mergedTenants(scope));
    const merged = await this.cache.getOrLoad(
      this.resource.path,
      scope.tenantId,
      this.config.listCacheTtlMs,
      () => this.loadMerged(scope),
      version,
    );
    const filters = this.resource.filters.filter((f) => body[f] !== undefined && body[f] !== null);
    const range = timeRangeOf(this.resource, body);
    const inRange = (r: E) => {
      if (!range) return true;
      const time = r[range.field as keyof E] as unknown as number;
      return (range.start === undefined || time >= range.start) && (range.end === undefined || time <= range.end);
    };
    return merged.filter((r) => filters.every((f) => r[f] === body[f]) && inRange(r));
  }

  /**
   * After a write in a tenant (write-recorder.ts, which also bumps the version for the others): this
   * replica drops the merged lists it may have changed (a write in the default tenant changes every tenant's).
   */
  dropCached(scope: TenantScope): void {
    if (!this.resource.listCache) return;
    this.cache.invalidate(this.resource.path, scope.tenantId === this.config.defaultTenantId ? undefined : scope.tenantId);
  }

  /** The tenants whose records a merged list holds: the default tenant's version counts for every tenant. */
  private mergedTenants(scope: TenantScope): string[] {
    const defaultTenant = this.config.defaultTenantId;
    return scope.tenantId === defaultTenant ? [defaultTenant] : [scope.tenantId, defaultTenant];
  }

  private async loadMerged(scope: TenantScope): Promise<E[]> {
    const defaultTenant = this.config.defaultTenantId;
    const fallbackScope = TenantScope.system(
      'the default tenant records every tenant inherits in listCache',
      defaultTenant,
      scope.username,
    );
    const [own, fallback] = await Promise.all([
      this.query.list(scope, {}),
      scope.tenantId === defaultTenant ? Promise.resolve([]) : this.query.list(fallbackScope, {}),
    ]);
    const ownKeys = new Set(own.map((r) => this.columns.keyText(r)));
    const merged = [...own, ...fallback.filter((r) => !ownKeys.has(this.columns.keyText(r)))];
    return merged.sort((a, b) => this.compareDefault(a, b));
  }

  private compareDefault(a: E, b: E): number {
    for (const [field, order] of this.resource.defaultSort) {
      const x = a[field] as unknown as number | string;
      const y = b[field] as unknown as number | string;
      if (x !== y) return (x < y ? -1 : 1) * (order === 'ASC' ? 1 : -1);
    }
    return 0;
  }
}
