import type { SortOrder } from '../tables/page-window';
import { filterIndexColumns, IndexedResource } from './resource-indexes';

type Direction = 'ASC' | 'DESC';

/** What of a declaration decides the order of its pages. */
export interface OrderedResource extends IndexedResource {
  idField: string;
}

/**
 * The order of a page or list: the requested sort (else the default sort), then tie-breakers, then the identifier,
 * so no two rows tie. The tie-breakers are the columns of the index that serves the query, in the order they stand
 * there (InnoDB ends every secondary index with the primary key, tenant then identifier), so the index gives the
 * rows already in order and the server stops after one page of them:
 * - without an exact filter: the sort's own index, (tenant, live, <field>): the field, then the identifier; the
 *   default sort's index, (tenant, live, <default sort keys>): those keys, then the identifier;
 * - with one: the first given filter's index, (tenant, live, <filter>, <default sort keys>). A sort by a field the
 *   filters fix is the default order (the field is one value); a sort by the first default sort key not fixed is
 *   that key then the default keys after it, then the identifier, all in the sort's direction (a backward scan
 *   for the other one). Any other sort is the field then the identifier, on the field's own index (docs/indexes.md).
 */
export function pageOrder(r: OrderedResource, filterFields: string[], sorter?: [string, Direction]): SortOrder {
  const sorts = sorter ? [sorter] : r.defaultSort;
  const served = filterFields.map((f) => filterIndexColumns(r, f)).find((columns) => columns !== undefined);
  if (served) {
    const fixed = new Set(filterFields);
    const keys = served.slice(1).filter((k) => !fixed.has(k));
    const [field, direction] = sorts[0];
    const defaultDirection = r.defaultSort[r.defaultSort.length - 1][1];
    if (!sorter || fixed.has(field)) return ordered([...sorts, ...keys.map((k): [string, Direction] => [k, defaultDirection])], r.idField);
    if (field === keys[0]) return ordered([...keys.map((k): [string, Direction] => [k, direction])], r.idField);
  }
  return ordered(sorts, r.idField);
}

/** The keys in order (a repeated one keeps its first place and direction), then the identifier in the last key's direction. */
function ordered(sorts: [string, Direction][], idField: string): SortOrder {
  const order: SortOrder = {};
  for (const [field, direction] of sorts) order[field] ??= direction;
  order[idField] ??= sorts[sorts.length - 1][1];
  return order;
}
