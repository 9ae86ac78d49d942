import { DataSource } from 'typeorm';

/** Counts a replica keeps, over all resources, tenants and filters (least recently used dropped beyond). */
export const PAGE_TOTALS_MAX = 10_000;

interface CountedTotal {
  /** resource path and tenant: what a write drops */
  group: string;
  /** the write version of the resource and tenant read before the count started */
  version: string;
  expires: number;
  total: Promise<number>;
}

/** One per data source, i.e. per app: the counts are of that database, and the bound is the process's. */
const perDataSource = new WeakMap<DataSource, PageTotals>();

/**
 * The totals `page` counted, per resource, tenant and filter, each with the write version (list-versions.ts)
 * it was made at. A total is reused only at that same version and within its TTL, so a write through
 * any replica (which bumps the version) makes the next page count again; a write through this replica
 * also drops its group here at once, should the bump fail. Concurrent pages of one filter share one count.
 */
export class PageTotals {
  /** In use order: least recently used first. */
  private readonly entries = new Map<string, CountedTotal>();
  private readonly keysByGroup = new Map<string, Set<string>>();

  constructor(private readonly maxEntries = PAGE_TOTALS_MAX) {}

  static of(dataSource: DataSource): PageTotals {
    let totals = perDataSource.get(dataSource);
    if (!totals) perDataSource.set(dataSource, (totals = new PageTotals()));
    return totals;
  }

  /** The total counted at `version` less than `ttlMs` ago, or a new count (remembered unless it fails). */
  getOrCount(
    resourcePath: string,
    tenantId: string,
    filterKey: string,
    version: string,
    ttlMs: number,
    count: () => Promise<number>,
  ): Promise<number> {
    const group = groupOf(resourcePath, tenantId);
    const key = JSON.stringify([group, filterKey]);
    const hit = this.entries.get(key);
    if (hit && hit.version === version && hit.expires > Date.now()) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.total;
    }
    // the TTL runs from the start of the count: it may miss writes from then on whose bump failed
    const entry = { group, version, expires: Date.now() + ttlMs, total: count() };
    this.store(key, entry);
    entry.total.catch(() => {
      if (this.entries.get(key) === entry) this.remove(key);
    });
    return entry.total;
  }

  /** After a write of the resource in the tenant: its totals are no longer counted. */
  drop(resourcePath: string, tenantId: string): void {
    const group = groupOf(resourcePath, tenantId);
    for (const key of this.keysByGroup.get(group) ?? []) this.entries.delete(key);
    this.keysByGroup.delete(group);
  }

  get size(): number {
    return this.entries.size;
  }

  private store(key: string, entry: CountedTotal): void {
    this.remove(key);
    this.entries.set(key, entry);
    const keys = this.keysByGroup.get(entry.group) ?? new Set<string>();
    this.keysByGroup.set(entry.group, keys.add(key));
    if (this.entries.size > this.maxEntries) this.remove(this.entries.keys().next().value as string);
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    const keys = this.keysByGroup.get(entry.group);
    keys?.delete(key);
    if (keys?.size === 0) this.keysByGroup.delete(entry.group);
  }
}

function groupOf(resourcePath: string, tenantId: string): string {
  return JSON.stringify([resourcePath, tenantId]);
}

/**
 * The total a page's rows show without a count: a page with fewer rows than `pageSize` is the last one,
 * unless it is empty past the first page (then how far the matches reach is unknown).
 */
export function totalShownByRows(offset: number, pageSize: number, rowCount: number): number | undefined {
  if (pageSize === 0 || rowCount >= pageSize) return undefined;
  if (rowCount === 0 && offset > 0) return undefined;
  return offset + rowCount;
}
