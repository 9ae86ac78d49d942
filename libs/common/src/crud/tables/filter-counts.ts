import { EntityMetadata } from 'typeorm';

/** TypeORM's column metadata, as its public types name it. */
type ColumnMetadata = EntityMetadata['columns'][number];

/**
 * Which filter columns have their live rows counted per value (filter_count, persistence/live-count-sql.ts): the
 * resources' exact filters whose values fit its key (MariaDB keys stop at 3072 bytes): varchar up to 255
 * characters, integers, booleans. Other filters (longer text, decimals, times) count the matching rows.
 */
export const FILTER_COUNT_VALUE_MAX = 255;

const INTEGER_TYPES = new Set(['int', 'integer', 'smallint', 'tinyint', 'mediumint']);
const BOOLEAN_TYPES = new Set(['boolean', 'bool']);
const TEXT_TYPES = new Set(['varchar', 'char', 'nvarchar', 'nchar']);

type EntityClass = abstract new (...args: never[]) => unknown;

/** The exact filters of each entity (of every resource declared on it), as defineResource declares them. */
const declaredFilters = new Map<unknown, Set<string>>();

/** Called by defineResource: the entity's exact filters are counted per value where their column allows it. */
export function declareFilterCounts(resource: { entity: EntityClass; filters: string[] }): void {
  const filters = declaredFilters.get(resource.entity) ?? new Set<string>();
  for (const filter of resource.filters) filters.add(filter);
  declaredFilters.set(resource.entity, filters);
}

type CountedKind = 'text' | 'integer' | 'boolean';

function countedKind(column: ColumnMetadata): CountedKind | undefined {
  const type = typeof column.type === 'string' ? column.type : '';
  if (INTEGER_TYPES.has(type)) return 'integer';
  if (BOOLEAN_TYPES.has(type)) return 'boolean';
  if (TEXT_TYPES.has(type) && Number(column.length) > 0 && Number(column.length) <= FILTER_COUNT_VALUE_MAX) return 'text';
  return undefined;
}

/** The database names of the record table's counted filter columns, in declaration order. */
export function countedFilterColumns(metadata: EntityMetadata): string[] {
  const filters = declaredFilters.get(metadata.target) ?? new Set<string>();
  return metadata.columns
    .filter((column) => filters.has(column.propertyName) && countedKind(column) !== undefined)
    .map((column) => column.databaseName);
}

/**
 * A filter value as the counts store it, or undefined where its count cannot answer the filter exactly (a value of
 * another type than the column's, which the database would convert before comparing: '05' equals 5).
 */
export function filterCountValue(column: ColumnMetadata, value: unknown): string | undefined {
  switch (countedKind(column)) {
    case 'text':
      return typeof value === 'string' ? value : undefined;
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? (value ? '1' : '0') : undefined;
    default:
      return undefined;
  }
}
