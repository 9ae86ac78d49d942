import { Between, EntityManager, FindOptionsOrder, LessThanOrEqual, MoreThanOrEqual } from 'typeorm';
import { CrudConfig } from '../../config/crud.config';
import { AppException } from '../../http/app-exception';
import { WithExtra } from '../../http/envelope';
import { BaseRecord } from '../../persistence/base-record';
import { TenantScope } from '../../tenancy/tenant-scope';
import { LiveRecordTable } from '../tables/live-record-table';
import { PageTotals, totalShownByRows } from '../tables/page-totals';
import { ListControls, PageControls } from '../http/query-controls';
import { AnyResource, Resource } from '../fields/resource';
import { TenantFilter } from '../tables/tenant-table';
import { pageWindow, SortOrder } from '../tables/page-window';
import { message } from '../../i18n/message';
import { pageOrder } from '../fields/page-order';

type Row = Record<string, unknown>;

export interface TimeRange {
  field: string;
  start?: number;
  end?: number;
}

/** The request's bounds on the resource's time field, if it has one (validated as integers by the DTO). */
export function timeRangeOf(resource: AnyResource, body: Row): TimeRange | undefined {
  const field = resource.timeRange;
  if (!field) return undefined;
  const bound = (suffix: string) => (body[`${field}${suffix}`] ?? undefined) as number | undefined;
  const [start, end] = [bound('Start'), bound('End')];
  if (start !== undefined && end !== undefined && start > end)
    throw AppException.validation(message('{{start}} must not be greater than {{end}}', { start: `${field}Start`, end: `${field}End` }));
  return { field, start, end };
}

/** The resource's exact-match filters given in a body (null and absent mean "any"). */
export function givenFilters(resource: AnyResource, body: Row): Row {
  const filters: Row = {};
  for (const field of resource.filters) if (body[field] !== undefined && body[field] !== null) filters[field] = body[field];
  return filters;
}

/** count, getById, list and page: filters, time range, sort and paging over a scope's live records. */
export class ResourceQuery<E extends BaseRecord> {
  constructor(
    private readonly resource: Resource<E>,
    private readonly table: LiveRecordTable<E>,
    private readonly config: CrudConfig,
    private readonly totals: PageTotals,
  ) {}

  /**
   * Without filters: the tenant's live count (live-counts.ts), no rows read; by one exact filter of a counted column,
   * that value's live count (filter-counts.ts), no rows read; else the matching rows counted.
   */
  async count(scope: TenantScope, body: Row): Promise<number> {
    const filter = this.filter(body);
    return (await this.keptTotal(scope, filter)) ?? this.table.count(scope, filter);
  }

  /** A total the triggers keep: the live count without filters, a value's live count by one counted exact filter. */
  private keptTotal(scope: TenantScope, filter: TenantFilter<E>, manager?: EntityManager): Promise<number | undefined> {
    return isUnfiltered(filter) ? this.table.countLive(scope, manager) : this.table.countByFilterCount(scope, filter, manager);
  }

  getById(scope: TenantScope, id: string): Promise<E | null> {
    return this.table.findOne(scope, { [this.resource.idField]: id } as TenantFilter<E>);
  }

  /** At most sqlQueryLimit records, never more than LIST_LIMIT_MAX, in the requested or default order. */
  async list(scope: TenantScope, body: Row & ListControls): Promise<E[]> {
    const limit = Math.min(body.sqlQueryLimit ?? this.config.listLimitMax, this.config.listLimitMax);
    if (limit === 0) return [];
    return this.firstRows(scope, this.filter(body), this.order(body), limit);
  }

  /**
   * The page's rows and `total` (docs/contract.md "Page totals"), both read in one snapshot of the tenant's rows.
   * The total is shown by the rows when they reach the end; else it is the live count without filters, or by one
   * exact filter of a counted column that value's live count (filter-counts.ts); with other filters, a count of this
   * replica made for the same tenant and filter at the snapshot's write version within PAGE_TOTAL_TTL_MS (0: never
   * reused), or counted now. A later page needs the total first: it is read from the
   * nearer end (page-window.ts), skipping rows by their keys only (LiveRecordTable.findPage).
   */
  async page(scope: TenantScope, body: Row & PageControls): Promise<WithExtra<E[]>> {
    const current = body.current ?? 0;
    const pageSize = body.pageSize ?? 0;
    if (pageSize > this.config.pageSizeMax) throw AppException.validation(`pageSize must not be greater than ${this.config.pageSizeMax}`);
    const filter = this.filter(body);
    const order = this.order(body);
    const offset = (Math.max(current, 1) - 1) * pageSize;
    const [data, total] = await this.table.snapshot(async (manager): Promise<[E[], number]> => {
      if (offset > 0) {
        const counted = await this.total(scope, body, filter, manager);
        const window = pageWindow(offset, pageSize, counted);
        return [window ? await this.table.findPage(scope, filter, order, window, manager) : [], counted];
      }
      const rows = pageSize === 0 ? [] : await this.firstRows(scope, filter, order, pageSize, manager);
      return [rows, totalShownByRows(0, pageSize, rows.length) ?? (await this.total(scope, body, filter, manager))];
    });
    return new WithExtra(data, { current, pages: pageSize === 0 ? 0 : Math.ceil(total / pageSize), size: pageSize, total });
  }

