import {
  EntityManager,
  EntityMetadata,
  FindOptionsOrder,
  FindOptionsSelect,
  FindOptionsWhere,
  ObjectLiteral,
  SelectQueryBuilder,
} from 'typeorm';
import { RawSqlResultsToEntityTransformer } from 'typeorm/query-builder/transformer/RawSqlResultsToEntityTransformer';
import { BoundSlot, conditionShape, preparableFields, StatementMarkers, whereParameter } from './prepared-statement';

/** What a find asks for besides its conditions. */
export interface FindShape<E> {
  select?: FindOptionsSelect<E>;
  order?: FindOptionsOrder<E>;
  take?: number;
  skip?: number;
}

/** One statement, as TypeORM wrote it, and where each call's values go in its parameters. */
interface Prepared<E extends ObjectLiteral> {
  builder: SelectQueryBuilder<E>;
  sql: string;
  slots: BoundSlot[];
}

/**
 * Finds and counts whose SQL TypeORM builds once per shape (the fields compared and how, the columns
 * selected, the order, offset and limit) instead of on every call: building statements and their column
 * aliases was most of TypeORM's time in the service's lightest requests. The rows are read into entities by
 * TypeORM's own transformer, so a prepared find returns exactly what the repository's would. Conditions are
 * equality, IS NULL, >=, <= and BETWEEN; any other (In, Like, ...), and entities with load listeners or
 * subscribers, take the repository's way (the methods answer undefined).
 */
export class PreparedFinds<E extends ObjectLiteral> {
  private readonly prepared = new Map<string, Prepared<E> | null>();

  constructor(private readonly metadata: EntityMetadata) {}

  /** The rows matching `where`, or undefined when this find is not prepared. */
  find(manager: EntityManager, where: FindOptionsWhere<E>, shape: FindShape<E>): Promise<E[]> | undefined {
    const statement = this.statement(manager, where, `find|${JSON.stringify(shape)}`, (marked) =>
      manager.createQueryBuilder<E>(this.metadata.target, this.metadata.name).setFindOptions({ ...shape, where: marked }),
    );
    return statement && this.rows(manager, statement, where);
  }

  /** How many rows match `where`, or undefined when this count is not prepared. */
  count(manager: EntityManager, where: FindOptionsWhere<E>): Promise<number> | undefined {
    const statement = this.statement(manager, where, 'count', (marked) =>
      manager.createQueryBuilder<E>(this.metadata.target, this.metadata.name).where(marked).select('COUNT(1)', 'cnt'),
    );
    return statement && manager.query(statement.sql, this.values(statement, where)).then((rows: { cnt: unknown }[]) => Number(rows[0].cnt));
  }

  private async rows(manager: EntityManager, statement: Prepared<E>, where: FindOptionsWhere<E>): Promise<E[]> {
    const rows = (await manager.query(statement.sql, this.values(statement, where))) as ObjectLiteral[];
    if (!rows.length) return [];
    const { expressionMap } = statement.builder;
    return new RawSqlResultsToEntityTransformer(expressionMap, manager.connection.driver, []).transform(
      rows,
      expressionMap.mainAlias!,
    ) as E[];
  }

  /** The statement of this shape (prepared on its first call), or undefined when a condition cannot be prepared. */
  private statement(
    manager: EntityManager,
    where: FindOptionsWhere<E>,
    kind: string,
    build: (marked: FindOptionsWhere<E>) => SelectQueryBuilder<E>,
  ): Prepared<E> | undefined {
    const conditions = where as Record<string, unknown>;
    const fields = preparableFields(conditions);
    if (!fields) return undefined;
    const key = `${kind}|${conditionShape(conditions, fields)}`;
    let statement = this.prepared.get(key);
    if (statement === undefined) this.prepared.set(key, (statement = this.prepare(manager, fields, conditions, build)));
    return statement ?? undefined;
  }

  private values(statement: Prepared<E>, where: FindOptionsWhere<E>): unknown[] {
    return statement.slots.map((slot) => whereParameter(where as Record<string, unknown>, slot));
  }

  private prepare(
    manager: EntityManager,
    fields: string[],
    conditions: Record<string, unknown>,
    build: (marked: FindOptionsWhere<E>) => SelectQueryBuilder<E>,
  ): Prepared<E> | null {
    if (this.metadata.afterLoadListeners.length || manager.connection.subscribers.length) return null;
    const markers = new StatementMarkers(this.metadata);
    const builder = build(markers.where(conditions, fields) as FindOptionsWhere<E>);
    const [sql, parameters] = builder.getQueryAndParameters();
    const slots = markers.slotsOf(parameters);
    return slots && { builder, sql, slots };
  }
}
