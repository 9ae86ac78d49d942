import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SharedRuns } from '../../background/shared-run';
import { retryingDeadlocks, upsertSql } from '../../persistence/upsert-sql';

const TABLE = 'list_version';

/**
 * The write counters of every resource in the database, per tenant, shared by every replica: a write
 * bumps its (resource, tenant) row once it has completed; a replica reads the rows before it uses (or
 * makes) a cached merged list (listCache) or page total, and makes it anew when they differ from the
 * ones it was made at. Reading before loading means a list or count made while a write was under way
 * is stamped with the older version, so the write's bump makes the next read make it again.
 */
export class ListVersions {
  private readonly logger = new Logger(ListVersions.name);
  /**
   * Writes of one (resource, tenant) that complete together share a bump: every writer would otherwise
   * wait its turn for the same row's lock (and its commit), which made that row the limit of a tenant's
   * write rate. A writer waits for a bump that starts after its write, so the bump still follows it.
   */
  private readonly bumps = new SharedRuns<void>();

  constructor(private readonly dataSource: DataSource) {}

  /** Concurrent reads of the same versions share a SELECT that starts after each of them (as bumps do). */
  private readonly reads = new SharedRuns<string[]>();

  /** The versions of the given tenants' rows of a resource, as one comparable text ('0' for a row never written). */
  async stamp(resourcePath: string, tenantIds: string[]): Promise<string> {
    return (await this.versionsOf(resourcePath, tenantIds)).join(':');
  }

  /** Each given tenant's version of a resource, in the order given ('0' for a row never written). */
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
   * One more write of the tenant's records. A failure is logged, not thrown: the write itself has
   * completed, and the other replicas' lists and page totals then still expire with their TTLs.
   */
  bump(resourcePath: string, tenantId: string): Promise<void> {
    return this.bumps.run(JSON.stringify([resourcePath, tenantId]), () => this.increment(resourcePath, tenantId));
  }

  private async increment(resourcePath: string, tenantId: string): Promise<void> {
    const insert = `INSERT INTO ${TABLE} (resource_path, tenant_id, version) VALUES (?, ?, 1)`;
    const sql = upsertSql(this.dataSource, insert, ['resource_path', 'tenant_id'], 'version = version + 1');
    try {
      await retryingDeadlocks(() => this.dataSource.query(sql, [resourcePath, tenantId]));
    } catch (error) {
      this.logger.warn(
        `recording a write of ${resourcePath} failed (other replicas see it within the listCache and page-total TTLs): ${(error as Error).name}`,
      );
    }
  }
}
