import { Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { SharedRuns } from '../../background/shared-run';
import {
  FILTER_COUNT_TABLE,
  filterColumnsCountedBy,
  sqliteFilterCountResetStatements,
  insertTriggerName,
  LIVE_COUNT_TABLE,
  sqliteLiveCountResetStatements,
  liveCountTriggerNames,
  liveCountTriggers,
  replacedLiveCountTriggerNames,
} from '../../persistence/live-count-sql';
import {
  DELETED_COUNT_TABLE,
  sqliteDeletedCountResetStatements,
  deletedCountTriggerNames,
  deletedCountTriggers,
} from '../../persistence/deleted-count-sql';
import { isMysqlFamily } from '../../persistence/upsert-sql';
import { exclusiveTransaction } from './exclusive-transaction';
import { countedFilterColumns } from './filter-counts';
import { FilterCount } from './filter-count.entity';
import { LiveCount } from './live-count.entity';
import { DeletedCount } from './deleted-count.entity';

/** One per data source: whether a table's triggers are in place is a fact of that database. */
const perDataSource = new WeakMap<DataSource, LiveCounts>();

/** A tenant's live records in a record table, and its write version there (live-count-sql.ts). */
export interface TenantCounts {
  live: number;
  /** The sum of the tenant's writes: compared, never computed with; '0' where never written. */
  version: string;
}

/** What a table's triggers count: its live rows and writes, the live rows per value of these filter columns, maybe its deleted rows. */
interface CountedTable {
  filterColumns: Set<string>;
  deleted: boolean;
}

/**
 * The live records and write versions of tenants in a record table, read from live_count, and the live records per
 * value of its counted filter columns, read from filter_count (both kept by triggers in the writes' transactions,
 * whatever code writes). MySQL/MariaDB tables get their triggers from a migration, which lists the filter columns
 * they count; a table without them has no counts (undefined here): its rows are counted, and nothing that a version
 * guards is kept. SQLite tables get them on first use, for the filter columns its resources declare, since
 * synchronize creates the schema (and drops a table's triggers when it rebuilds the table).
 */
export class LiveCounts {
  private readonly logger = new Logger(LiveCounts.name);
  private readonly counted = new Map<string, Promise<CountedTable | undefined>>();
  /** Concurrent reads of the same versions outside a snapshot share one SELECT that starts after each of them. */
  private readonly versionReads = new SharedRuns<string[] | undefined>();

  constructor(private readonly dataSource: DataSource) {}

  static of(dataSource: DataSource): LiveCounts {
    let counts = perDataSource.get(dataSource);
    if (!counts) perDataSource.set(dataSource, (counts = new LiveCounts(dataSource)));
    return counts;
  }

  /** The tenant's live rows of `table`, or undefined when that table's rows are not counted by triggers. */
  async count(table: string, tenantId: string, manager: EntityManager = this.dataSource.manager): Promise<number | undefined> {
    return (await this.read(table, [tenantId], manager))?.[0].live;
  }

  /**
   * The tenant's live rows of `table` whose `column` holds `value` (as text: filter-counts.ts filterCountValue),
   * read in `manager`'s snapshot; undefined when the table's triggers do not count that column.
   */
  async filterCount(table: string, tenantId: string, column: string, value: string, manager: EntityManager): Promise<number | undefined> {
    if (!(await this.countedTable(table))?.filterColumns.has(column)) return undefined;
    const rows = (await manager.query(
      `SELECT COALESCE(SUM(live), 0) AS live FROM ${FILTER_COUNT_TABLE} WHERE table_name = ? AND tenant_id = ? AND field = ? AND value = ?`,
      [table, tenantId, column, value],
    )) as { live: string | number }[];
    return Number(rows[0]?.live ?? 0);
  }

  /** The tenant's logically deleted rows of `table`, read in `manager`'s snapshot; undefined when triggers do not count them. */
  async deletedCount(table: string, tenantId: string, manager: EntityManager): Promise<number | undefined> {
    if (!(await this.countedTable(table))?.deleted) return undefined;
    const rows = (await manager.query(
      `SELECT COALESCE(SUM(deleted), 0) AS deleted FROM ${DELETED_COUNT_TABLE} WHERE table_name = ? AND tenant_id = ?`,
      [table, tenantId],
    )) as { deleted: string | number }[];
    return Number(rows[0]?.deleted ?? 0);
  }

  /** Each tenant's write version of `table`, in the order given; read in `manager`'s transaction (its snapshot). */
  async versionsIn(manager: EntityManager, table: string, tenantIds: string[]): Promise<string[] | undefined> {
    return (await this.read(table, tenantIds, manager))?.map((counts) => counts.version);
  }

  /** versionsIn outside a transaction: concurrent callers share a read that starts after each of them. */
  versionsOf(table: string, tenantIds: string[]): Promise<string[] | undefined> {
    const key = JSON.stringify([table, tenantIds]);
    return this.versionReads.run(key, () => this.versionsIn(this.dataSource.manager, table, tenantIds));
  }

  /** Each tenant's counts of `table` in the order given, or undefined when its rows are not counted by triggers. */
  async read(table: string, tenantIds: string[], manager: EntityManager = this.dataSource.manager): Promise<TenantCounts[] | undefined> {
    if (!(await this.countedTable(table))) return undefined;
    const rows = (await manager.query(
      `SELECT tenant_id, COALESCE(SUM(live), 0) AS live, COALESCE(SUM(writes), 0) AS writes FROM ${LIVE_COUNT_TABLE} ` +
        `WHERE table_name = ? AND tenant_id IN (${tenantIds.map(() => '?').join(', ')}) GROUP BY tenant_id`,
      [table, ...tenantIds],
    )) as { tenant_id: string; live: string | number; writes: string | number }[];
    const byTenant = new Map(rows.map((row) => [row.tenant_id, row]));
    return tenantIds.map((tenantId) => {
      const row = byTenant.get(tenantId);
      return { live: Number(row?.live ?? 0), version: String(row?.writes ?? 0) };
    });
  }

  private countedTable(table: string): Promise<CountedTable | undefined> {
    let known = this.counted.get(table);
    if (!known) {
      // a data source without the shared entities (a test's fixture) has no live_count: its rows are counted
      known = !this.dataSource.hasMetadata(LiveCount)
        ? Promise.resolve(undefined)
        : isMysqlFamily(this.dataSource)
          ? this.migratedTriggers(table)
          : this.ensureSqliteTriggers(table);
      this.counted.set(table, known);
      known.catch(() => this.counted.delete(table));
    }
    return known;
  }

  /** The table's triggers as a migration made them: the filter columns they count are written in their text. */
  private async migratedTriggers(table: string): Promise<CountedTable | undefined> {
    const names = liveCountTriggerNames(table);
    const deletedNames = deletedCountTriggerNames(table);
    const all = [...names, ...deletedNames];
    const found = (await this.dataSource.query(
      `SELECT TRIGGER_NAME AS name, ACTION_STATEMENT AS statement FROM information_schema.TRIGGERS ` +
        `WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME IN (${all.map(() => '?').join(', ')})`,
      all,
    )) as { name: string; statement: string }[];
    const rows = found.filter((row) => names.includes(row.name));
    if (rows.length !== names.length) {
      this.logger.warn(
        `${table} has no live-count triggers (run the migrations): its counts read its rows, and no list or total is reused`,
      );
      return undefined;
    }
    const insert = rows.find((row) => row.name === insertTriggerName(table))!;
    const deleted = found.length - rows.length === deletedNames.length;
    return { filterColumns: new Set(filterColumnsCountedBy(insert.statement)), deleted };
  }

  /**
   * Creates the table's triggers unless they are there as this code makes them (for the filter columns its
   * resources declare now), and its counts from its rows, in one transaction.
   */
  private async ensureSqliteTriggers(table: string): Promise<CountedTable> {
    const metadata = this.dataSource.entityMetadatas.find((meta) => meta.tableName === table);
    // filter counts need their table: a fixture's data source may have live counts only
    const filterColumns = metadata && this.dataSource.hasMetadata(FilterCount) ? countedFilterColumns(metadata) : [];
    const deleted = this.dataSource.hasMetadata(DeletedCount);
    const wanted = [...liveCountTriggers('sqlite', table, filterColumns), ...(deleted ? deletedCountTriggers('sqlite', table) : [])];
    const names = [...liveCountTriggerNames(table), ...(deleted ? deletedCountTriggerNames(table) : [])];
    const counted = { filterColumns: new Set(filterColumns), deleted };
    const rows = (await this.dataSource.query(
      `SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name IN (${names.map(() => '?').join(', ')})`,
      names,
    )) as { sql: string }[];
    const present = new Set(rows.map((row) => row.sql));
    if (present.size === wanted.length && wanted.every((sql) => present.has(sql))) return counted;
    // exclusive: other requests' statements must not run inside it on SQLite's one connection
    await exclusiveTransaction(this.dataSource, async (manager) => {
      for (const name of [...replacedLiveCountTriggerNames(table), ...names]) await manager.query(`DROP TRIGGER IF EXISTS "${name}"`);
      for (const sql of wanted) await manager.query(sql);
      for (const sql of sqliteLiveCountResetStatements(table)) await manager.query(sql);
      if (filterColumns.length) for (const sql of sqliteFilterCountResetStatements(table, filterColumns)) await manager.query(sql);
      if (deleted) for (const sql of sqliteDeletedCountResetStatements(table)) await manager.query(sql);
    });
    return counted;
  }
}
