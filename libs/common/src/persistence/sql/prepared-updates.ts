import { EntityManager, EntityMetadata, FindOptionsWhere, ObjectLiteral } from 'typeorm';
import { BoundSlot, conditionShape, orderedFields, StatementMarkers, whereParameter } from './prepared-statement';
import { changeRows } from './run-statement';

interface Prepared {
  sql: string;
  slots: BoundSlot[];
}

const isSqlExpression = (value: unknown): boolean => typeof value === 'function';

/**
 * The tables' UPDATEs of given columns by conditions (as PreparedFinds takes them), run by run-statement.ts. A
 * statement's SQL is built by TypeORM's query builder once per shape (the columns set, the fields compared and how)
 * and each call binds its values as TypeORM binds them: set values through the driver's preparation of the column
 * (its transformer included), compared values through the column's transformer. An update that sets an SQL
 * expression or compares by another kind of condition is built for its call. The entity may have no update listeners
 * nor its data source subscribers: none is called on this way.
 */
export class PreparedUpdates<E extends ObjectLiteral> {
  private readonly prepared = new Map<string, Prepared | null>();

  constructor(private readonly metadata: EntityMetadata) {}

  /** Sets exactly `set` on the rows matching `where`; how many rows matched. */
  async update(manager: EntityManager, where: FindOptionsWhere<E>, set: Partial<E>): Promise<number> {
    const { metadata } = this;
    if (metadata.beforeUpdateListeners.length || metadata.afterUpdateListeners.length || manager.dataSource.subscribers.length)
      throw new Error(`${metadata.name} is updated by its table's own statements: no update listeners or subscribers are called`);
    const conditions = where as Record<string, unknown>;
    const statement = this.statement(manager, conditions, set);
    if (statement) return changeRows(manager, statement.sql, this.parameters(manager, statement, conditions, set), 'repeated');
    const [sql, parameters] = this.builder(manager, set, where).getQueryAndParameters();
    return changeRows(manager, sql, parameters, 'once');
  }

  /** The statement of this update's shape (prepared on its first call), or undefined when it is built for its call. */
  private statement(manager: EntityManager, conditions: Record<string, unknown>, set: Partial<E>): Prepared | undefined {
    const shape = conditionShape(conditions);
    const columns = Object.keys(set).filter((column) => set[column] !== undefined);
    if (shape === undefined || columns.some((column) => isSqlExpression(set[column]))) return undefined;
    const key = `${columns.join(',')}|${shape}`;
    let statement = this.prepared.get(key);
    if (statement === undefined)
      this.prepared.set(key, (statement = this.prepare(manager, columns, orderedFields(conditions), conditions)));
    return statement ?? undefined;
  }

  private parameters(manager: EntityManager, { slots }: Prepared, conditions: Record<string, unknown>, set: Partial<E>): unknown[] {
    const { driver } = manager.dataSource;
    return slots.map((slot) =>
      slot.source === 'set' ? driver.preparePersistentValue(set[slot.field], slot.column) : whereParameter(conditions, slot),
    );
  }

  private builder(manager: EntityManager, set: object, where: object) {
    return manager
      .createQueryBuilder()
      .update(this.metadata.target)
      .set(set as never)
      .where(where);
  }

  private prepare(manager: EntityManager, columns: string[], fields: string[], conditions: Record<string, unknown>): Prepared | null {
    const markers = new StatementMarkers(this.metadata);
    const set = Object.fromEntries(columns.map((field) => [field, markers.mark({ source: 'set', field, index: -1 })]));
    const [sql, parameters] = this.builder(manager, set, markers.where(conditions, fields)).getQueryAndParameters();
    const slots = markers.slotsOf(parameters);
    return slots && { sql, slots };
  }
}
