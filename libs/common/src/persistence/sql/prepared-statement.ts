import { EntityMetadata, FindOperator, ValueTransformer } from 'typeorm';

/** A column of an entity, as its metadata lists it. */
export type ColumnMetadata = EntityMetadata['columns'][number];

/** Where one parameter of a prepared statement takes its value from: a compared field (an operator's n-th value) or a set column. */
export interface ParameterSlot {
  source: 'where' | 'set';
  field: string;
  /** Which of an operator's values (BETWEEN has two); -1 for a plain value. */
  index: number;
}

/** A slot with its column, resolved once when the statement is prepared. */
export interface BoundSlot extends ParameterSlot {
  column: ColumnMetadata;
}

/** Operators whose values are bound as parameters the same way every time; IS NULL has none. */
const PREPARED_OPERATORS = new Set(['isNull', 'moreThanOrEqual', 'lessThanOrEqual', 'between']);

const isPlain = (value: unknown): boolean => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
const isPreparedOperator = (value: unknown): value is FindOperator<unknown> =>
  value instanceof FindOperator && PREPARED_OPERATORS.has(value.type);

/** An operator's values, in the order TypeORM binds them. */
const operands = (operator: FindOperator<unknown>): unknown[] =>
  operator.type === 'isNull' ? [] : operator.multipleParameters ? (operator.value as unknown[]) : [operator.value];

/** The compared fields in a fixed order, as a statement is built from them (whatever order a call gave them in). */
export const orderedFields = (conditions: Record<string, unknown>): string[] => Object.keys(conditions).sort();

/**
 * What makes two conditions one statement: the fields in the order given and how each is compared (not the values),
 * read in one pass on every call; undefined when a condition is of a kind not prepared. The same fields given in
 * another order make another key for the same statement (orderedFields orders them before it is built).
 */
export function conditionShape(conditions: Record<string, unknown>): string | undefined {
  let shape = '';
  for (const field of Object.keys(conditions)) {
    const condition = conditions[field];
    if (isPlain(condition)) shape += `${field}:=,`;
    else if (isPreparedOperator(condition)) shape += `${field}:${condition.type},`;
    else return undefined;
  }
  return shape;
}

/** The parameter a where slot binds for this call's conditions, as TypeORM binds it: through the column's transformer. */
export function whereParameter(conditions: Record<string, unknown>, { field, index, column }: BoundSlot): unknown {
  const condition = conditions[field];
  const value = condition instanceof FindOperator ? operands(condition)[index] : condition;
  return column.transformer ? toDatabase(column.transformer, value) : value;
}

/** A value through a column's transformer(s) on its way to the database, in the order TypeORM applies them. */
function toDatabase(transformer: ValueTransformer | ValueTransformer[], value: unknown): unknown {
  return Array.isArray(transformer) ? transformer.reduce((current, each) => each.to(current), value) : transformer.to(value);
}

/**
 * Statements that TypeORM builds once, with a marker in place of each value: the markers' order in the
 * built statement's parameters is the order each later call's values are bound in.
 */
export class StatementMarkers {
  private readonly slots = new Map<string, ParameterSlot>();

  constructor(private readonly metadata: EntityMetadata) {}

  mark(slot: ParameterSlot): string {
    const marker = `\u0000prepared:${slot.source}:${slot.field}:${slot.index}\u0000`;
    this.slots.set(marker, slot);
    return marker;
  }

  /** The conditions with a marker for each value (operators rebuilt around markers; IS NULL kept). */
  where(conditions: Record<string, unknown>, fields: string[]): Record<string, unknown> {
    return Object.fromEntries(
      fields.map((field) => {
        const condition = conditions[field];
        if (!(condition instanceof FindOperator)) return [field, this.mark({ source: 'where', field, index: -1 })];
        if (condition.type === 'isNull') return [field, condition];
        const values = operands(condition).map((_, index) => this.mark({ source: 'where', field, index }));
        return [
          field,
          new FindOperator(condition.type, condition.multipleParameters ? values : values[0], true, condition.multipleParameters),
        ];
      }),
    );
  }

  /**
   * The slot of each parameter of the built statement, with its column, or null when the parameters are not
   * exactly the markers, each once (a value TypeORM changed on the way, say): such a statement is not prepared.
   */
  slotsOf(parameters: unknown[]): BoundSlot[] | null {
    const order = parameters.map((parameter) => (typeof parameter === 'string' ? this.slots.get(parameter) : undefined));
    if (order.some((slot) => slot === undefined) || new Set(order).size !== this.slots.size) return null;
    const bound = (order as ParameterSlot[]).map((slot) => ({ ...slot, column: this.metadata.findColumnWithPropertyPath(slot.field)! }));
    return bound.every((slot) => slot.column) ? bound : null;
  }
}
