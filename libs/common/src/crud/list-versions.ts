import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { retryingDeadlocks, upsertSql } from '../persistence/upsert-sql';

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

  constructor(private readonly dataSource: DataSource) {}

  /** The versions of the given tenants' rows of a resource, as one comparable text ('0' for a row never written). */
  async stamp(resourcePath: string, tenantIds: string[]): Promise<string> {
    const rows = (await this.dataSource.query(
      `SELECT tenant_id, version FROM ${TABLE} WHERE resource_path = ? AND tenant_id IN (${tenantIds.map(() => '?').join(', ')})`,
      [resourcePath, ...tenantIds],
    )) as { tenant_id: string; version: string | number }[];
    const byTenant = new Map(rows.map((row) => [row.tenant_id, String(row.version)]));
    return tenantIds.map((tenantId) => byTenant.get(tenantId) ?? '0').join(':');
  }

  /**
   * One more write of the tenant's records. A failure is logged, not thrown: the write itself has
   * completed, and the other replicas' lists and page totals then still expire with their TTLs.
   */
  async bump(resourcePath: string, tenantId: string): Promise<void> {
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
