import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { CrudConfig } from '../../config/crud.config';

/** What the cache holds at most: entries, and their summed sizes (rows, for listCache). */
export type TtlCacheBounds = Pick<CrudConfig, 'listCacheMaxEntries' | 'listCacheMaxRows'>;

interface Entry {
  version: string;
  value: Promise<unknown>;
}

/**
 * The process's listCache store, keyed by `namespace|tenant`, with per-namespace invalidation. An entry may
 * carry a version: it is a hit only for a caller that names the same version. Bounded by entries and by
 * size (a loaded value's size, e.g. its rows; 1 while it loads), least recently used dropped first; an entry
 * is dropped when its TTL ends, read or not, so a tenant that stops calling no longer holds memory.
 */
@Injectable()
export class TtlCache {
  private readonly entries: LRUCache<string, Entry>;

  constructor(@Inject(CrudConfig) bounds: TtlCacheBounds = new CrudConfig()) {
    this.entries = new LRUCache<string, Entry>({
      max: bounds.listCacheMaxEntries,
      maxSize: bounds.listCacheMaxRows,
      ttlAutopurge: true,
    });
  }

  /**
   * The value loaded at `version` less than `ttlMs` ago, or a new load, remembered unless it fails (TTL 0: never
   * remembered). `sizeOf` measures a loaded value against the size bound; one larger than the bound is not kept.
   */
  getOrLoad<T>(
    namespace: string,
    tenantId: string,
    ttlMs: number,
    load: () => Promise<T>,
    version = '',
    sizeOf: (value: T) => number = () => 1,
  ): Promise<T> {
    if (ttlMs <= 0) return load();
    const key = `${namespace}|${tenantId}`;
    const hit = this.entries.get(key);
    if (hit && hit.version === version) return hit.value as Promise<T>;
    const entry: Entry = { version, value: load() };
    this.entries.set(key, entry, { ttl: ttlMs, size: 1 });
    // unless a newer load has replaced this one meanwhile: a loaded value takes its size, a failure is never cached
    entry.value.then(
      (value) => {
        if (this.entries.peek(key) === entry)
          this.entries.set(key, { ...entry }, { size: Math.max(1, sizeOf(value as T)), noUpdateTTL: true });
      },
      () => {
        if (this.entries.peek(key) === entry) this.entries.delete(key);
      },
    );
    return entry.value as Promise<T>;
  }

  /** Drops one tenant's entry of a namespace, or every tenant's when tenantId is omitted. */
  invalidate(namespace: string, tenantId?: string): void {
    if (tenantId !== undefined) {
      this.entries.delete(`${namespace}|${tenantId}`);
      return;
    }
    for (const key of [...this.entries.keys()]) if (key.startsWith(`${namespace}|`)) this.entries.delete(key);
  }

  /** Entries held (expired ones are dropped when their TTL ends). */
  get size(): number {
    return this.entries.size;
  }

  /** The summed sizes of the entries held. */
  get heldSize(): number {
    return this.entries.calculatedSize;
  }
}
