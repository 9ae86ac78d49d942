import { DataSource } from 'typeorm';
import { AppException } from '../../http/app-exception';
import { BaseRecord } from '../../persistence/base-record';
import { Resource } from '../fields/resource';
import { TimeSlice } from '../../background/time-slice';
import { message } from '../../i18n/message';

type Row = Record<string, unknown>;

/** A resource's write bodies as column values, and its business key. */
export class RecordColumns<E extends BaseRecord> {
  /** isNotNull's answers by field. */
  private readonly notNull = new Map<string, boolean>();

  constructor(
    private readonly resource: Resource<E>,
    private readonly dataSource: DataSource,
  ) {
    this.assertWriteOnlyColumns();
  }

  /** A write-only column that TypeORM would select leaks on every read: refuse to start instead. */
  private assertWriteOnlyColumns(): void {
    const metadata = this.dataSource.getMetadata(this.resource.entity);
    for (const column of this.resource.writeOnly ?? []) {
      if (metadata.findColumnWithPropertyName(column)?.isSelect !== false)
        throw new Error(`${this.resource.path}: write-only column ${column} must exist and be declared with select: false`);
    }
  }

  /** The column values of a write body; null for a NOT NULL column is a validation error, not a failing statement. */
  async of(body: Row): Promise<Row> {
    const set = await this.mapped(body);
    for (const field of Object.keys(set)) {
      if (set[field] === null && this.isNotNull(field))
        throw AppException.validation(message('{{property}} must not be null', { property: field }));
    }
    return set;
  }

  /** Whether a field's column is NOT NULL, looked up once per field (a write body's fields are few and fixed). */
  private isNotNull(field: string): boolean {
    let notNull = this.notNull.get(field);
    if (notNull === undefined) {
      notNull = this.dataSource.getMetadata(this.resource.entity).findColumnWithPropertyName(field)?.isNullable === false;
      this.notNull.set(field, notNull);
    }
    return notNull;
  }

  /** The column values of each row (client identifiers kept), giving the event loop turns on long batches. */
  async ofEach(rows: Row[], slice?: TimeSlice): Promise<Row[]> {
    const mapped: Row[] = [];
    for (const row of rows) {
      mapped.push(await this.of(row));
      await slice?.pause();
    }
    return mapped;
  }

  /** The business key's fields (the identifier where the resource has none) and their values in a row. */
  keyOf(row: Row | E): Row {
    const fields: string[] = this.resource.uniqueKey ?? [this.resource.idField];
    return Object.fromEntries(fields.map((k) => [k, (row as Row)[k]]));
  }

  /** The business key as one comparable string. */
  keyText(row: Row | E): string {
    return JSON.stringify(Object.values(this.keyOf(row)));
  }

  /** The uniqueness key, for operations that need one (upserts); a resource without one is a programming error. */
  requireUniqueKey(): (keyof E & string)[] {
    if (!this.resource.uniqueKey?.length) throw new Error(`${this.resource.path} has no uniqueness key to upsert by`);
    return this.resource.uniqueKey;
  }

  /** Omitted fields dropped, then the resource's own mapping. */
  private async mapped(body: Row): Promise<Row> {
    const defined = withoutUndefined(body);
    return this.resource.toColumns ? withoutUndefined(await this.resource.toColumns(defined)) : defined;
  }
}

/** Drops undefined properties: an omitted field leaves the column as it is. */
function withoutUndefined(row: Row): Row {
  const defined = { ...row };
  for (const field of Object.keys(defined)) if (defined[field] === undefined) delete defined[field];
  return defined;
}
