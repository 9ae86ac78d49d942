import { EntityManager, EntityMetadata, FindOperator, FindOptionsWhere, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { RawSqlResultsToEntityTransformer } from 'typeorm/query-builder/transformer/RawSqlResultsToEntityTransformer';
import { ApplyValueTransformers } from 'typeorm/util/ApplyValueTransformers';
import type { ReadOptions } from './tenant-table';

type Shape<E extends ObjectLiteral> = Omit<ReadOptions<E>, 'manager'>;

/** One statement, as TypeORM wrote it, and where each call's values go in its parameters. */
interface Prepared<E extends ObjectLiteral> {
  builder: SelectQueryBuilder<E>;
  sql: string;
  /** For each `?` of `sql`, the compared field whose value it takes. */
  fields: string[];
}

/** A field compared with a plain value (a parameter); anything else but IS NULL is not prepared. */
const isPlain = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
const isNullTest = (value: unknown): boolean => value instanceof FindOperator && value.type === 'isNull';

/**
 * Finds by equality (and IS NULL) whose SQL TypeORM builds once per shape (the fields compared, the columns
 * selected, the order and the limit) instead of on every call: building the statement and its column
 * aliases was most of TypeORM's time in a read by identifier, the service's lightest request. The rows are
 * read into entities by TypeORM's own transformer, so a prepared find returns exactly what the repository's
 * would. Conditions of another kind (In, Like, ...), and entities with load listeners or subscribers, take
 * the repository's way.
 */
export class PreparedFinds<E extends ObjectLiteral> {
  private readonly prepared = new Map<string, Prepared<E> | null>();

  constructor(private readonly metadata: EntityMetadata) {}

  /** The rows matching `where`; undefined when this find cannot be prepared (the caller uses the repository). */
  find(manager: EntityManager, where: FindOptionsWhere<E>, shape: Shape<E>): Promise<E[]> | undefined {
    const conditions = where as Record<string, unknown>;
    const fields = Object.keys(conditions).sort();
    if (!fields.every((field) => isPlain(conditions[field]) || isNullTest(conditions[field]))) return undefined;
    const key = `${fields.map((field) => (isNullTest(conditions[field]) ? `${field}:null` : field)).join(',')}|${JSON.stringify(shape)}`;
    let statement = this.prepared.get(key);
    if (statement === undefined) this.prepared.set(key, (statement = this.prepare(manager, fields, conditions, shape)));
    if (!statement) return undefined;
    const parameters = statement.fields.map((field) => this.parameter(field, conditions[field]));
    return this.run(manager, statement, parameters);
  }

  private async run(manager: EntityManager, { builder, sql }: Prepared<E>, parameters: unknown[]): Promise<E[]> {
    const rows = (await manager.query(sql, parameters)) as ObjectLiteral[];
    if (!rows.length) return [];
    const { expressionMap } = builder;
    return new RawSqlResultsToEntityTransformer(expressionMap, manager.connection.driver, []).transform(
      rows,
      expressionMap.mainAlias!,
    ) as E[];
  }

  /** A compared value as TypeORM would bind it: through the column's transformer. */
  private parameter(field: string, value: unknown): unknown {
    const transformer = this.metadata.findColumnWithPropertyPath(field)?.transformer;
    return transformer ? ApplyValueTransformers.transformTo(transformer, value) : value;
  }

  /** TypeORM builds the statement with a marker for each compared value; the markers' order is the parameters' order. */
  private prepare(manager: EntityManager, fields: string[], conditions: Record<string, unknown>, shape: Shape<E>): Prepared<E> | null {
    if (this.metadata.afterLoadListeners.length || manager.connection.subscribers.length) return null;
    const markers = new Map<string, string>();
    const markedWhere = Object.fromEntries(
      fields.map((field) => {
        if (isNullTest(conditions[field])) return [field, conditions[field]];
        const marker = `\u0000prepared:${field}\u0000`;
        markers.set(marker, field);
        return [field, marker];
      }),
    );
    const builder = manager
      .createQueryBuilder<E>(this.metadata.target, this.metadata.name)
      .setFindOptions({ ...shape, where: markedWhere as FindOptionsWhere<E> });
    const [sql, parameters] = builder.getQueryAndParameters();
    const order = parameters.map((parameter) => (typeof parameter === 'string' ? markers.get(parameter) : undefined));
    // a statement whose parameters are not exactly the compared values (a transformer that changes a value, say) is not prepared
    if (order.some((field) => field === undefined) || new Set(order).size !== markers.size) return null;
    return { builder, sql, fields: order as string[] };
  }
}
