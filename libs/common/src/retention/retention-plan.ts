import { Between, DataSource, FindOptionsWhere, LessThanOrEqual, MoreThanOrEqual } from 'typeorm';
import { DAY_MS } from '../config/retention.config';
import type { AnyResource } from '../crud/fields/resource';
import { BaseRecord } from '../persistence/base-record';
import { LIVE } from '../persistence/columns';
import { AgeRetention } from './age-retention';
import { DueRows, TableTenants } from './due-rows';

/** Why rows were removed (the metric's label): deleted longer ago than the period, or older than their resource keeps. */
export type RemovalReason = 'deleted' | 'expired';

/** One kind of due rows of a table. */
export interface DueSelection {
  reason: RemovalReason;
  rows: DueRows;
}

/** One table's work in a pass: its tenants, and what of each tenant's rows is due. */
export interface TablePlan {
  table: string;
  tenants: TableTenants;
  selections: DueSelection[];
}

type Condition = FindOptionsWhere<BaseRecord & Record<string, unknown>>;

/**
 * What is due at `now`: with `purgeDays`, every given resource's records deleted before now minus that
 * period; with each age rule's period, its resources' records, live or deleted, whose main time field is
 * before now minus it. Tables without anything to remove are left out.
 */
export function planRemovals(
  dataSource: DataSource,
  resources: AnyResource[],
  purgeDays: number | undefined,
  ageRules: AgeRetention[],
  now: number,
): TablePlan[] {
  const plans = new Map<string, TablePlan>();
  const planOf = (resource: AnyResource): TablePlan => {
    const table = dataSource.getMetadata(resource.entity).tableName;
    let plan = plans.get(table);
    if (!plan) plans.set(table, (plan = { table, tenants: new TableTenants(resource.entity, dataSource), selections: [] }));
    return plan;
  };
  const select = (resource: AnyResource, reason: RemovalReason, due: Condition, oldestFirst: string, live: boolean) =>
    planOf(resource).selections.push({ reason, rows: new DueRows(resource.entity, resource.idField, dataSource, due, oldestFirst, live) });

  if (purgeDays !== undefined) {
    const cutoff = now - purgeDays * DAY_MS;
    for (const resource of resources) select(resource, 'deleted', { deleteTime: Between(LIVE + 1, cutoff - 1) }, 'deleteTime', false);
  }
  for (const rule of ageRules) {
    if (rule.days === undefined) continue;
    const before = LessThanOrEqual(now - rule.days * DAY_MS - 1);
    for (const resource of rule.resources) {
      const field = resource.timeRange as string;
      // live and deleted rows apart: each is then one range of the (tenant_id, delete_time, <time>) index
      select(resource, 'expired', { deleteTime: LIVE, [field]: before }, field, true);
      select(resource, 'expired', { deleteTime: MoreThanOrEqual(LIVE + 1), [field]: before }, 'deleteTime', false);
    }
  }
  return [...plans.values()].filter((plan) => plan.selections.length > 0);
}
