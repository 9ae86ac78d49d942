/** A small in-process TTL cache keyed by `namespace|tenant`, with per-namespace invalidation. */
export class TtlCache {
  private readonly entries = new Map<string, { expires: number; value: Promise<unknown> }>();

  async getOrLoad<T>(namespace: string, tenantId: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
    const key = `${namespace}|${tenantId}`;
    const hit = this.entries.get(key);
    if (hit && hit.expires > Date.now()) return hit.value as Promise<T>;
    const value = load();
    this.entries.set(key, { expires: Date.now() + ttlMs, value });
    value.catch(() => this.entries.delete(key)); // never cache a failure
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
