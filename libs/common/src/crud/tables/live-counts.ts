import { Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { LIVE_COUNT_TABLE, liveCountResetStatements, liveCountTriggerNames, liveCountTriggers } from '../../persistence/live-count-sql';
import { isMysqlFamily } from '../../persistence/upsert-sql';
import { exclusiveTransaction } from './exclusive-transaction';
import { LiveCount } from './live-count.entity';

/** One per data source: whether a table's triggers are in place is a fact of that database. */
const perDataSource = new WeakMap<DataSource, LiveCounts>();

/**
 * The live records of a tenant in a record table, read from live_count (kept by triggers in the writes'
 * transactions, whatever code writes). MySQL/MariaDB tables get their triggers from a migration; a table
 * without them is counted row by row (undefined here). SQLite tables get them on first use, since
 * synchronize creates the schema (and drops a table's triggers when it rebuilds the table).
 */
export class LiveCounts {
  private readonly logger = new Logger(LiveCounts.name);
  private readonly counted = new Map<string, Promise<boolean>>();

  constructor(private readonly dataSource: DataSource) {}

  static of(dataSource: DataSource): LiveCounts {
    let counts = perDataSource.get(dataSource);
    if (!counts) perDataSource.set(dataSource, (counts = new LiveCounts(dataSource)));
    return counts;
  }

  /** The tenant's live rows of `table`, or undefined when that table's rows are not counted by triggers. */
  async count(table: string, tenantId: string, manager: EntityManager = this.dataSource.manager): Promise<number | undefined> {
    if (!(await this.isCounted(table))) return undefined;
    const rows = (await manager.query(
      `SELECT COALESCE(SUM(live), 0) AS live FROM ${LIVE_COUNT_TABLE} WHERE table_name = ? AND tenant_id = ?`,
      [table, tenantId],
    )) as { live: string | number }[];
    return Number(rows[0].live);
  }

  private isCounted(table: string): Promise<boolean> {
    let known = this.counted.get(table);
    if (!known) {
      // a data source without the shared entities (a test's fixture) has no live_count: its rows are counted
      known = !this.dataSource.hasMetadata(LiveCount)
        ? Promise.resolve(false)
        : isMysqlFamily(this.dataSource)
          ? this.hasTriggers(table)
          : this.ensureSqliteTriggers(table);
      this.counted.set(table, known);
      known.catch(() => this.counted.delete(table));
    }
    return known;
  }

  private async hasTriggers(table: string): Promise<boolean> {
    const names = liveCountTriggerNames(table);
    const rows = (await this.dataSource.query(
      `SELECT COUNT(1) AS n FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME IN (${names.map(() => '?').join(', ')})`,
      names,
    )) as { n: string | number }[];
    const present = Number(rows[0].n) === names.length;
    if (!present) this.logger.warn(`${table} has no live-count triggers (run the migrations): its unfiltered counts read its rows`);
    return present;
  }

  /** Creates the table's triggers unless all are there, and its counts from its rows, in one transaction. */
  private async ensureSqliteTriggers(table: string): Promise<boolean> {
    const names = liveCountTriggerNames(table);
    const rows = (await this.dataSource.query(
      `SELECT COUNT(1) AS n FROM sqlite_master WHERE type = 'trigger' AND name IN (${names.map(() => '?').join(', ')})`,
      names,
    )) as { n: number }[];
    if (Number(rows[0].n) === names.length) return true;
    // exclusive: other requests' statements must not run inside it on SQLite's one connection
    await exclusiveTransaction(this.dataSource, async (manager) => {
      for (const name of names) await manager.query(`DROP TRIGGER IF EXISTS "${name}"`);
      for (const sql of liveCountTriggers('sqlite', table)) await manager.query(sql);
      for (const sql of liveCountResetStatements('sqlite', table)) await manager.query(sql);
    });
    return true;
  }
}
