import { DataSource, EntityManager, EntityMetadata } from 'typeorm';
import { CrudConfig } from '../config/crud.config';
import type { AnyResource } from '../crud/fields/resource';
import { deferredJoin } from '../crud/tables/deferred-join';
import { pageWindow } from '../crud/tables/page-window';
import { readSnapshot } from '../crud/tables/read-snapshot';
import { AppException } from '../http/app-exception';
import { WithExtra } from '../http/envelope';
import { TenantScope } from '../tenancy/tenant-scope';
import { HistoryAction, HistoryChange, HistoryEntry, TenantHistoryPageRequest } from './history-request';
import { PageTotals } from '../crud/tables/page-totals';
import { HISTORY_TABLE } from '../persistence/history-sql';
import { HISTORY_VERSION_SQL, historyIndex, historyWhere, keptTotalQuery } from './history-query';
import { RecordHistory } from './record-history.entity';

type ColumnMetadata = EntityMetadata['columns'][number];

/** How one resource's entries read: its table, and its columns by their database names. */
class HistoryTable {
  private readonly columns: Map<string, ColumnMetadata>;

  constructor(
    readonly resource: AnyResource | undefined,
    private readonly tableName: string,
    metadata?: EntityMetadata,
  ) {
    this.columns = new Map((metadata?.columns ?? []).map((column) => [column.databaseName, column]));
  }

  /** What an entry of the tenant-wide view names: the resource's permission name, else the table's. */
  get name(): string {
    return this.resource?.permission ?? this.tableName;
  }

  /** A change as the API shows the field: its JSON name, its values as reads show them (times as numbers, booleans). */
  change(column: string, pair: unknown): HistoryChange {
    const meta = this.columns.get(column);
    const field = meta?.propertyName ?? column;
    if (pair === undefined) return { field };
    if (!Array.isArray(pair)) return { field, masked: true };
    const [oldValue, newValue] = pair.map((value: unknown) => (meta ? shown(meta, value) : value));
    return { field, oldValue, newValue };
  }
}

/** A stored value as a read returns it: through the column's transformer, booleans from 0/1. */
function shown(column: ColumnMetadata, value: unknown): unknown {
  if (value === null) return null;
  const transformer = column.transformer;
  const transformed = transformer && !Array.isArray(transformer) ? transformer.from(value) : value;
  return column.type === 'boolean' || column.type === Boolean ? Boolean(transformed) : transformed;
}

type Row = RecordHistory;

/**
 * The history entries of a tenant (history-sql.ts writes them), newest first, for one resource (its historyPage) or
 * for the resources given (the tenant-wide view). A page and its total are read in one snapshot.
 */
