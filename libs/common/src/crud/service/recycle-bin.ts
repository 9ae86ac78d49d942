import { DataSource } from 'typeorm';
import { CrudConfig } from '../../config/crud.config';
import { AppException } from '../../http/app-exception';
import { WithExtra } from '../../http/envelope';
import { BaseRecord } from '../../persistence/base-record';
import { TenantScope } from '../../tenancy/tenant-scope';
import { DeletedRecordTable } from '../tables/deleted-record-table';
import { refusingDuplicates } from '../tables/duplicate-key';
import { retryingConflicts } from '../../persistence/conflict-retry';
import { totalShownByRows } from '../tables/page-totals';
import { pageWindow, SortOrder } from '../tables/page-window';
import { PageControls } from '../http/query-controls';
import { Resource } from '../fields/resource';
import { defaultSortIndex } from '../fields/resource-indexes';
import { filterOf, sorterOf } from './resource-query';

type Row = Record<string, unknown>;

/**
 * A resource's logically deleted records: paged (newest deletion first), restored, purged. A restore or purge is one
 * statement; the tables' triggers count it (live and deleted totals, the write version every replica's caches compare)
 * in its own transaction, so every replica sees the record back, or gone, at once.
 */
export class RecycleBin<E extends BaseRecord> {
  private readonly table: DeletedRecordTable<E>;
  private readonly defaultSortIndex: string | undefined;

  constructor(
    private readonly resource: Resource<E>,
    dataSource: DataSource,
    private readonly config: CrudConfig,
  ) {
    this.table = new DeletedRecordTable(resource.entity, resource.idField, dataSource);
    this.defaultSortIndex = defaultSortIndex(resource);
  }

  /**
   * The page's rows and total in one snapshot. The total without filters is the tenant's deleted count (kept by
   * triggers); with filters the matching deleted records are counted, as many as the bin holds (retention bounds it).
   */
  async page(scope: TenantScope, body: Row & PageControls): Promise<WithExtra<E[]>> {
    const current = body.current ?? 0;
    const pageSize = body.pageSize ?? 0;
    if (pageSize > this.config.pageSizeMax) throw AppException.validation(`pageSize must not be greater than ${this.config.pageSizeMax}`);
    const filter = filterOf(this.resource, body);
    const [order, index] = this.order(body);
    const offset = (Math.max(current, 1) - 1) * pageSize;
    const unfiltered = Object.keys(filter).length === 0;
    const on = unfiltered ? index : undefined;
    const [data, total] = await this.table.snapshot(async (manager): Promise<[E[], number]> => {
      const count = () => (unfiltered ? this.table.countDeleted(scope, manager) : this.table.count(scope, filter, manager));
      if (pageSize === 0) return [[], await count()];
      if (offset > 0) {
        const counted = await count();
        const window = pageWindow(offset, pageSize, counted);
        return [window ? await this.table.findPage(scope, filter, order, window, manager, on) : [], counted];
      }
      const rows = await this.table.findPage(scope, filter, order, { skip: 0, take: pageSize, reversed: false }, manager, on);
      return [rows, totalShownByRows(0, pageSize, rows.length) ?? (await count())];
    });
    return new WithExtra(data, { current, pages: pageSize === 0 ? 0 : Math.ceil(total / pageSize), size: pageSize, total });
  }

  /** true when a deleted record of the scope came back; 422 with the resource's exists-text when its key is live again. */
  restoreById(scope: TenantScope, id: string): Promise<boolean> {
    return refusingDuplicates(
      this.resource,
      retryingConflicts(() => this.table.restore(scope, id)),
    );
  }

  /** true when at least one deleted record of the scope with these ids was removed for good. */
  async purgeByIds(scope: TenantScope, ids: string[]): Promise<boolean> {
    return (await retryingConflicts(() => this.table.purge(scope, ids))) > 0;
  }

  /**
   * Newest deletion first: the deletion time, then the default sort's keys, then the identifier, all descending, which
   * is the default sort's index (tenant, deletion time, its keys, identifier) read backwards. A requested sort is its
   * field then the identifier. With the default order comes the name of that index: the page reads the keys on it
   * (resource-indexes.ts defaultSortIndex says why).
   */
  private order(body: PageControls): [SortOrder, string | undefined] {
    const id = this.resource.idField;
    const sorter = sorterOf([...this.resource.sortable, 'deleteTime'], body);
    if (sorter) return [{ [sorter[0]]: sorter[1], [id]: sorter[1] }, undefined];
    const order: SortOrder = { deleteTime: 'DESC' };
    for (const [field] of this.resource.defaultSort) order[field] ??= 'DESC';
    order[id] ??= 'DESC';
    return [order, this.defaultSortIndex];
  }
}
