import { EntityManager, EntityMetadata, FindOptionsSelect, FindOptionsWhere, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { FindShape } from '../../crud/tables/find-shape';
import { PageWindow, reversedOrder, SortOrder } from '../../crud/tables/page-window';
import { deferredJoin } from '../../crud/tables/deferred-join';
import { BoundSlot, ColumnMetadata, conditionShape, orderedFields, StatementMarkers, whereParameter } from './prepared-statement';
import { selectRows } from './run-statement';

/** One statement, as TypeORM wrote it, where each call's values go in its parameters. */
interface Prepared {
  sql: string;
  slots: BoundSlot[];
}

/** The result alias of the i-th selected column. */
const alias = (i: number): string => `c${i}`;

/** The builder reading `columns` of `name`, column i as `c<i>` (where the rows are read from). */
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

/** A statement of a find's shape, built with the conditions given: markers (to prepare it) or this call's values. */
type Build<E extends ObjectLiteral> = (where: FindOptionsWhere<E>) => SelectQueryBuilder<E>;

/**
 * The tables' finds, counts and pages, each a statement run by run-statement.ts and its rows read into entities
 * through the entity's metadata as TypeORM reads them (each selected column under its own alias, hydrated by the
 * driver: transformers included), so a find returns what the repository's would. A statement's SQL is built by
 * TypeORM's query builder once per shape (the fields compared and how, the columns selected, the order, offset and
 * limit), with a marker in place of each value, and each call binds its own: building statements and their column
 * aliases was most of TypeORM's time in the service's lightest requests. Conditions prepared are equality, IS NULL,
 * >=, <= and BETWEEN; a find by any other (In, Like, Raw, ...) and a page past the first are built for their call.
 * The entity may select plain columns only, and have no load listeners nor its data source subscribers: none is
 * called on this way.
 */
export class PreparedFinds<E extends ObjectLiteral> {
  private readonly prepared = new Map<string, Prepared | null>();

  constructor(private readonly metadata: EntityMetadata) {}

  /** The rows matching `where` in `shape`. */
  async find(manager: EntityManager, where: FindOptionsWhere<E>, shape: FindShape<E>): Promise<E[]> {
    const columns = selectedColumns(this.metadata, shape.select as FindOptionsSelect<ObjectLiteral>);
    if (!columns) throw new Error(`a find of ${this.metadata.name} selects plain columns only: ${JSON.stringify(shape.select)}`);
    const build: Build<E> = (conditions) =>
      selectAliased(manager.createQueryBuilder<E>(this.metadata.target, this.metadata.name), this.metadata.name, columns).setFindOptions({
        where: conditions,
        order: shape.order,
        take: shape.take,
        skip: shape.skip,
      });
    return this.entities(manager, columns, this.run(manager, where, `find|${JSON.stringify(shape)}`, build));
  }

  /**
   * The page `window` describes of the rows matching `where` in `order`, in `order`: a deferred join
   * (crud/tables/deferred-join.ts). Only a first window's statement is kept: later offsets are unbounded, so their
   * shapes would fill the cache. `index`: the one index the page's keys are read on (deferred-join.ts).
   */
  async findPage(
    manager: EntityManager,
    where: FindOptionsWhere<E>,
    order: SortOrder,
    window: PageWindow,
    idField: string,
    index?: string,
  ): Promise<E[]> {
    const columns = selectedColumns(this.metadata, undefined)!;
    const read = window.reversed ? reversedOrder(order) : order;
    const build: Build<E> = (conditions) =>
      selectAliased(deferredJoin(manager, this.metadata.target, conditions, idField, read, window, index), 'r', columns);
    const first = window.skip === 0 && !window.reversed;
    const rows = await this.entities(
      manager,
      columns,
      this.run(manager, where, first ? `page|${idField}|${window.take}|${JSON.stringify(order)}|${index ?? ''}` : undefined, build),
    );
    return window.reversed ? rows.reverse() : rows;
  }

  /** How many rows match `where`. */
  async count(manager: EntityManager, where: FindOptionsWhere<E>): Promise<number> {
    const build: Build<E> = (conditions) =>
      manager.createQueryBuilder<E>(this.metadata.target, this.metadata.name).where(conditions).select('COUNT(1)', 'cnt');
    const [row] = await this.run(manager, where, 'count', build);
    return Number(row.cnt);
  }

  /** The statement's rows: the one of this shape (`kind`, kept once prepared) where there is one, else one built for this call. */
  private run(manager: EntityManager, where: FindOptionsWhere<E>, kind: string | undefined, build: Build<E>): Promise<ObjectLiteral[]> {
    if (this.metadata.afterLoadListeners.length || manager.dataSource.subscribers.length)
      throw new Error(`${this.metadata.name} is read by its table's own statements: no load listeners or subscribers are called`);
    const statement = kind === undefined ? undefined : this.statement(manager, where, kind, build);
    if (statement) return selectRows(manager, statement.sql, this.values(statement, where), 'repeated');
    const [sql, parameters] = build(where).getQueryAndParameters();
    return selectRows(manager, sql, parameters, 'once');
  }

  /** Each row as an entity, its selected columns hydrated by the driver; a row of nulls only is none, as TypeORM has it. */
  private async entities(manager: EntityManager, columns: ColumnMetadata[], read: Promise<ObjectLiteral[]>): Promise<E[]> {
    const rows = await read;
    const { driver } = manager.dataSource;
    const entities: E[] = [];
    for (const row of rows) {
      const entity = this.metadata.create(undefined, { fromDeserializer: true }) as E;
      let hasData = false;
      columns.forEach((column, i) => {
        const value: unknown = row[alias(i)];
        if (value === undefined) return;
        if (value !== null) hasData = true;
        column.setEntityValue(entity, driver.prepareHydratedValue(value, column));
      });
      if (hasData) entities.push(entity);
    }
    return entities;
  }

  /** The statement of this shape (prepared on its first call), or undefined when its conditions are not of a prepared kind. */
  private statement(manager: EntityManager, where: FindOptionsWhere<E>, kind: string, build: Build<E>): Prepared | undefined {
    const conditions = where as Record<string, unknown>;
    const shape = conditionShape(conditions);
    if (shape === undefined) return undefined;
    const key = `${kind}|${shape}`;
    let statement = this.prepared.get(key);
    if (statement === undefined) this.prepared.set(key, (statement = this.prepare(orderedFields(conditions), conditions, build)));
    return statement ?? undefined;
  }

  private values(statement: Prepared, where: FindOptionsWhere<E>): unknown[] {
    return statement.slots.map((slot) => whereParameter(where as Record<string, unknown>, slot));
  }

  private prepare(fields: string[], conditions: Record<string, unknown>, build: Build<E>): Prepared | null {
    const markers = new StatementMarkers(this.metadata);
    const [sql, parameters] = build(markers.where(conditions, fields) as FindOptionsWhere<E>).getQueryAndParameters();
    const slots = markers.slotsOf(parameters);
    return slots && { sql, slots };
  }
}
