import { DataSource } from 'typeorm';
import type { AnyResource } from '../crud/fields/resource';
import { exclusiveTransaction } from '../crud/tables/exclusive-transaction';
import { sqliteHistoryCountResetStatements, historyCountTriggerNames, historyCountTriggers } from '../persistence/history-count-sql';
import { BOOKKEEPING_COLUMNS, HistoryTableShape, historyTriggerNames, historyTriggers } from '../persistence/history-sql';
import { isMysqlFamily } from '../persistence/upsert-sql';
import { RecordHistory } from './record-history.entity';

/** A resource's table as its triggers see it, from the entity's metadata (the columns synchronize made). */
export function historyShapeOf(dataSource: DataSource, resource: AnyResource): HistoryTableShape {
  const metadata = dataSource.getMetadata(resource.entity);
  const idColumn = metadata.findColumnWithPropertyName(resource.idField)!.databaseName;
  const secret = new Set<string>(resource.writeOnly);
  return {
    table: metadata.tableName,
    idColumn,
    columns: metadata.columns.map((c) => c.databaseName).filter((name) => name !== idColumn && !BOOKKEEPING_COLUMNS.includes(name)),
    secretColumns: metadata.columns.filter((c) => secret.has(c.propertyName)).map((c) => c.databaseName),
  };
}

/**
 * SQLite: the history triggers of the resources' tables and the count triggers of record_history, made unless they
 * are there as this code makes them, before the app serves a write (synchronize creates the schema, and drops a
 * table's triggers when it rebuilds the table). MySQL/MariaDB tables get theirs from migrations (createHistoryTriggers,
 * createHistoryCountTriggers).
 */
export async function ensureSqliteHistoryTriggers(dataSource: DataSource, resources: AnyResource[]): Promise<void> {
  if (isMysqlFamily(dataSource) || !dataSource.hasMetadata(RecordHistory)) return;
  // the counts start from the entries there are, in the transaction that makes their triggers
  await ensureSqliteTriggers(dataSource, historyCountTriggerNames(), historyCountTriggers('sqlite'), sqliteHistoryCountResetStatements());
  for (const resource of resources.filter((r) => r.history)) {
    const shape = historyShapeOf(dataSource, resource);
    await ensureSqliteTriggers(dataSource, historyTriggerNames(shape.table), historyTriggers('sqlite', shape));
  }
}

/** The triggers `names` made as `wanted` (and `then` run) unless they are there as `wanted` has them. */
async function ensureSqliteTriggers(dataSource: DataSource, names: string[], wanted: string[], then: string[] = []): Promise<void> {
  const rows = (await dataSource.query(
    `SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name IN (${names.map(() => '?').join(', ')})`,
    names,
  )) as { sql: string }[];
  const present = new Set(rows.map((row) => row.sql));
  if (present.size === wanted.length && wanted.every((sql) => present.has(sql))) return;
  await exclusiveTransaction(dataSource, async (manager) => {
    for (const name of names) await manager.query(`DROP TRIGGER IF EXISTS "${name}"`);
    for (const sql of [...wanted, ...then]) await manager.query(sql);
  });
}
