import { DataSource } from 'typeorm';
import { CrudConfig } from '../../config/crud.config';
import { WithExtra } from '../../http/envelope';
import { BaseRecord } from '../../persistence/base-record';
import { TenantScope } from '../../tenancy/tenant-scope';
import { BatchWrites } from './batch-writes';
import { ListVersions } from '../caches/list-versions';
import { LiveRecordTable } from '../tables/live-record-table';
import { MergedListCache } from '../caches/merged-list-cache';
import { PageTotals } from '../caches/page-totals';
import { ListControls, PageControls } from '../http/query-controls';
import { RecordColumns } from '../tables/record-columns';
import { Resource } from '../fields/resource';
import { ResourceQuery } from './resource-query';
import { ResourceWriter } from './resource-writer';
import { TtlCache } from '../caches/ttl-cache';
import { WriteRecorder } from './write-recorder';

type Row = Record<string, unknown>;

/**
 * One resource's parts, and its standard operations in the caller's scope (the principal of the
 * verified token: without one every operation throws). Operations of a single resource are built by
 * its controller from the parts, with the scope they need.
 */
export class CrudService<E extends BaseRecord> {
  /** The only way to the resource's table. */
  readonly table: LiveRecordTable<E>;
  readonly columns: RecordColumns<E>;
  readonly query: ResourceQuery<E>;
  readonly lists: MergedListCache<E>;
  /** Records a completed write for the caches of every replica (writer and batches do; a write made elsewhere must too). */
  readonly writes: WriteRecorder<E>;
  readonly writer: ResourceWriter<E>;
  readonly batches: BatchWrites<E>;

  constructor(
    readonly resource: Resource<E>,
    dataSource: DataSource,
    config: CrudConfig,
    cache: TtlCache,
  ) {
    this.table = new LiveRecordTable(resource.entity, resource.idField, dataSource);
    this.columns = new RecordColumns(resource, dataSource);
    const versions = new ListVersions(dataSource);
    const totals = PageTotals.of(dataSource);
    this.query = new ResourceQuery(resource, this.table, config, totals, versions);
    this.lists = new MergedListCache(resource, this.query, this.columns, config, cache, versions);
    this.writes = new WriteRecorder(resource, this.lists, totals, versions);
    this.writer = new ResourceWriter(resource, this.table, this.columns, this.writes, dataSource);
    this.batches = new BatchWrites(resource, this.table, this.columns, this.writes, dataSource);
  }

  async count(body: Row): Promise<number> {
    return this.query.count(TenantScope.current(), body);
  }

  async getById(id: string): Promise<E | null> {
    return this.query.getById(TenantScope.current(), id);
  }

  async list(body: Row & ListControls): Promise<E[]> {
    return this.query.list(TenantScope.current(), body);
  }

  async page(body: Row & PageControls): Promise<WithExtra<E[]>> {
    return this.query.page(TenantScope.current(), body);
  }

  async listCache(body: Row): Promise<E[]> {
    return this.lists.list(TenantScope.current(), body);
  }

  async save(dto: object): Promise<true> {
    return this.writer.save(TenantScope.current(), dto);
  }

  async updateById(dto: object): Promise<boolean> {
    return this.writer.updateById(TenantScope.current(), dto);
  }

  /** See ResourceWriter.updateMatching: in the caller's tenant, stamped with the caller's name. */
  async updateMatching(match: Row, changes: Row): Promise<number> {
    return this.writer.updateMatching(TenantScope.current(), match, changes);
  }

  async removeById(id: string): Promise<boolean> {
    return this.removeByIds([id]);
  }

  async removeByIds(ids: string[]): Promise<boolean> {
    return this.writer.removeByIds(TenantScope.current(), ids);
  }

  /** Synchronous importList: upsert by key, all or nothing. */
  async importRows(rows: object[]): Promise<WithExtra<true>> {
    return this.batches.importRows(TenantScope.current(), rows);
  }
}
