import { EntityManager, EntityTarget, FindOptionsWhere, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { SortOrder } from './page-window';

/**
 * A page as a deferred join: the inner query reads the page's keys (tenant, identifier) on an index with the
 * conditions, `order`, offset and limit; the outer one reads those rows whole (aliased `r`) in the same order.
 * The one statement of LiveRecordTable.findPage, and of its prepared form (PreparedFinds.findPage). `index`, where
 * given, is the one index the inner query may read on MySQL/MariaDB (`USE INDEX`; other databases choose alone).
 */
export function deferredJoin<E extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<E>,
  where: FindOptionsWhere<E>,
  idField: string,
  order: SortOrder,
  { skip, take }: { skip: number; take: number },
  index?: string,
): SelectQueryBuilder<E> {
  const sorted = (alias: string) => Object.fromEntries(Object.entries(order).map(([field, direction]) => [`${alias}.${field}`, direction]));
  const keys = manager
    .createQueryBuilder(target, 'k')
    .where(where)
    .select('k.tenantId', 'page_tenant')
    .addSelect(`k.${idField}`, 'page_id')
    .orderBy(sorted('k'))
    .offset(skip)
    .limit(take);
  if (index) keys.useIndex(index);
  return manager
    .createQueryBuilder(target, 'r')
    .innerJoin(`(${keys.getQuery()})`, 'p', `p.page_tenant = r.tenantId AND p.page_id = r.${idField}`)
    .setParameters(keys.getParameters())
    .orderBy(sorted('r'));
}
