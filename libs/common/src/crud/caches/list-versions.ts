import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SharedRuns } from '../../background/shared-run';
import { retryingDeadlocks, upsertSql } from '../../persistence/upsert-sql';

const TABLE = 'list_version';
/** The first wait before a failed increment is tried again, and the longest one (the wait doubles in between). */
export const BUMP_RETRY_FIRST_MS = 100;
export const BUMP_RETRY_MAX_MS = 5_000;

/**
 * A write counter per resource and tenant in the database, shared by all replicas. A completed write
 * raises it; a cached listCache list or page total is used only while the counter is the one it was
 * made at. The counter is read before the list or count is made, so one made during a write is redone.
 */
export class ListVersions {
  private readonly logger = new Logger(ListVersions.name);
  /**
   * Writes of one resource and tenant that complete together share one increment (each waits for one
   * that starts after its write): otherwise they queue on the same row's lock, which limited a tenant's write rate.
   */
  private readonly bumps = new SharedRuns<void>();

  /** Resources and tenants whose failed increment is being retried, and whether another failed meanwhile. */
  private readonly retrying = new Map<string, { again: boolean }>();

  constructor(private readonly dataSource: DataSource) {}

  /** Concurrent reads of the same counters share one SELECT that starts after each of them. */
  private readonly reads = new SharedRuns<string[]>();

  /** The tenants' counters of a resource as one comparable text ('0' where never written). */
  async stamp(resourcePath: string, tenantIds: string[]): Promise<string> {
    return (await this.versionsOf(resourcePath, tenantIds)).join(':');
  }

  /** Each tenant's counter of a resource, in the order given ('0' where never written). */
  versionsOf(resourcePath: string, tenantIds: string[]): Promise<string[]> {
    return this.reads.run(JSON.stringify([resourcePath, tenantIds]), () => this.read(resourcePath, tenantIds));
  }

  private async read(resourcePath: string, tenantIds: string[]): Promise<string[]> {
    const rows = (await this.dataSource.query(
      `SELECT tenant_id, version FROM ${TABLE} WHERE resource_path = ? AND tenant_id IN (${tenantIds.map(() => '?').join(', ')})`,
      [resourcePath, ...tenantIds],
    )) as { tenant_id: string; version: string | number }[];
    const byTenant = new Map(rows.map((row) => [row.tenant_id, String(row.version)]));
    return tenantIds.map((tenantId) => byTenant.get(tenantId) ?? '0');
  }

  /**
   * Counts one more write of the tenant's records. A failure is not thrown (the write itself has completed):
   * the increment is retried in the background until it succeeds (retryFailed), so other replicas stop using
   * their cached lists and totals as soon as the database answers again, not only when their TTLs end.
   */
  bump(resourcePath: string, tenantId: string): Promise<void> {
    return this.bumps.run(JSON.stringify([resourcePath, tenantId]), () => this.increment(resourcePath, tenantId));
  }

  private async increment(resourcePath: string, tenantId: string): Promise<void> {
    const failure = await this.tryIncrement(resourcePath, tenantId);
    if (!failure) return;
    // once per failed write; the retries that follow are not logged, so an outage does not flood the log
    this.logger.warn(`recording a write of ${resourcePath} failed (retried until the database answers): ${failure.name}`);
    this.retryFailed(resourcePath, tenantId);
  }

  /** One increment; the error when it failed. */
  private async tryIncrement(resourcePath: string, tenantId: string): Promise<Error | undefined> {
    const insert = `INSERT INTO ${TABLE} (resource_path, tenant_id, version) VALUES (?, ?, 1)`;
    const sql = upsertSql(this.dataSource, insert, ['resource_path', 'tenant_id'], 'version = version + 1');
    try {
      await retryingDeadlocks(() => this.dataSource.query(sql, [resourcePath, tenantId]));
      return undefined;
    } catch (error) {
      return error as Error;
    }
  }

  /**
   * Tries a failed increment again, after BUMP_RETRY_FIRST_MS and then waits doubling up to BUMP_RETRY_MAX_MS,
   * until it succeeds or the data source is closed (the app stops). Failures of one resource and tenant share one
   * retry; one that fails while a retry's increment is under way (which may have started before that write
   * completed) gets one more increment after it. The timer never keeps the process alive.
   */
  private retryFailed(resourcePath: string, tenantId: string): void {
    const key = JSON.stringify([resourcePath, tenantId]);
    const pending = this.retrying.get(key);
    if (pending) return void (pending.again = true);
    const retry = { again: false };
    this.retrying.set(key, retry);
    const attempt = (delayMs: number) =>
      setTimeout(async () => {
        retry.again = false; // this increment covers every failure so far
        if (!this.dataSource.isInitialized) return void this.retrying.delete(key);
        if (await this.tryIncrement(resourcePath, tenantId)) return void attempt(Math.min(delayMs * 2, BUMP_RETRY_MAX_MS));
        if (retry.again) return void attempt(BUMP_RETRY_FIRST_MS);
        this.retrying.delete(key);
      }, delayMs).unref();
    attempt(BUMP_RETRY_FIRST_MS);
  }
}