  /**
   * The first `take` rows in order. A filtered read finds its keys on an index first (the deferred join): reading
   * whole rows, the optimiser may prefer walking the order's index and skipping rows the filter rejects, which on a
   * large tenant reads far more rows than it returns.
   */
  private firstRows(scope: TenantScope, filter: TenantFilter<E>, order: SortOrder, take: number, manager?: EntityManager): Promise<E[]> {
    if (isUnfiltered(filter)) return this.table.find(scope, filter, { order: order as FindOptionsOrder<E>, take, manager });
    return this.table.findPage(scope, filter, order, { skip: 0, take, reversed: false }, manager);
  }

  /**
   * The total by the policy above, without the rows, in `manager`'s snapshot. A reused count is one made at the
   * snapshot's write version: a snapshot of the same version holds the same rows, so it is exact, not merely recent.
   */
  private async total(scope: TenantScope, body: Row, filter: TenantFilter<E>, manager: EntityManager): Promise<number> {
    const kept = await this.keptTotal(scope, filter, manager);
    if (kept !== undefined) return kept;
    const count = () => this.table.count(scope, filter, manager);
    if (this.config.pageTotalTtlMs === 0) return count();
    const [version] = (await this.table.versions([scope.tenantId], manager)) ?? [];
    if (version === undefined) return count();
    const filterKey = JSON.stringify([givenFilters(this.resource, body), timeRangeOf(this.resource, body) ?? null]);
    return this.totals.getOrCount(this.resource.path, scope.tenantId, filterKey, version, this.config.pageTotalTtlMs, count);
  }

  /**
   * How many live records match `filter` in `manager`'s snapshot: a total the triggers keep where there is one
   * (count above), else the matching rows counted.
   */
  async countIn(scope: TenantScope, filter: TenantFilter<E>, manager: EntityManager): Promise<number> {
    return (await this.keptTotal(scope, filter, manager)) ?? this.table.count(scope, filter, manager);
  }

  filter(body: Row): TenantFilter<E> {
    return filterOf(this.resource, body);
  }

  /** The requested sort (else the default one) with the tie-breakers of the index that serves it with these filters (page-order.ts). */
  order(body: Row & ListControls): SortOrder {
    const sorter = sorterOf(this.resource.sortable, body);
    return pageOrder(this.resource, Object.keys(givenFilters(this.resource, body)), sorter);
  }
}

/** The body's filters and time range as conditions on a scope's records. */
export function filterOf<E extends BaseRecord>(resource: Resource<E>, body: Row): TenantFilter<E> {
  const filter: Row = givenFilters(resource, body);
  const range = timeRangeOf(resource, body);
  if (range?.start !== undefined && range.end !== undefined) filter[range.field] = Between(range.start, range.end);
  else if (range?.start !== undefined) filter[range.field] = MoreThanOrEqual(range.start);
  else if (range?.end !== undefined) filter[range.field] = LessThanOrEqual(range.end);
  return filter as TenantFilter<E>;
}

/** The body's sqlQuerySorter as [field, direction], refused (400) unless its field is one of `sortable`. */
export function sorterOf(sortable: string[], body: ListControls): [string, 'ASC' | 'DESC'] | undefined {
  const sorter = body.sqlQuerySorter;
  if (!sorter) return undefined;
  if (!sortable.includes(sorter.field))
    throw AppException.validation(
      message('{{property}} must be one of: {{values}}', { property: 'sqlQuerySorter.field', values: sortable.join(', ') }),
    );
  return [sorter.field, sorter.order === 'descend' ? 'DESC' : 'ASC'];
}

function isUnfiltered(filter: object): boolean {
  return Object.keys(filter).length === 0;
}
