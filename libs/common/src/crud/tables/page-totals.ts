import { LRUCache } from 'lru-cache';
import { DataSource } from 'typeorm';

/** Counts a replica keeps, over all resources, tenants and filters (least recently used dropped beyond). */
export const PAGE_TOTALS_MAX = 10_000;

interface CountedTotal {
  /** the write version of the resource's table and tenant, read in the snapshot the count was made in */
  version: string;
  expires: number;
  total: Promise<number>;
}

/** One per data source, i.e. per app: the counts are of that database, and the bound is the process's. */
const perDataSource = new WeakMap<DataSource, PageTotals>();

/**
 * Totals of filtered pages that this replica counted, kept for reuse: counting the matches on every page is slow.
 * A total is reused only in a snapshot of the write version it was counted at (live-count-sql.ts), which holds the
 * same rows, and within its TTL; a total of an older version is replaced when next asked for, or dropped as least
 * recently used. Pages of one filter and version asked together share one count. Unfiltered totals are not
 * counted (live-counts.ts).
 */
export class PageTotals {
  /** Least recently used dropped beyond the bound. */
  private readonly entries: LRUCache<string, CountedTotal>;

  constructor(maxEntries = PAGE_TOTALS_MAX) {
    this.entries = new LRUCache<string, CountedTotal>({ max: maxEntries });
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
    const key = JSON.stringify([resourcePath, tenantId, filterKey]);
    const hit = this.entries.get(key);
    if (hit && hit.version === version && hit.expires > Date.now()) return hit.total;
    const entry = { version, expires: Date.now() + ttlMs, total: count() };
    this.entries.set(key, entry);
    entry.total.catch(() => {
      if (this.entries.peek(key) === entry) this.entries.delete(key);
    });
    return entry.total;
  }

  get size(): number {
    return this.entries.size;
  }
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
