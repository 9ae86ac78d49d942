import { EntityManager } from 'typeorm';
import { TenantScope } from '../tenancy/tenant-scope';
import { DueRows } from './due-rows';

/**
 * The one statement by which retention removes rows: the given rows of the scope's tenant that are still
 * due, by primary key, in `manager`'s transaction, stamped first so their PURGE history entries name the
 * retention's writer (`system`); returns how many went. An exact per-(resource, tenant)
 * count of live records kept beside the rows goes down by that number here when `rows.live` (removing
 * logically deleted rows leaves it as it is).
 */
export async function removeBatch(manager: EntityManager, rows: DueRows, scope: TenantScope, ids: string[]): Promise<number> {
  return rows.removeStamped(scope, rows.matching(ids), manager);
}
