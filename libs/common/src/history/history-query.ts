import { Between, FindOptionsWhere, LessThanOrEqual, MoreThanOrEqual } from 'typeorm';
import { HISTORY_COUNT_TABLE, HISTORY_WRITER_COUNT_TABLE } from '../persistence/history-count-sql';
import type { TenantHistoryPageRequest } from './history-request';
import { HISTORY_INDEXES, RecordHistory } from './record-history.entity';

/** The tenant's entries (of `table`, when given) that match the body's filters. */
export function historyWhere(tenantId: string, table: string | undefined, body: TenantHistoryPageRequest): FindOptionsWhere<RecordHistory> {
  const { recordId, username, action, timeStart, timeEnd } = body;
  const time =
    timeStart !== undefined && timeEnd !== undefined
      ? Between(timeStart, timeEnd)
      : timeStart !== undefined
        ? MoreThanOrEqual(timeStart)
        : timeEnd !== undefined
          ? LessThanOrEqual(timeEnd)
          : undefined;
  const where = { tenantId, tableName: table, recordId, username, action, time };
  return Object.fromEntries(Object.entries(where).filter(([, value]) => value !== undefined)) as FindOptionsWhere<RecordHistory>;
}

/**
 * The index a page's keys and its counted total are read on (MySQL/MariaDB; named, so that statistics cannot turn a
 * page of a small tenant into a walk over the newest entries of all tenants): the record's, else with a time bound the
 * tenant's entries by time (which holds every other filter: checked without reading a row, the page's keys sorted),
 * else the resource's, the writer's or the action's (another filter checked on their entries), else the tenant's.
 */
export function historyIndex(table: string | undefined, body: TenantHistoryPageRequest): string {
  if (body.recordId !== undefined) return HISTORY_INDEXES.record;
  if (body.timeStart !== undefined || body.timeEnd !== undefined) return HISTORY_INDEXES.time;
  if (table !== undefined) return HISTORY_INDEXES.table;
  if (body.username !== undefined) return HISTORY_INDEXES.username;
  if (body.action !== undefined) return HISTORY_INDEXES.action;
  return HISTORY_INDEXES.tenant;
}

/**
 * How the kept counts (history-count-sql.ts) give a page's total: by table and action, or by writer and table (either,
 * both or neither of each pair). A record's entries, a time bound, or a writer with an action are counted instead.
 */
export function keptTotalQuery(table: string | undefined, body: TenantHistoryPageRequest): { sql: string; params: string[] } | undefined {
  if (body.recordId !== undefined || body.timeStart !== undefined || body.timeEnd !== undefined) return undefined;
  if (body.username !== undefined && body.action !== undefined) return undefined;
  const [countTable, keys] =
    body.username !== undefined
      ? [HISTORY_WRITER_COUNT_TABLE, { username: body.username, table_name: table }]
      : [HISTORY_COUNT_TABLE, { table_name: table, action: body.action }];
  const given = Object.entries(keys).filter((pair): pair is [string, string] => pair[1] !== undefined);
  return {
    sql: `SELECT SUM(entries) AS n FROM ${countTable} WHERE tenant_id = ?${given.map(([column]) => ` AND ${column} = ?`).join('')}`,
    params: given.map(([, value]) => value),
  };
}

/** The tenant's history version: it grows with every entry added or removed (history-count-sql.ts). */
export const HISTORY_VERSION_SQL = `SELECT SUM(changes) AS version FROM ${HISTORY_COUNT_TABLE} WHERE tenant_id = ?`;
