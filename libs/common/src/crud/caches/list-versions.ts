import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SharedRuns } from '../../background/shared-run';
import { retryingDeadlocks, upsertSql } from '../../persistence/upsert-sql';

const TABLE = 'list_version';

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
   * Counts one more write of the tenant's records. A failure is logged, not thrown: the write itself
   * has completed, and other replicas' lists and totals still expire with their TTLs.
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
