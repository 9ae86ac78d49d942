import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { retryingDeadlocks, upsertSql } from '../persistence/upsert-sql';

const TABLE = 'list_version';

/**
 * The write counters of listCache in the database, shared by every replica: a write bumps its
 * (resource, tenant) row once it has completed; a replica reads the rows before it uses (or loads) a
 * cached merged list and reloads when they differ from the ones the list was loaded at. Reading before
 * loading means a list loaded while a write was under way is stamped with the older version, so the
 * write's bump makes the next read reload it.
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
   * completed, and the other replicas' lists then still expire with the TTL.
   */
  async bump(resourcePath: string, tenantId: string): Promise<void> {
    const insert = `INSERT INTO ${TABLE} (resource_path, tenant_id, version) VALUES (?, ?, 1)`;
    const sql = upsertSql(this.dataSource, insert, ['resource_path', 'tenant_id'], 'version = version + 1');
    try {
      await retryingDeadlocks(() => this.dataSource.query(sql, [resourcePath, tenantId]));
    } catch (error) {
      this.logger.warn(
        `recording a write of ${resourcePath} failed (other replicas see it within the listCache TTL): ${(error as Error).name}`,
      );
    }
  }
}
