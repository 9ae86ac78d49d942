import { LRUCache } from 'lru-cache';
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
 * Totals of filtered pages that this replica counted, kept for reuse: counting the matches on every page is slow.
 * A total is reused only while its tenant's write version (list-versions.ts) is the one it was counted at, and
 * within its TTL. A write through this replica also drops that tenant's totals here at once.
 * Pages of one filter asked together share one count. Unfiltered totals are not counted (live-counts.ts).
 */
export class PageTotals {
  /** Least recently used dropped beyond the bound; a dropped entry leaves its group's index too. */
  private readonly entries: LRUCache<string, CountedTotal>;
  private readonly keysByGroup = new Map<string, Set<string>>();

  constructor(maxEntries = PAGE_TOTALS_MAX) {
    this.entries = new LRUCache<string, CountedTotal>({ max: maxEntries, dispose: (entry, key) => this.unindex(entry.group, key) });
  }

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
    if (hit && hit.version === version && hit.expires > Date.now()) return hit.total;
    // the TTL runs from the start of the count: it may miss writes from then on whose bump failed
    const entry = { group, version, expires: Date.now() + ttlMs, total: count() };
    this.entries.set(key, entry);
    this.keysByGroup.set(group, (this.keysByGroup.get(group) ?? new Set<string>()).add(key));
    entry.total.catch(() => {
      if (this.entries.peek(key) === entry) this.entries.delete(key);
    });
    return entry.total;
  }

  /** After a write of the resource in the tenant: its totals are no longer counted. */
  drop(resourcePath: string, tenantId: string): void {
    for (const key of [...(this.keysByGroup.get(groupOf(resourcePath, tenantId)) ?? [])]) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private unindex(group: string, key: string): void {
    const keys = this.keysByGroup.get(group);
    keys?.delete(key);
    if (keys?.size === 0) this.keysByGroup.delete(group);
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
