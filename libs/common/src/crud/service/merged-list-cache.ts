import { CrudConfig } from '../../config/crud.config';
import { BaseRecord } from '../../persistence/base-record';
import { TenantScope } from '../../tenancy/tenant-scope';
import { LiveRecordTable } from '../tables/live-record-table';
import { RecordColumns } from '../tables/record-columns';
import { Resource } from '../fields/resource';
import { ResourceQuery, timeRangeOf } from './resource-query';
import { TtlCache } from './ttl-cache';

type Row = Record<string, unknown>;

/** One tenant's own live records, in listCache's order, with their uniqueness keys (keys[i] is rows[i]'s). */
interface TenantList<E> {
  rows: E[];
  keys: string[];
  keySet: Set<string>;
}

/**
 * listCache: the tenant's live records merged with the default tenant's (the tenant wins per key). Each
 * tenant's own records are cached per replica, and the default tenant's once, whichever tenants inherit
 * them: an answer merges the two lists as it filters them, so no tenant holds a copy of the default rows.
 * A cached list is used only while the database's write version of its tenant (live-count-sql.ts, raised in every
 * write's own transaction, whatever code writes) is the one read before it was loaded (one read per call for both),
 * so a write through any replica, or an import applied by any replica's consumer, shows at once everywhere. A table
 * whose writes are not counted (no triggers) is read on every call.
 */
export class MergedListCache<E extends BaseRecord> {
  constructor(
    private readonly resource: Resource<E>,
    private readonly query: ResourceQuery<E>,
    private readonly table: LiveRecordTable<E>,
    private readonly columns: RecordColumns<E>,
    private readonly config: CrudConfig,
    private readonly cache: TtlCache,
  ) {}

  async list(scope: TenantScope, body: Row): Promise<E[]> {
    const defaultTenant = this.config.defaultTenantId;
    const own = scope.tenantId === defaultTenant ? undefined : scope;
    // read before loading: a list loaded while a write is under way keeps the older version
    const tenants = own ? [own.tenantId, defaultTenant] : [defaultTenant];
    const versions = await this.table.versions(tenants);
    const [defaults, owned] = await Promise.all([
      this.cached(this.defaultScope(scope), versions?.[versions.length - 1]),
      own ? this.cached(own, versions?.[0]) : undefined,
    ]);
    return this.merge(owned, defaults, this.matcher(body));
  }

  private defaultScope(caller: TenantScope): TenantScope {
    return TenantScope.system(
      'the default tenant records every tenant inherits in listCache',
      this.config.defaultTenantId,
      caller.username,
    );
  }

  /** The tenant's list loaded at `version`; without a version (writes not counted) a fresh load. */
  private cached(scope: TenantScope, version: string | undefined): Promise<TenantList<E>> {
    const load = async (): Promise<TenantList<E>> => {
      // stable sort: equal rows keep the database's order, as the merge below keeps the tenant's before the default's
      const rows = (await this.query.list(scope, {})).sort((a, b) => this.compareDefault(a, b));
      const keys = rows.map((r) => this.columns.keyText(r));
      return { rows, keys, keySet: new Set(keys) };
    };
    if (version === undefined) return load();
    return this.cache.getOrLoad(this.resource.path, scope.tenantId, this.config.listCacheTtlMs, load, version, (l) => l.rows.length);
  }

  /** The tenant's rows and the default rows it does not override, in the default order, that `matches`. */
  private merge(owned: TenantList<E> | undefined, defaults: TenantList<E>, matches: (r: E) => boolean): E[] {
    const mine = owned?.rows ?? [];
    const overridden = owned?.keySet ?? new Set<string>();
    const merged: E[] = [];
    let i = 0;
    for (let j = 0; j < defaults.rows.length; j++) {
      if (overridden.has(defaults.keys[j])) continue;
      const inherited = defaults.rows[j];
      // on equal sort values the tenant's row comes first
      for (; i < mine.length && this.compareDefault(mine[i], inherited) <= 0; i++) if (matches(mine[i])) merged.push(mine[i]);
      if (matches(inherited)) merged.push(inherited);
    }
    for (; i < mine.length; i++) if (matches(mine[i])) merged.push(mine[i]);
    return merged;
  }

  private matcher(body: Row): (r: E) => boolean {
    const filters = this.resource.filters.filter((f) => body[f] !== undefined && body[f] !== null);
    const range = timeRangeOf(this.resource, body);
    return (r) => {
      if (!filters.every((f) => r[f] === body[f])) return false;
      if (!range) return true;
      const time = r[range.field as keyof E] as unknown as number;
      return (range.start === undefined || time >= range.start) && (range.end === undefined || time <= range.end);
    };
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
