import { Brackets, EntityManager, ObjectLiteral, SelectQueryBuilder, WhereExpressionBuilder } from 'typeorm';
import type { ColumnMetadata } from '../../persistence/sql/prepared-statement';
import type { SortOrder } from '../tables/page-window';

type Row = Record<string, unknown>;

/** One key of the order: its column and direction. */
interface OrderKey {
  column: ColumnMetadata;
  direction: 'ASC' | 'DESC';
}

/**
 * The rows `query` selects, in `order`, `batchSize` at a time: each batch one statement that starts after the last
 * row of the one before by the order's keys (keyset), so every statement reads one batch off the order's index
 * however far into the rows it is. The order ends with the identifier, so no two rows tie and none is read twice
 * or skipped. `query` is a builder over the rows (its conditions, aliased `alias`), read in `manager`'s snapshot;
 * `columns` are those the rows carry, hydrated as a find would (transformers applied), in that order.
 *
 * NULL sorts first ascending and last descending on both engines; a nullable key's "after" says so.
 */
export async function* keysetBatches(
  query: () => SelectQueryBuilder<ObjectLiteral>,
  alias: string,
  columns: ColumnMetadata[],
  order: SortOrder,
  batchSize: number,
  manager: EntityManager,
): AsyncGenerator<Row[]> {
  const metadata = columns[0].entityMetadata;
  const keys: OrderKey[] = Object.entries(order).map(([property, direction]) => ({
    column: metadata.findColumnWithPropertyPath(property)!,
    direction,
  }));
  const driver = manager.connection.driver;
  let last: Row | undefined;
  for (;;) {
    const builder = query();
    builder.select(`${alias}.${columns[0].propertyPath}`, 'c0');
    columns.slice(1).forEach((column, i) => builder.addSelect(`${alias}.${column.propertyPath}`, `c${i + 1}`));
    if (last) after(builder, alias, keys, last, (value, column) => driver.preparePersistentValue(value, column));
    keys.forEach(({ column, direction }, i) => builder[i === 0 ? 'orderBy' : 'addOrderBy'](`${alias}.${column.propertyPath}`, direction));
    const raw = await builder.limit(batchSize).getRawMany<Row>();
    if (!raw.length) return;
    const rows = raw.map((r) => {
      const row: Row = {};
      columns.forEach((column, i) => (row[column.propertyName] = driver.prepareHydratedValue(r[`c${i}`], column)));
      return row;
    });
    yield rows;
    if (rows.length < batchSize) return;
    last = rows[rows.length - 1];
  }
}

/**
 * The rows after `last` in the order of `keys`: for some key, every key before it equal to last's and that key after
 * it. The first key also bounds the range on its own (at or after last's value) where it can, so the server reads the
 * index from there rather than testing the disjunction row by row from the start.
 */
function after(
  builder: SelectQueryBuilder<ObjectLiteral>,
  alias: string,
  keys: OrderKey[],
  last: Row,
  stored: (value: unknown, column: ColumnMetadata) => unknown,
): void {
  const parameters: Row = {};
  const name = (i: number) => `keyset${i}`;
  keys.forEach(({ column }, i) => (parameters[name(i)] = stored(last[column.propertyName], column)));
  const ref = (i: number) => `${alias}.${keys[i].column.propertyPath}`;
  const isNull = (i: number) => parameters[name(i)] === null || parameters[name(i)] === undefined;
  const equal = (i: number) => (isNull(i) ? `${ref(i)} IS NULL` : `${ref(i)} = :${name(i)}`);
  const beyond = (i: number): string => {
    const { direction, column } = keys[i];
    if (direction === 'ASC') return isNull(i) ? `${ref(i)} IS NOT NULL` : `${ref(i)} > :${name(i)}`;
    if (isNull(i)) return '1 = 0';
    return column.isNullable ? `(${ref(i)} < :${name(i)} OR ${ref(i)} IS NULL)` : `${ref(i)} < :${name(i)}`;
  };
  const first = keys[0];
  if (!isNull(0) && (first.direction === 'ASC' || !first.column.isNullable))
    builder.andWhere(`${ref(0)} ${first.direction === 'ASC' ? '>=' : '<='} :${name(0)}`);
  builder.andWhere(
    new Brackets((or: WhereExpressionBuilder) => {
      keys.forEach((_, i) => {
        const terms = [...keys.slice(0, i).map((__, j) => equal(j)), beyond(i)].join(' AND ');
        or.orWhere(`(${terms})`);
      });
    }),
  );
  builder.setParameters(parameters);
}

/**
 * The items of `source`, each handed on while the next is already being read: the statement of the next batch
 * runs on the database while this one is written (two batches in memory at most, not one).
 */
export async function* readingAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let next = iterator.next();
  try {
    for (;;) {
      const item = await next;
      if (item.done) return;
      next = iterator.next();
      // a read ahead that fails once the consumer has stopped (its client gone) is nobody's to answer
      next.catch(() => undefined);
      yield item.value;
    }
  } finally {
    // the consumer stopped early: the source ends after the read in flight (not awaited: stopping is at once)
    void iterator.return?.(undefined).catch(() => undefined);
  }
}
