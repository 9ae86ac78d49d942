import { EntityManager, EntityMetadata, FindOperator, FindOptionsWhere, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { RawSqlResultsToEntityTransformer } from 'typeorm/query-builder/transformer/RawSqlResultsToEntityTransformer';
import { ApplyValueTransformers } from 'typeorm/util/ApplyValueTransformers';
import type { ReadOptions } from './tenant-table';

/** What a find asks for besides its conditions. */
export type FindShape<E extends ObjectLiteral> = Omit<ReadOptions<E>, 'manager'>;

/** One statement, as TypeORM wrote it, and where each call's values go in its parameters. */
interface Prepared<E extends ObjectLiteral> {
  builder: SelectQueryBuilder<E>;
  sql: string;
  /** For each `?` of `sql`: the compared field and, for an operator with several values (BETWEEN), which one. */
  parameters: { field: string; index: number }[];
}

/** Operators whose values are bound as parameters the same way every time; IS NULL has none. */
const PREPARED_OPERATORS = new Set(['isNull', 'moreThanOrEqual', 'lessThanOrEqual', 'between']);

const isPlain = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
const preparedOperator = (value: unknown): value is FindOperator<unknown> =>
  value instanceof FindOperator && PREPARED_OPERATORS.has(value.type);

/** An operator's values, in the order TypeORM binds them. */
const operands = (operator: FindOperator<unknown>): unknown[] =>
  operator.type === 'isNull' ? [] : operator.multipleParameters ? (operator.value as unknown[]) : [operator.value];

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
    const fields = Object.keys(conditions).sort();
    if (!fields.every((field) => isPlain(conditions[field]) || preparedOperator(conditions[field]))) return undefined;
    const key = `${kind}|${fields.map((field) => `${field}:${(conditions[field] as FindOperator<unknown>).type ?? '='}`).join(',')}`;
    let statement = this.prepared.get(key);
    if (statement === undefined) this.prepared.set(key, (statement = this.prepare(manager, fields, conditions, build)));
    return statement ?? undefined;
  }

  /** Each parameter's value for this call, as TypeORM would bind it: through the column's transformer. */
  private values(statement: Prepared<E>, where: FindOptionsWhere<E>): unknown[] {
    const conditions = where as Record<string, unknown>;
    return statement.parameters.map(({ field, index }) => {
      const condition = conditions[field];
      const value = condition instanceof FindOperator ? operands(condition)[index] : condition;
      const transformer = this.metadata.findColumnWithPropertyPath(field)?.transformer;
      return transformer ? ApplyValueTransformers.transformTo(transformer, value) : value;
    });
  }

  /** TypeORM builds the statement with a marker for each value; the markers' order is the parameters' order. */
  private prepare(
    manager: EntityManager,
    fields: string[],
    conditions: Record<string, unknown>,
    build: (marked: FindOptionsWhere<E>) => SelectQueryBuilder<E>,
  ): Prepared<E> | null {
    if (this.metadata.afterLoadListeners.length || manager.connection.subscribers.length) return null;
    const markers = new Map<string, { field: string; index: number }>();
    const mark = (field: string, index: number): string => {
      const marker = `\u0000prepared:${field}:${index}\u0000`;
      markers.set(marker, { field, index });
      return marker;
    };
    const marked = Object.fromEntries(
      fields.map((field) => {
        const condition = conditions[field];
        if (!(condition instanceof FindOperator)) return [field, mark(field, -1)];
        if (condition.type === 'isNull') return [field, condition];
        const values = operands(condition).map((_, index) => mark(field, index));
        return [
          field,
          new FindOperator(condition.type, condition.multipleParameters ? values : values[0], true, condition.multipleParameters),
        ];
      }),
    ) as FindOptionsWhere<E>;
    const builder = build(marked);
    const [sql, parameters] = builder.getQueryAndParameters();
    const order = parameters.map((parameter) => (typeof parameter === 'string' ? markers.get(parameter) : undefined));
    // a statement whose parameters are not exactly the compared values (a transformer that changes a value, say) is not prepared
    if (order.some((parameter) => parameter === undefined) || new Set(order).size !== markers.size) return null;
    return { builder, sql, parameters: order as Prepared<E>['parameters'] };
  }
}
