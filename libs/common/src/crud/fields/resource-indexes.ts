import { createHash } from 'node:crypto';
import { getMetadataArgsStorage, Index } from 'typeorm';
import { SnakeNamingStrategy } from '../../persistence/snake-naming.strategy';
import { fieldsOf } from './field-registry';

/** A column's decorator arguments, as TypeORM's public types name them. */
type ColumnMetadataArgs = ReturnType<typeof getMetadataArgsStorage>['columns'][number];

/** What of a resource's declaration decides its indexes (a subset of Resource, so this file needs no DTO code). */
export interface IndexedResource {
  path: string;
  entity: abstract new (...args: never[]) => unknown;
  filters: string[];
  /** Including the base time fields every resource may sort by. */
  sortable: string[];
  defaultSort: [string, 'ASC' | 'DESC'][];
  timeRange?: string;
  uniqueKey?: string[];
  uniqueAcrossTenants?: boolean;
}

export interface DerivedIndex {
  name: string;
  /** Entity property names, in index order. */
  columns: string[];
  unique: boolean;
}

/** Every query of a resource starts with these equalities: the token's tenant and the live sentinel. */
const LIVE = ['tenantId', 'deleteTime'];
/** MySQL/MariaDB identifier limit. */
const NAME_MAX = 64;

const naming = new SnakeNamingStrategy();

/** The entity and its ancestors, base first: where its column and index declarations live. */
function classChain(entity: IndexedResource['entity']): object[] {
  const chain: object[] = [];
  for (let c: object | null = entity; c && c !== Function.prototype; c = Object.getPrototypeOf(c)) chain.unshift(c);
  return chain;
}

function columnsOf(entity: IndexedResource['entity']): Map<string, ColumnMetadataArgs> {
  const args = getMetadataArgsStorage().filterColumns(classChain(entity) as Function[]); // eslint-disable-line @typescript-eslint/no-unsafe-function-type
  return new Map(args.map((c) => [c.propertyName, c]));
}

function tableOf(r: IndexedResource): string {
  const table = getMetadataArgsStorage().tables.find((t) => t.target === r.entity)?.name;
  if (!table) throw new Error(`${r.path}: ${r.entity.name} has no @Entity table name`);
  return table;
}

/** `idx_<table>_<columns>`, past 64 characters cut and ended with a hash of the whole name (stable, still readable). */
export function indexName(prefix: 'idx' | 'uk', table: string, columnNames: string[]): string {
  const full = [prefix, table, ...columnNames].join('_');
  if (full.length <= NAME_MAX) return full;
  const hash = createHash('sha1').update(full).digest('hex').slice(0, 8);
  return `${full.slice(0, NAME_MAX - hash.length - 1)}_${hash}`;
}

/**
 * The indexes a resource's queries need, derived from its declaration (docs/indexes.md). A query is
 * `tenant_id = ? AND delete_time = 0`, the exact filters, the time range, `ORDER BY <keys>, <id>` (the id in
 * the last key's direction); InnoDB ends every secondary index with the primary key (tenant_id, id). So:
 * - the default sort: (tenant_id, delete_time, <default sort keys>); it also serves the time range, which
 *   must be the first default sort key;
 * - each exact filter: (tenant_id, delete_time, <filter>, <default sort keys>): equality, then range and order;
 *   except a filter on a one-field business key, which the unique index serves (at most one live row);
 * - each sortable field: (tenant_id, delete_time, <field>), for that sort without a filter;
 * - the business key: unique (tenant_id, <key>..., delete_time) (without the tenant when unique across tenants).
 * A combination of filters uses one filter's index and checks the others on the rows it reads; a filter
 * with a sort other than the default sorts that filter's rows. Identical column lists are made once.
 * Throws for a declaration no index can serve.
 */
