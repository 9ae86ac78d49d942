import { Between, FindOptionsOrder, LessThanOrEqual, MoreThanOrEqual } from 'typeorm';
import { CrudConfig } from '../../config/crud.config';
import { AppException } from '../../http/app-exception';
import { WithExtra } from '../../http/envelope';
import { BaseRecord } from '../../persistence/base-record';
import { TenantScope } from '../../tenancy/tenant-scope';
import { ListVersions } from '../caches/list-versions';
import { LiveRecordTable } from '../tables/live-record-table';
import { PageTotals, totalShownByRows } from '../caches/page-totals';
import { ListControls, PageControls } from '../http/query-controls';
import { AnyResource, Resource } from '../fields/resource';
import { TenantFilter } from '../tables/tenant-table';
import { message } from '../../i18n/message';

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
    private readonly versions: ListVersions,
  ) {}

  count(scope: TenantScope, body: Row): Promise<number> {
    return this.table.count(scope, this.filter(body));
  }

  getById(scope: TenantScope, id: string): Promise<E | null> {
    return this.table.findOne(scope, { [this.resource.idField]: id } as TenantFilter<E>);
  }

  /** At most sqlQueryLimit records, never more than LIST_LIMIT_MAX, in the requested or default order. */
  async list(scope: TenantScope, body: Row & ListControls): Promise<E[]> {
    const limit = Math.min(body.sqlQueryLimit ?? this.config.listLimitMax, this.config.listLimitMax);
    if (limit === 0) return [];
    return this.table.find(scope, this.filter(body), { order: this.order(body), take: limit });
  }

  /**
   * The page's rows and `total` (docs/contract.md "Page totals"): counted with the rows when PAGE_TOTAL_TTL_MS
   * is 0; otherwise shown by the rows when they reach the end, or a count of this replica made for the same
   * tenant and filter at the current write version within the TTL, or counted now.
   */
  async page(scope: TenantScope, body: Row & PageControls): Promise<WithExtra<E[]>> {
    const current = body.current ?? 0;
    const pageSize = body.pageSize ?? 0;
    if (pageSize > this.config.pageSizeMax) throw AppException.validation(`pageSize must not be greater than ${this.config.pageSizeMax}`);
    const filter = this.filter(body);
    const offset = (Math.max(current, 1) - 1) * pageSize;
    const rows =
      pageSize === 0 ? Promise.resolve([]) : this.table.find(scope, filter, { order: this.order(body), skip: offset, take: pageSize });
    const count = () => this.table.count(scope, filter);
    const [data, total] =
      this.config.pageTotalTtlMs === 0
        ? await Promise.all([rows, count()])
        : await this.rowsAndKnownTotal(scope, body, rows, offset, pageSize, count);
    return new WithExtra(data, { current, pages: pageSize === 0 ? 0 : Math.ceil(total / pageSize), size: pageSize, total });
  }

  private async rowsAndKnownTotal(
    scope: TenantScope,
    body: Row,
    rows: Promise<E[]>,
    offset: number,
    pageSize: number,
    count: () => Promise<number>,
  ): Promise<[E[], number]> {
    // read before counting: a count made while a write is under way keeps the older version
    const [data, version] = await Promise.all([rows, this.versions.stamp(this.resource.path, [scope.tenantId])]);
    const shown = totalShownByRows(offset, pageSize, data.length);
    if (shown !== undefined) return [data, shown];
    const filterKey = JSON.stringify([givenFilters(this.resource, body), timeRangeOf(this.resource, body) ?? null]);
    return [data, await this.totals.getOrCount(this.resource.path, scope.tenantId, filterKey, version, this.config.pageTotalTtlMs, count)];
  }

  /** The body's filters and time range as conditions on the scope's live records. */
  private filter(body: Row): TenantFilter<E> {
    const filter: Row = givenFilters(this.resource, body);
    const range = timeRangeOf(this.resource, body);
    if (range?.start !== undefined && range.end !== undefined) filter[range.field] = Between(range.start, range.end);
    else if (range?.start !== undefined) filter[range.field] = MoreThanOrEqual(range.start);
    else if (range?.end !== undefined) filter[range.field] = LessThanOrEqual(range.end);
    return filter as TenantFilter<E>;
  }

  private order(controls: ListControls): FindOptionsOrder<E> {
    const sorter = controls.sqlQuerySorter;
    if (sorter && !(this.resource.sortable as string[]).includes(sorter.field))
      throw AppException.validation(
        message('{{property}} must be one of: {{values}}', { property: 'sqlQuerySorter.field', values: this.resource.sortable.join(', ') }),
      );
    const sorts: [string, 'ASC' | 'DESC'][] = sorter
      ? [[sorter.field, sorter.order === 'descend' ? 'DESC' : 'ASC']]
      : this.resource.defaultSort;
    // ties broken by the identifier in the last key's direction: an index (tenant, live, ..., key) ends with the
    // primary key, so it serves the whole order (a backward scan for DESC) with no sort of the matching rows
    const order: Record<string, 'ASC' | 'DESC'> = Object.fromEntries(sorts);
    order[this.resource.idField] ??= sorts[sorts.length - 1][1];
    return order as FindOptionsOrder<E>;
  }
}
