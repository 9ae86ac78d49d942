/**
 * A small in-process TTL cache keyed by `namespace|tenant`, with per-namespace invalidation. An entry
 * may carry a version: it is a hit only for a caller that names the same version.
 */
export class TtlCache {
  private readonly entries = new Map<string, { expires: number; version: string; value: Promise<unknown> }>();

  async getOrLoad<T>(namespace: string, tenantId: string, ttlMs: number, load: () => Promise<T>, version = ''): Promise<T> {
    const key = `${namespace}|${tenantId}`;
    const hit = this.entries.get(key);
    if (hit && hit.expires > Date.now() && hit.version === version) return hit.value as Promise<T>;
    const value = load();
    this.entries.set(key, { expires: Date.now() + ttlMs, version, value });
    // never cache a failure (unless a newer load has replaced this one meanwhile)
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }

  /** Drops one tenant's entry of a namespace, or every tenant's when tenantId is omitted. */
  invalidate(namespace: string, tenantId?: string): void {
    if (tenantId !== undefined) {
      this.entries.delete(`${namespace}|${tenantId}`);
      return;
    }
    for (const key of this.entries.keys()) if (key.startsWith(`${namespace}|`)) this.entries.delete(key);
  }
}
