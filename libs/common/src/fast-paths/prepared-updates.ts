import { EntityManager, EntityMetadata, FindOptionsWhere, ObjectLiteral } from 'typeorm';
import { BoundSlot, conditionShape, orderedFields, StatementMarkers, whereParameter } from './prepared-statement';
import { pooledStatement } from './pooled-statement';

interface Prepared {
  sql: string;
  slots: BoundSlot[];
}

const isSqlExpression = (value: unknown): boolean => typeof value === 'function';

/**
 * UPDATEs of given columns by conditions (as PreparedFinds takes them) whose SQL TypeORM builds once per
 * shape (the columns set, the fields compared and how) instead of on every call. Each call's values are
 * bound as TypeORM binds them: set values through the driver's preparation of the column (its transformer
 * included), compared values through the column's transformer. SQL expressions as values, other kinds of
 * conditions, and entities with update listeners or subscribers take the query builder's way (undefined).
 */
export class PreparedUpdates<E extends ObjectLiteral> {
  private readonly prepared = new Map<string, Prepared | null>();

  constructor(private readonly metadata: EntityMetadata) {}

  /** How many rows matched, or undefined when this update is not prepared. */
  update(manager: EntityManager, where: FindOptionsWhere<E>, set: Partial<E>): Promise<number> | undefined {
    const conditions = where as Record<string, unknown>;
    const shape = conditionShape(conditions);
    const columns = Object.keys(set).filter((column) => set[column] !== undefined);
    if (shape === undefined || columns.some((column) => isSqlExpression(set[column]))) return undefined;
    const key = `${columns.join(',')}|${shape}`;
    let statement = this.prepared.get(key);
    if (statement === undefined)
      this.prepared.set(key, (statement = this.prepare(manager, columns, orderedFields(conditions), conditions)));
    return statement ? this.run(manager, statement, conditions, set) : undefined;
  }

  private async run(
    manager: EntityManager,
    { sql, slots }: Prepared,
    conditions: Record<string, unknown>,
    set: Partial<E>,
  ): Promise<number> {
    const { driver } = manager.connection;
    const parameters = slots.map((slot) =>
      slot.source === 'set' ? driver.preparePersistentValue(set[slot.field], slot.column) : whereParameter(conditions, slot),
    );
    const pooled = pooledStatement(manager);
    if (pooled) return ((await pooled(sql, parameters)) as { affectedRows: number }).affectedRows;
    const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
    try {
      return (await runner.query(sql, parameters, true)).affected ?? 0;
    } finally {
      if (runner !== manager.queryRunner) await runner.release();
    }
  }

  private prepare(manager: EntityManager, columns: string[], fields: string[], conditions: Record<string, unknown>): Prepared | null {
    const { metadata } = this;
    if (metadata.beforeUpdateListeners.length || metadata.afterUpdateListeners.length || manager.connection.subscribers.length) return null;
    const markers = new StatementMarkers(metadata);
    const set = Object.fromEntries(columns.map((field) => [field, markers.mark({ source: 'set', field, index: -1 })]));
    const [sql, parameters] = manager
      .createQueryBuilder()
      .update(metadata.target)
      .set(set as never)
      .where(markers.where(conditions, fields))
      .getQueryAndParameters();
    const slots = markers.slotsOf(parameters);
    return slots && { sql, slots };
  }
}
