import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { CrudConfig } from '../../config/crud.config';
import { WithExtra } from '../../http/envelope';
import { BaseRecord } from '../../persistence/base-record';
import { TenantScope } from '../../tenancy/tenant-scope';
import { UpsertClaim } from './keyed-upsert';
import { LiveRecordTable } from '../tables/live-record-table';
import { MergedListCache } from './merged-list-cache';
import { PageTotals } from '../tables/page-totals';
import { ListControls, PageControls } from '../http/query-controls';
import { RecordColumns } from '../tables/record-columns';
import { Resource } from '../fields/resource';
import { ResourceQuery } from './resource-query';
import { ResourceWriter } from './resource-writer';
import { RecycleBin } from './recycle-bin';
import { TenantFilter } from '../tables/tenant-table';
import { TtlCache } from './ttl-cache';
import { RecordExport } from '../export/record-export';
import { RecordHistoryReader } from '../../history/record-history-reader';
import { HistoryEntry, HistoryPageRequest } from '../../history/history-request';

type Row = Record<string, unknown>;

/**
 * The operations on one resource's live records. Each takes the scope last; without it the caller's
 * (the principal of the verified token: without one every operation throws). Every write, through this
 * service or any other code, raises its tenant's write version in its own transaction (live-count-sql.ts),
 * which the list caches and page totals of all replicas compare.
 */
export class CrudService<E extends BaseRecord> {
  private readonly table: LiveRecordTable<E>;
  private readonly query: ResourceQuery<E>;
  private readonly lists: MergedListCache<E>;
  private readonly writer: ResourceWriter<E>;
  private readonly bin: RecycleBin<E>;
  private readonly exporter: RecordExport<E>;
  private readonly history: RecordHistoryReader;

  constructor(
    readonly resource: Resource<E>,
    dataSource: DataSource,
    config: CrudConfig,
    cache: TtlCache,
  ) {
    this.table = new LiveRecordTable(resource.entity, resource.idField, dataSource);
    const columns = new RecordColumns(resource, dataSource);
    this.query = new ResourceQuery(resource, this.table, config, PageTotals.of(dataSource));
    this.lists = new MergedListCache(resource, this.query, this.table, columns, config, cache);
    this.writer = new ResourceWriter(resource, this.table, columns, dataSource);
    this.bin = new RecycleBin(resource, dataSource, config);
    this.exporter = new RecordExport(resource, this.table, this.query, dataSource, config);
    this.history = new RecordHistoryReader(dataSource, config, [resource]);
  }

  async count(body: Row, scope = TenantScope.current()): Promise<number> {
    return this.query.count(scope, body);
  }

  async getById(id: string, scope = TenantScope.current()): Promise<E | null> {
    return this.query.getById(scope, id);
  }

  async list(body: Row & ListControls, scope = TenantScope.current()): Promise<E[]> {
    return this.query.list(scope, body);
  }

  async page(body: Row & PageControls, scope = TenantScope.current()): Promise<WithExtra<E[]>> {
    return this.query.page(scope, body);
  }

  async listCache(body: Row, scope = TenantScope.current()): Promise<E[]> {
    return this.lists.list(scope, body);
  }

  /** How many live records match `filter`, counted up to `cap` (reads at most `cap` index entries). */
  async countUpTo(filter: TenantFilter<E>, cap: number, scope = TenantScope.current()): Promise<number> {
    const matching = this.table.select(scope, filter, 'r').select('1', 'one').limit(cap);
    const [sql, parameters] = matching.getQueryAndParameters();
    const [{ counted }] = (await matching.connection.query(`SELECT COUNT(*) AS counted FROM (${sql}) capped`, parameters)) as {
      counted: number | string;
    }[];
    return Number(counted);
  }

  /** The distinct values of `field` among the live records matching `filter`, in no particular order. */
  async distinctValues<K extends keyof E & string>(field: K, filter: TenantFilter<E>, scope = TenantScope.current()): Promise<E[K][]> {
    const rows = await this.table.select(scope, filter, 'r').select(`DISTINCT r.${field}`, 'value').getRawMany<{ value: E[K] }>();
    return rows.map((row) => row.value);
  }

  async save(dto: object, scope = TenantScope.current()): Promise<true> {
    return this.writer.save(scope, dto);
  }

  /** Saves the row unless a live record has its business key; never overwrites. True when saved. */
  async saveIfAbsent(row: Row, scope = TenantScope.current()): Promise<boolean> {
    return this.writer.saveIfAbsent(scope, row);
  }

  async updateById(dto: object, scope = TenantScope.current()): Promise<boolean> {
    return this.writer.updateById(scope, dto);
  }

  /** Updates the record with the body's id, else the one with its business key, else creates one (see ResourceWriter). */
  async saveOrUpdate(dto: object, scope = TenantScope.current()): Promise<true> {
    return this.writer.saveOrUpdate(scope, dto);
  }

  /** Sets the changes on every live record whose fields equal `match`, stamped as by updateById; returns how many changed. */
  async updateMatching(match: Row, changes: Row, scope = TenantScope.current()): Promise<number> {
    return this.writer.updateMatching(scope, match, changes);
  }

  async removeById(id: string, scope = TenantScope.current()): Promise<boolean> {
    return this.removeByIds([id], scope);
  }

  async removeByIds(ids: string[], scope = TenantScope.current()): Promise<boolean> {
    return this.writer.removeByIds(scope, ids);
  }

  /** The logically deleted records, newest deletion first (the recycle bin). */
  async deletedPage(body: Row & PageControls, scope = TenantScope.current()): Promise<WithExtra<E[]>> {
    return this.bin.page(scope, body);
  }

  /** The deleted record live again; false when none had the id; 422 when its business key is live again. */
  async restoreById(id: string, scope = TenantScope.current()): Promise<boolean> {
    return this.bin.restoreById(scope, id);
  }

  /** The deleted records with these ids removed for good (live records are never touched). */
  async purgeByIds(ids: string[], scope = TenantScope.current()): Promise<boolean> {
    return this.bin.purgeByIds(scope, ids);
  }

  /**
   * The live records matching the body's filters, in the page's order, streamed to `res` as the file `accept` asks
   * for (RecordExport); a refusal before the first byte is thrown, for the envelope.
   */
  async export(body: Row & ListControls, accept: string | undefined, res: Response, scope = TenantScope.current()): Promise<void> {
    return this.exporter.run(scope, body, accept, res);
  }

  /** The entries of the resource's records, newest first (written by its table's triggers on every change). */
  async historyPage(body: HistoryPageRequest, scope = TenantScope.current()): Promise<WithExtra<HistoryEntry[]>> {
    return this.history.resourcePage(scope, this.resource, body);
  }

  /** Synchronous importList: upsert by business key, all or nothing. */
  async importRows(rows: object[], scope = TenantScope.current()): Promise<WithExtra<true>> {
    return this.writer.importRows(scope, rows);
  }

  /** Inserts every row in one transaction; the first duplicate key refuses them all. */
  async saveBatch(rows: object[], scope = TenantScope.current()): Promise<true> {
    return this.writer.saveBatch(scope, rows);
  }

  /**
   * Upsert by business key in one transaction that `claim` opens and `finish` closes (the import
   * consumer marks its batch in the same commit). True when the rows were written.
   */
  async upsertClaimed(rows: Row[], steps: UpsertClaim, scope: TenantScope): Promise<boolean> {
    return this.writer.upsertClaimed(scope, rows, steps);
  }
}