export class RecordHistoryReader {
  private readonly tables = new Map<string, HistoryTable>();
  private readonly totals: PageTotals;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: CrudConfig,
    resources: AnyResource[],
  ) {
    this.totals = PageTotals.of(dataSource);
    for (const resource of resources) {
      const metadata = dataSource.getMetadata(resource.entity);
      this.tables.set(metadata.tableName, new HistoryTable(resource, metadata.tableName, metadata));
    }
  }

  /** The entries of `resource`'s records (historyPage). */
  resourcePage(scope: TenantScope, resource: AnyResource, body: TenantHistoryPageRequest): Promise<WithExtra<HistoryEntry[]>> {
    return this.page(scope, this.tableOf(resource), body, false);
  }

  /**
   * The entries of every table of the tenant (on `(tenant_id, history_id)`, without a list of tables to sort
   * across), or of the resource `body.resource` names (the tenant-wide view).
   */
  tenantPage(scope: TenantScope, body: TenantHistoryPageRequest): Promise<WithExtra<HistoryEntry[]>> {
    if (body.resource === undefined) return this.page(scope, undefined, body, true);
    const table = [...this.tables.values()].find((known) => known.resource?.permission === body.resource);
    if (!table?.resource) throw AppException.validation(`resource ${body.resource} has no history`);
    return this.page(scope, this.tableOf(table.resource), body, true);
  }

  private tableOf(resource: AnyResource): string {
    return this.dataSource.getMetadata(resource.entity).tableName;
  }

  private async page(
    scope: TenantScope,
    table: string | undefined,
    body: TenantHistoryPageRequest,
    named: boolean,
  ): Promise<WithExtra<HistoryEntry[]>> {
    const current = body.current ?? 0;
    const pageSize = body.pageSize ?? 0;
    if (pageSize > this.config.pageSizeMax) throw AppException.validation(`pageSize must not be greater than ${this.config.pageSizeMax}`);
    if (body.timeStart !== undefined && body.timeEnd !== undefined && body.timeStart > body.timeEnd)
      throw AppException.validation('timeStart must not be after timeEnd');
    const offset = (Math.max(current, 1) - 1) * pageSize;
    const where = historyWhere(scope.tenantId, table, body);
    const index = historyIndex(table, body);
    const [rows, total] = await readSnapshot(this.dataSource, async (manager): Promise<[Row[], number]> => {
      const count = () => manager.getRepository(RecordHistory).createQueryBuilder('h').where(where).useIndex(index).getCount();
      const total = (await this.keptTotal(manager, scope, table, body)) ?? (await this.countedTotal(manager, scope, table, body, count));
      const window = pageSize === 0 ? undefined : pageWindow(offset, pageSize, total);
      if (!window) return [[], total];
      // the page's keys on the index, then their entries by primary key (a deferred join)
      const order = { historyId: window.reversed ? 'ASC' : 'DESC' } as const;
      const rows = await deferredJoin(manager, RecordHistory, where, 'historyId', order, window, index).getMany();
      return [window.reversed ? rows.reverse() : rows, total];
    });
    const data = rows.map((row) => this.entry(row, named));
    return new WithExtra(data, { current, pages: pageSize === 0 ? 0 : Math.ceil(total / pageSize), size: pageSize, total });
  }

  /**
   * A counted total, reused as a record page's is (PAGE_TOTAL_TTL_MS, page-totals.ts): only in a snapshot of the
   * tenant's history version it was counted at (history-count-sql.ts), which holds the same entries.
   */
  private async countedTotal(
    manager: EntityManager,
    scope: TenantScope,
    table: string | undefined,
    body: TenantHistoryPageRequest,
    count: () => Promise<number>,
  ): Promise<number> {
    const ttl = this.config.pageTotalTtlMs;
    if (ttl === 0) return count();
    const [{ version }] = (await manager.query(HISTORY_VERSION_SQL, [scope.tenantId])) as { version: string | number | null }[];
    const { recordId, username, action, timeStart, timeEnd } = body;
    const filterKey = JSON.stringify([table ?? null, recordId, username, action, timeStart, timeEnd]);
    return this.totals.getOrCount(HISTORY_TABLE, scope.tenantId, filterKey, String(version ?? 0), ttl, count);
  }

  /** The total from the kept counts (history-count-sql.ts), read in the page's snapshot, when they hold it. */
  private async keptTotal(manager: EntityManager, scope: TenantScope, table: string | undefined, body: TenantHistoryPageRequest) {
    const read = keptTotalQuery(table, body);
    if (!read) return undefined;
    const rows = (await manager.query(read.sql, [scope.tenantId, ...read.params])) as { n: string | number | null }[];
    return Number(rows[0]?.n ?? 0);
  }

  private entry(row: Row, named: boolean): HistoryEntry {
    // a table no resource of the reader has (one whose history was dropped since) shows its own names
    const table = this.tables.get(row.tableName) ?? new HistoryTable(undefined, row.tableName);
    const fields = JSON.parse(row.changedFields) as string[];
    const values = row.changedValues === null ? undefined : (JSON.parse(row.changedValues) as unknown[]);
    return {
      historyId: String(row.historyId),
      ...(named ? { resource: table.name } : {}),
      recordId: row.recordId,
      revision: row.revision,
      action: row.action as HistoryAction,
      username: row.username,
      time: row.time,
      requestId: row.requestId,
      traceId: row.traceId,
      purged: row.changedValues === null,
      changes: fields.map((field, i) => table.change(field, values === undefined ? undefined : values[i])),
    };
  }
}
