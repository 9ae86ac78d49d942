import { EntityManager, EntityMetadata, FindOptionsSelect, FindOptionsWhere, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { FindShape } from '../crud/tables/find-shape';
import type { PageWindow, SortOrder } from '../crud/tables/page-window';
import { deferredJoin } from '../crud/tables/deferred-join';
import { BoundSlot, ColumnMetadata, conditionShape, orderedFields, StatementMarkers, whereParameter } from './prepared-statement';
import { pooledStatement } from './pooled-statement';

/** One statement, as TypeORM wrote it, where each call's values go in its parameters, and the columns it reads. */
interface Prepared {
  sql: string;
  slots: BoundSlot[];
  /** The selected columns: column i is read from the result's `c<i>`. */
  columns: ColumnMetadata[];
}

/** The result alias of the i-th selected column. */
const alias = (i: number): string => `c${i}`;

/** The builder reading `columns` of `name`, column i as `c<i>`. */
function selectAliased<E extends ObjectLiteral>(
  builder: SelectQueryBuilder<E>,
  name: string,
  columns: ColumnMetadata[],
): SelectQueryBuilder<E> {
  builder.select(`${name}.${columns[0].propertyPath}`, alias(0));
  columns.slice(1).forEach((column, i) => builder.addSelect(`${name}.${column.propertyPath}`, alias(i + 1)));
  return builder;
}

/**
 * The columns a find reads, as the repository's find selects them: the listed ones, else every column not
 * declared `select: false`. Undefined for a selection of anything but plain columns (embedded, relations).
 */
function selectedColumns(metadata: EntityMetadata, select: FindOptionsSelect<ObjectLiteral> | undefined): ColumnMetadata[] | undefined {
  if (!select) return metadata.columns.filter((column) => column.isSelect);
  const columns: ColumnMetadata[] = [];
  for (const [property, wanted] of Object.entries(select)) {
    const column = metadata.findColumnWithPropertyPath(property);
    if (!column || typeof wanted !== 'boolean') return undefined;
    if (wanted) columns.push(column);
  }
  return columns.length ? columns : undefined;
}

/**
 * Finds, counts and first pages whose SQL TypeORM builds once per shape (the fields compared and how, the columns
 * selected, the order, offset and limit) instead of on every call: building statements and their column
 * aliases was most of TypeORM's time in the service's lightest requests. Each selected column gets its own
 * result alias, and rows are read into entities through the entity's metadata as TypeORM reads them (the
 * driver's hydration, transformers included), so a prepared find returns what the repository's would.
 * Conditions are equality, IS NULL, >=, <= and BETWEEN; any other (In, Like, ...), selections of more than
 * plain columns, and entities with load listeners or subscribers take the repository's way (undefined).
 */
export class PreparedFinds<E extends ObjectLiteral> {
  private readonly prepared = new Map<string, Prepared | null>();

  constructor(private readonly metadata: EntityMetadata) {}

  /** The rows matching `where`, or undefined when this find is not prepared. */
  find(manager: EntityManager, where: FindOptionsWhere<E>, shape: FindShape<E>): Promise<E[]> | undefined {
    const statement = this.statement(manager, where, `find|${JSON.stringify(shape)}`, (marked) => {
      const columns = selectedColumns(this.metadata, shape.select as FindOptionsSelect<ObjectLiteral>);
      if (!columns) return undefined;
      const builder = selectAliased(manager.createQueryBuilder<E>(this.metadata.target, this.metadata.name), this.metadata.name, columns);
      return { builder: builder.setFindOptions({ where: marked, order: shape.order, take: shape.take, skip: shape.skip }), columns };
    });
    return statement && this.rows(manager, statement, where);
  }

  /**
   * A first page (LiveRecordTable.findPage's deferred join, the same statement), or undefined when it is not
   * prepared. Later windows are not: their offsets are unbounded, so their shapes would fill the cache.
   */
  findPage(
    manager: EntityManager,
    where: FindOptionsWhere<E>,
    order: SortOrder,
    window: PageWindow,
    idField: string,
  ): Promise<E[]> | undefined {
    if (window.skip !== 0 || window.reversed) return undefined;
    const statement = this.statement(manager, where, `page|${idField}|${window.take}|${JSON.stringify(order)}`, (marked) => {
      const columns = selectedColumns(this.metadata, undefined)!;
      return { builder: selectAliased(deferredJoin(manager, this.metadata.target, marked, idField, order, window), 'r', columns), columns };
    });
    return statement && this.rows(manager, statement, where);
  }

  /** How many rows match `where`, or undefined when this count is not prepared. */
  count(manager: EntityManager, where: FindOptionsWhere<E>): Promise<number> | undefined {
    const statement = this.statement(manager, where, 'count', (marked) => ({
      builder: manager.createQueryBuilder<E>(this.metadata.target, this.metadata.name).where(marked).select('COUNT(1)', 'cnt'),
      columns: [],
    }));
    return statement && this.run(manager, statement, where).then((rows) => Number(rows[0].cnt));
  }

  /** The statement's rows: on mysql2's pool where it can (pooled-statement.ts), else through TypeORM. */
  private run(manager: EntityManager, statement: Prepared, where: FindOptionsWhere<E>): Promise<ObjectLiteral[]> {
    const values = this.values(statement, where);
    const pooled = pooledStatement(manager);
    return (pooled ? pooled(statement.sql, values) : manager.query(statement.sql, values)) as Promise<ObjectLiteral[]>;
  }

  /** Each row as an entity, its selected columns hydrated by the driver; a row of nulls only is none, as TypeORM has it. */
  private async rows(manager: EntityManager, statement: Prepared, where: FindOptionsWhere<E>): Promise<E[]> {
    const rows = await this.run(manager, statement, where);
    const { driver } = manager.connection;
    const entities: E[] = [];
    for (const row of rows) {
      const entity = this.metadata.create(undefined, { fromDeserializer: true }) as E;
      let hasData = false;
      statement.columns.forEach((column, i) => {
        const value: unknown = row[alias(i)];
        if (value === undefined) return;
        if (value !== null) hasData = true;
        column.setEntityValue(entity, driver.prepareHydratedValue(value, column));
      });
      if (hasData) entities.push(entity);
    }
    return entities;
  }

  /** The statement of this shape (prepared on its first call), or undefined when it cannot be prepared. */
  private statement(
    manager: EntityManager,
    where: FindOptionsWhere<E>,
    kind: string,
    build: (marked: FindOptionsWhere<E>) => { builder: SelectQueryBuilder<E>; columns: ColumnMetadata[] } | undefined,
  ): Prepared | undefined {
    const conditions = where as Record<string, unknown>;
    const shape = conditionShape(conditions);
    if (shape === undefined) return undefined;
    const key = `${kind}|${shape}`;
    let statement = this.prepared.get(key);
    if (statement === undefined) this.prepared.set(key, (statement = this.prepare(manager, orderedFields(conditions), conditions, build)));
    return statement ?? undefined;
  }

  private values(statement: Prepared, where: FindOptionsWhere<E>): unknown[] {
    return statement.slots.map((slot) => whereParameter(where as Record<string, unknown>, slot));
  }

  private prepare(
    manager: EntityManager,
    fields: string[],
    conditions: Record<string, unknown>,
    build: (marked: FindOptionsWhere<E>) => { builder: SelectQueryBuilder<E>; columns: ColumnMetadata[] } | undefined,
  ): Prepared | null {
    if (this.metadata.afterLoadListeners.length || manager.connection.subscribers.length) return null;
    const markers = new StatementMarkers(this.metadata);
    const built = build(markers.where(conditions, fields) as FindOptionsWhere<E>);
    if (!built) return null;
    const [sql, parameters] = built.builder.getQueryAndParameters();
    const slots = markers.slotsOf(parameters);
    return slots && { sql, slots, columns: built.columns };
  }
}