export function resourceIndexes(r: IndexedResource): DerivedIndex[] {
  const columns = columnsOf(r.entity);
  const table = tableOf(r);
  const columnName = (property: string) => naming.columnName(property, columns.get(property)!.options.name, []);
  const indexable = (what: string, property: string) => {
    const column = columns.get(property);
    if (!column) throw new Error(`${r.path}: ${what} ${property} is not a column of ${r.entity.name}`);
    if (column.options.type === 'text') throw new Error(`${r.path}: ${what} ${property} is a TEXT column, which no index can hold whole`);
  };
  const sortKeys = r.defaultSort.map(([field]) => field);
  const directions = new Set(r.defaultSort.map(([, direction]) => direction));
  if (directions.size > 1) throw new Error(`${r.path}: defaultSort mixes directions, so no index scan serves it`);
  if (r.timeRange && sortKeys[0] !== r.timeRange)
    throw new Error(`${r.path}: defaultSort must start with the time-range field ${r.timeRange}, so one index serves range and order`);
  for (const f of r.filters) indexable('filter', f);
  for (const f of r.sortable) indexable('sortable field', f);
  for (const f of sortKeys) indexable('defaultSort field', f);
  for (const f of r.uniqueKey ?? []) indexable('uniqueKey field', f);
  // a key value with a trailing space would collide with the one without it (PAD SPACE) yet read as different
  const declared = new Map(fieldsOf(r.entity).map((field) => [field.property, field]));
  for (const f of r.uniqueKey ?? [])
    if (declared.has(f) && !declared.get(f)!.key) throw new Error(`${r.path}: uniqueKey field ${f} must be declared with key: true`);

  const lists: string[][] = [
    [...LIVE, ...sortKeys],
    ...r.filters.map((f) => filterIndexColumns(r, f)).flatMap((columns) => (columns ? [[...LIVE, ...columns]] : [])),
    ...r.sortable.map((f) => [...LIVE, f]),
  ];
  const byColumns = new Map<string, DerivedIndex>();
  for (const list of lists.filter((l) => l.length > LIVE.length))
    byColumns.set(list.join(), { name: indexName('idx', table, list.slice(LIVE.length).map(columnName)), columns: list, unique: false });
  const derived = [...byColumns.values()];
  if (r.uniqueKey?.length) {
    const key = [...(r.uniqueAcrossTenants ? [] : ['tenantId']), ...r.uniqueKey, 'deleteTime'];
    derived.push({ name: indexName('uk', table, []), columns: key, unique: true });
  }
  return derived;
}

/**
 * The name of the index that holds the default sort: (tenant, deletion time, the default sort's keys). A recycle
 * bin's page names it to MariaDB (crud/service/recycle-bin.ts): its range on the deletion time is read in this
 * index's order, but the optimiser's row estimates, sampled, can make a filesort of the whole tenant look cheaper.
 */
export function defaultSortIndex(r: IndexedResource): string | undefined {
  const columns = [...LIVE, ...r.defaultSort.map(([field]) => field)].join();
  return resourceIndexes(r).find((index) => !index.unique && index.columns.join() === columns)?.name;
}

/**
 * The columns after (tenant, live) of the index that serves the exact filter `field`: the field, then the default
 * sort keys. Undefined for a field that is no filter, or a filter on a one-field business key, which the unique
 * index serves (at most one live row).
 */
export function filterIndexColumns(r: IndexedResource, field: string): string[] | undefined {
  if (!r.filters.includes(field) || (r.uniqueKey?.length === 1 && r.uniqueKey[0] === field)) return undefined;
  return [field, ...r.defaultSort.map(([key]) => key).filter((key) => key !== field)];
}

/**
 * Declares a resource's derived indexes on its entity as TypeORM index metadata (so SQLite's synchronize,
 * the migrations' schema check and the EXPLAIN test see them). Called by defineResource, after the entity's
 * own decorators: a hand-written index with the same columns as a derived one is refused (one fact, one place).
 */
export function declareResourceIndexes(r: IndexedResource): void {
  const storage = getMetadataArgsStorage();
  const declared = storage.filterIndices(r.entity as Function); // eslint-disable-line @typescript-eslint/no-unsafe-function-type
  for (const index of resourceIndexes(r)) {
    const same = declared.find((d) => Array.isArray(d.columns) && d.columns.join() === index.columns.join() && !!d.unique === index.unique);
    // defining a second resource on the same entity finds the first one's indexes
    if (same?.name === index.name) continue;
    if (same) throw new Error(`${r.path}: index ${same.name} on ${r.entity.name} duplicates the derived ${index.name}; remove it`);
    if (declared.some((d) => d.name === index.name)) throw new Error(`${r.path}: index name ${index.name} is taken on ${r.entity.name}`);
    Index(index.name, index.columns, { unique: index.unique })(r.entity);
  }
}
